/**
 * The local stand-in for Cognito's sign-in API, answering the JSON calls the handheld app makes
 * to `https://cognito-idp.{region}.amazonaws.com/` exactly as Cognito does:
 * `X-Amz-Target: AWSCognitoIdentityProviderService.InitiateAuth` with `USER_PASSWORD_AUTH`
 * (user name and password) and `REFRESH_TOKEN_AUTH`, and `RevokeToken` at sign-out (the app
 * client has token revocation on), after which that refresh token is refused. Revocations are
 * kept in DATA_DIR (revoked-tokens.json) until the tokens expire. Users are those of `npm run user`
 * (users.ts); tokens are signed with the local key the gateway checks (auth.ts), with the
 * app client's lifetimes (infra/constructs/auth.ts: ID 1 hour, refresh 12 hours).
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT, jwtVerify } from 'jose';
import { LOCAL_CLIENT_ID, LOCAL_ISSUER, signLocalToken } from './auth.ts';
import { splitTarget } from './gateway-routing.ts';
import { checkPassword, readUsers } from './users.ts';

/** The path the stand-in answers on, beside the API on the same origin. */
export const COGNITO_PATH = '/cognito-idp/';
const TARGET = 'AWSCognitoIdentityProviderService.';
const ID_TOKEN_SECONDS = 3600;
const REFRESH_TOKEN_SECONDS = 12 * 3600;
const REFRESH_AUDIENCE = `${LOCAL_CLIENT_ID}/refresh`;

export interface CognitoStandInOptions {
  readonly dataDir: string;
  readonly key: Uint8Array;
  readonly clientId?: string;
}

type Answer = { status: number; body: Record<string, unknown> };

/** Cognito's error shape: `{"__type": "...Exception", "message": "..."}`, status 400. */
const refuse = (type: string, message: string): Answer => ({ status: 400, body: { __type: type, message } });

const readJson = (req: IncomingMessage): Promise<unknown> =>
  new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= 64 * 1024) chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        resolve(size > 64 * 1024 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        resolve(undefined);
      }
    });
    req.on('error', () => resolve(undefined));
  });

const tokensFor = async (options: CognitoStandInOptions, user: string, groups: readonly string[]) => {
  const idToken = await signLocalToken(options.key, { user, groups, expiresInSeconds: ID_TOKEN_SECONDS });
  const accessToken = await signLocalToken(options.key, {
    user,
    groups,
    expiresInSeconds: ID_TOKEN_SECONDS,
    tokenUse: 'access',
  });
  return { AccessToken: accessToken, ExpiresIn: ID_TOKEN_SECONDS, IdToken: idToken, TokenType: 'Bearer' };
};

