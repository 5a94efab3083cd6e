/**
 * Local stand-in for the Cognito user pool: HS256 tokens signed with a key kept in the data
 * folder, carrying the claims a Cognito ID token carries and the Cognito authorizer hands
 * to functions.
 */

import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT, jwtVerify, type JWTPayload } from 'jose';

/** The local pool's id, shaped like a Cognito user pool id. */
export const LOCAL_USER_POOL_ID = 'us-east-1_cargoLocal';
/** Shaped like a pool's issuer, `https://cognito-idp.{region}.amazonaws.com/{userPoolId}`. */
export const LOCAL_ISSUER = `https://cognito-idp.us-east-1.amazonaws.com/${LOCAL_USER_POOL_ID}`;
/** The local handhelds' app client: the `aud` of local ID tokens, and the functions' `USER_POOL_CLIENT_ID`. */
export const LOCAL_CLIENT_ID = 'cargolocalhandheldclient01';

/** Reads the local signing key, creating it on first use (shared by `npm start` and `npm run token`). */
export const localSigningKey = (dataDir: string): Uint8Array => {
  const file = join(dataDir, 'local-signing-key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
};

/** A user's `sub`: a UUID, the same for every token of that user, as in a user pool. */
const localSub = (user: string): string => {
  const hex = createHash('sha256').update(`${LOCAL_USER_POOL_ID}/${user}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${((Number.parseInt(hex[16] as string, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

export interface LocalTokenOptions {
  readonly user: string;
  readonly groups: readonly string[];
  readonly expiresInSeconds?: number;
  readonly now?: Date;
  /** `access` signs an access token, which the authorizer refuses as Cognito's does. @default 'id' */
  readonly tokenUse?: 'id' | 'access';
  /** Another app client of the pool. @default {@link LOCAL_CLIENT_ID} */
  readonly clientId?: string;
}

/**
 * Signs a token with the claims Cognito puts in it: for an ID token `sub` (a UUID), `aud`
 * (the app client), `iss`, `token_use: id`, `auth_time`, `cognito:username`,
 * `cognito:groups`, `jti`; an access token has `client_id`, `username` and `scope` instead.
 *
 * @example
 * ```ts
 * const token = await signLocalToken(key, { user: 'alice', groups: ['operator'] });
 * ```
 */
export const signLocalToken = async (key: Uint8Array, options: LocalTokenOptions): Promise<string> => {
  const issuedAt = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const clientId = options.clientId ?? LOCAL_CLIENT_ID;
  const groups = options.groups.length === 0 ? {} : { 'cognito:groups': [...options.groups] };
  const claims: JWTPayload =
    options.tokenUse === 'access'
      ? {
          ...groups,
          client_id: clientId,
          username: options.user,
          scope: 'aws.cognito.signin.user.admin',
          token_use: 'access',
          auth_time: issuedAt,
        }
      : { ...groups, aud: clientId, 'cognito:username': options.user, token_use: 'id', auth_time: issuedAt };
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(localSub(options.user))
    .setIssuer(LOCAL_ISSUER)
    .setJti(randomUUID())
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + (options.expiresInSeconds ?? 12 * 3600))
    .sign(key);
};

/** The authorizer writes `exp` and `iat` as dates in this format: `Tue Apr 04 18:39:39 UTC 2023`. */
const claimDate = (epochSeconds: number): string =>
  new Date(epochSeconds * 1000).toUTCString().replace(/^(\w+), (\d+) (\w+) (\d+) (\S+) GMT$/, '$1 $3 $2 $5 UTC $4');

/**
 * Verifies a token as API Gateway's Cognito user pool authorizer does (signature, issuer,
 * expiry, and only ID tokens: without OAuth scopes on the method it refuses access tokens,
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-enable-cognito-user-pool.html)
 * and returns the claims the way it hands them to a Lambda proxy integration: every value a
 * string, `exp`/`iat` as dates, other numbers as digits, lists joined with bare commas
 * (see lib/http/authorize.ts). `undefined` for no valid token.
 */
export const verifyLocalToken = async (
  key: Uint8Array,
  authorization: string | undefined,
): Promise<Record<string, string> | undefined> => {
  if (authorization === undefined) return undefined;
  const token = authorization.replace(/^Bearer\s+/i, '').trim();
  try {
    // Every token Cognito issues expires: one without `exp` is not one of them.
    const { payload } = await jwtVerify(token, key, {
      issuer: LOCAL_ISSUER,
      algorithms: ['HS256'],
      requiredClaims: ['exp', 'iat'],
    });
    if (payload.token_use !== 'id') return undefined;
    const claims: Record<string, string> = {};
    for (const [name, value] of Object.entries(payload)) {
      if (name === 'exp' || name === 'iat') claims[name] = claimDate(Number(value));
      else claims[name] = Array.isArray(value) ? value.join(',') : String(value);
    }
    return claims;
  } catch {
    return undefined;
  }
};
