import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT, jwtVerify } from 'jose';

/**
 * Local stand-in for the Cognito user pool: HS256 tokens signed with a key kept in the data
 * folder, carrying the claims the Cognito authorizer hands to functions.
 */
export const LOCAL_ISSUER = 'cargo-local-user-pool';

/** Reads the local signing key, creating it on first use (shared by `npm start` and `npm run token`). */
export const localSigningKey = (dataDir: string): Uint8Array => {
  const file = join(dataDir, 'local-signing-key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
};

/**
 * Signs an ID token like Cognito's: `cognito:username`, `cognito:groups`, `token_use: id`.
 *
 * @example
 * ```ts
 * const token = await signLocalToken(key, { user: 'alice', groups: ['operator'] });
 * ```
 */
export const signLocalToken = async (
  key: Uint8Array,
  options: { user: string; groups: readonly string[]; expiresInSeconds?: number; now?: Date },
): Promise<string> => {
  const issuedAt = Math.floor((options.now ?? new Date()).getTime() / 1000);
  return new SignJWT({ 'cognito:username': options.user, 'cognito:groups': [...options.groups], token_use: 'id' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(options.user)
    .setIssuer(LOCAL_ISSUER)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + (options.expiresInSeconds ?? 12 * 3600))
    .sign(key);
};

/** Cognito's authorizer passes every claim as a string; dates in this format. */
const claimDate = (epochSeconds: number): string => new Date(epochSeconds * 1000).toUTCString().replace(/^(\w+), (\d+) (\w+) (\d+) (\S+) GMT$/, '$1 $3 $2 $5 UTC $4');

/**
 * Verifies a token as API Gateway's Cognito authorizer does and returns the claims the way it
 * delivers them (all strings; groups comma-separated), or `undefined` for no valid token.
 */
export const verifyLocalToken = async (key: Uint8Array, authorization: string | undefined): Promise<Record<string, string> | undefined> => {
  if (authorization === undefined) return undefined;
  const token = authorization.replace(/^Bearer\s+/i, '').trim();
  try {
    const { payload } = await jwtVerify(token, key, { issuer: LOCAL_ISSUER, algorithms: ['HS256'] });
    const claims: Record<string, string> = {};
    for (const [name, value] of Object.entries(payload)) {
      if (name === 'exp' || name === 'iat' || name === 'auth_time') claims[name] = claimDate(Number(value));
      else claims[name] = Array.isArray(value) ? value.join(',') : String(value);
    }
    return claims;
  } catch {
    return undefined;
  }
};