const signRefresh = (key: Uint8Array, user: string) =>
  new SignJWT({ token_use: 'refresh' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user)
    .setIssuer(LOCAL_ISSUER)
    .setAudience(REFRESH_AUDIENCE)
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime(`${REFRESH_TOKEN_SECONDS}s`)
    .sign(key);

/** Revoked refresh tokens (their `jti`) with when each expires, in DATA_DIR. */
const revokedFile = (dataDir: string) => join(dataDir, 'revoked-tokens.json');
const readRevoked = (dataDir: string): Record<string, number> => {
  if (!existsSync(revokedFile(dataDir))) return {};
  try {
    return JSON.parse(readFileSync(revokedFile(dataDir), 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
};
const revoke = (dataDir: string, jti: string, expiresAt: number) => {
  const now = Date.now() / 1000;
  const kept = Object.entries(readRevoked(dataDir)).filter(([, exp]) => exp > now);
  const next = `${revokedFile(dataDir)}.${process.pid}`;
  writeFileSync(next, JSON.stringify(Object.fromEntries([...kept, [jti, expiresAt]])), { mode: 0o600 });
  renameSync(next, revokedFile(dataDir));
};

/** The claims of a refresh token this stand-in issued, or undefined. */
const verifyRefresh = async (key: Uint8Array, token: string) => {
  try {
    const { payload } = await jwtVerify(token, key, {
      issuer: LOCAL_ISSUER,
      audience: REFRESH_AUDIENCE,
      algorithms: ['HS256'],
    });
    return payload;
  } catch {
    return undefined;
  }
};

/** Cognito's answer to a call for another app client than the stand-in's, or undefined. */
const foreignClient = (options: CognitoStandInOptions, clientId: unknown): Answer | undefined =>
  clientId === (options.clientId ?? LOCAL_CLIENT_ID)
    ? undefined
    : refuse('ResourceNotFoundException', `User pool client ${String(clientId)} does not exist.`);

const revokeToken = async (options: CognitoStandInOptions, input: Record<string, unknown>): Promise<Answer> => {
  if (typeof input.ClientId !== 'string' || typeof input.Token !== 'string')
    return refuse('InvalidParameterException', 'Missing required parameter Token or ClientId');
  const foreign = foreignClient(options, input.ClientId);
  if (foreign !== undefined) return foreign;
  const payload = await verifyRefresh(options.key, input.Token);
  if (payload?.jti === undefined) return refuse('UnsupportedTokenTypeException', 'The token is not a refresh token.');
  revoke(options.dataDir, payload.jti, Number(payload.exp));
  return { status: 200, body: {} };
};

const initiateAuth = async (options: CognitoStandInOptions, input: Record<string, unknown>): Promise<Answer> => {
  const foreign = foreignClient(options, input.ClientId);
  if (foreign !== undefined) return foreign;
  const parameters = (
    typeof input.AuthParameters === 'object' && input.AuthParameters !== null ? input.AuthParameters : {}
  ) as Record<string, unknown>;
  if (input.AuthFlow === 'USER_PASSWORD_AUTH') {
    const user = parameters.USERNAME;
    const password = parameters.PASSWORD;
    if (typeof user !== 'string' || typeof password !== 'string')
      return refuse('InvalidParameterException', 'Missing required parameter USERNAME or PASSWORD');
    const groups = checkPassword(options.dataDir, user, password);
    // The app client prevents user existence errors: an unknown user reads as a wrong password.
    if (groups === undefined) return refuse('NotAuthorizedException', 'Incorrect username or password.');
    return {
      status: 200,
      body: {
        AuthenticationResult: {
          ...(await tokensFor(options, user, groups)),
          RefreshToken: await signRefresh(options.key, user),
        },
        ChallengeParameters: {},
      },
    };
  }
  if (input.AuthFlow === 'REFRESH_TOKEN_AUTH' || input.AuthFlow === 'REFRESH_TOKEN') {
    const token = parameters.REFRESH_TOKEN;
    if (typeof token !== 'string')
      return refuse('InvalidParameterException', 'Missing required parameter REFRESH_TOKEN');
    const payload = await verifyRefresh(options.key, token);
    if (payload === undefined) return refuse('NotAuthorizedException', 'Invalid Refresh Token');
    const user = String(payload.sub);
    // Groups as they are now: a group change counts from the next token, as in Cognito.
    const found = readUsers(options.dataDir)[user];
    if (found === undefined || (payload.jti !== undefined && Object.hasOwn(readRevoked(options.dataDir), payload.jti)))
      return refuse('NotAuthorizedException', 'Refresh Token has been revoked');
    return {
      status: 200,
      body: { AuthenticationResult: await tokensFor(options, user, found.groups), ChallengeParameters: {} },
    };
  }
  return refuse('InvalidParameterException', `Initiate Auth method not supported: ${String(input.AuthFlow)}`);
};

/**
 * Answers a request to {@link COGNITO_PATH} and returns true; any other path is left alone.
 *
 * @example
 * ```ts
 * const cognito = createCognitoStandIn({ dataDir: '.data', key });
 * http.createServer((req, res) => cognito(req, res) || next(req, res));
 * ```
 */
export const createCognitoStandIn =
  (options: CognitoStandInOptions) =>
  (req: IncomingMessage, res: ServerResponse): boolean => {
    if (splitTarget(req.url ?? '/').path !== COGNITO_PATH) return false;
    const reply = ({ status, body }: Answer) => {
      const text = JSON.stringify(body);
      res.writeHead(status, {
        'content-type': 'application/x-amz-json-1.1',
        'x-amzn-requestid': randomUUID(),
        'cache-control': 'no-store',
        'content-length': String(Buffer.byteLength(text)),
      });
      res.end(text);
    };
    if (req.method !== 'POST') {
      reply({ status: 405, body: { __type: 'UnknownOperationException', message: 'Only POST is supported' } });
      return true;
    }
    void (async () => {
      const input = await readJson(req);
      const operation = { [`${TARGET}InitiateAuth`]: initiateAuth, [`${TARGET}RevokeToken`]: revokeToken }[
        String(req.headers['x-amz-target'])
      ];
      if (operation === undefined) return reply({ status: 400, body: { __type: 'UnknownOperationException' } });
      if (typeof input !== 'object' || input === null)
        return reply(refuse('SerializationException', 'Request body is not JSON'));
      return reply(await operation(options, input as Record<string, unknown>));
    })().catch(() => reply({ status: 500, body: { __type: 'InternalErrorException', message: 'Internal error' } }));
    return true;
  };
