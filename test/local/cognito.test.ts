import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CLIENT_ID } from '../../local/auth.ts';
import { COGNITO_PATH, createCognitoStandIn } from '../../local/cognito.ts';
import { saveUser } from '../../local/users.ts';

/**
 * The local stand-in for Cognito's sign-in API, called as the handheld app calls Cognito: the
 * JSON protocol with `X-Amz-Target`.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'cargo-cognito-'));
const key = new Uint8Array(32).fill(3);
let server: Server;
let endpoint: string;

beforeAll(async () => {
  saveUser(dataDir, { user: 'olga', password: 'correct horse battery', groups: ['operator'] });
  const cognito = createCognitoStandIn({ dataDir, key });
  server = createServer((req, res) => void cognito(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}${COGNITO_PATH}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dataDir, { recursive: true, force: true });
});

const call = async (operation: string, input: unknown) => {
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`,
    },
    body: JSON.stringify(input),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const signIn = async () => {
  const { body } = await call('InitiateAuth', {
    AuthFlow: 'USER_PASSWORD_AUTH',
    ClientId: LOCAL_CLIENT_ID,
    AuthParameters: { USERNAME: 'olga', PASSWORD: 'correct horse battery' },
  });
  return (body.AuthenticationResult as { RefreshToken: string }).RefreshToken;
};
const refresh = (token: string) =>
  call('InitiateAuth', {
    AuthFlow: 'REFRESH_TOKEN_AUTH',
    ClientId: LOCAL_CLIENT_ID,
    AuthParameters: { REFRESH_TOKEN: token },
  });

describe('RevokeToken, which the handheld calls when an operator signs out', () => {
  it('answers 200 with an empty object, and the revoked refresh token no longer refreshes', async () => {
    const token = await signIn();
    expect((await refresh(token)).status).toBe(200);
    expect(await call('RevokeToken', { ClientId: LOCAL_CLIENT_ID, Token: token })).toEqual({ status: 200, body: {} });
    expect(await refresh(token)).toEqual({
      status: 400,
      body: { __type: 'NotAuthorizedException', message: 'Refresh Token has been revoked' },
    });
  });

  it('revokes only that sign-in: another refresh token of the same user still refreshes', async () => {
    const revoked = await signIn();
    const other = await signIn();
    await call('RevokeToken', { ClientId: LOCAL_CLIENT_ID, Token: revoked });
    expect((await refresh(other)).status).toBe(200);
  });

  it('keeps a revocation across a restart of npm start (the list is in DATA_DIR)', async () => {
    const token = await signIn();
    await call('RevokeToken', { ClientId: LOCAL_CLIENT_ID, Token: token });
    const restarted = createCognitoStandIn({ dataDir, key });
    const again = createServer((req, res) => void restarted(req, res));
    await new Promise<void>((resolve) => again.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(again.address() as AddressInfo).port}${COGNITO_PATH}`, {
        method: 'POST',
        headers: { 'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth' },
        body: JSON.stringify({
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          ClientId: LOCAL_CLIENT_ID,
          AuthParameters: { REFRESH_TOKEN: token },
        }),
      });
      expect(res.status).toBe(400);
    } finally {
      await new Promise<void>((resolve) => again.close(() => resolve()));
    }
  });

  it('refuses a token it did not issue, and a missing token or client', async () => {
    expect((await call('RevokeToken', { ClientId: LOCAL_CLIENT_ID, Token: 'not.a.token' })).body.__type).toBe(
      'UnsupportedTokenTypeException',
    );
    expect((await call('RevokeToken', { ClientId: LOCAL_CLIENT_ID })).body.__type).toBe('InvalidParameterException');
    expect((await call('RevokeToken', { ClientId: 'other', Token: await signIn() })).body.__type).toBe(
      'ResourceNotFoundException',
    );
  });
});
