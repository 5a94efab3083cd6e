import { cognitoEndpoint, type RuntimeConfig } from './config.ts';

/**
 * Sign-in against the user pool's app client with Cognito's own JSON API (`InitiateAuth`,
 * `USER_PASSWORD_AUTH`, then `REFRESH_TOKEN_AUTH` during the shift). The same calls reach AWS
 * and the local stand-in (local/cognito.ts). The session lives in the device's storage so
 * a reload keeps the operator signed in; sign-out forgets it.
 */
export interface Session {
  readonly user: string;
  readonly groups: readonly string[];
  readonly idToken: string;
  readonly refreshToken: string;
  /** Epoch milliseconds when the ID token expires. */
  readonly expiresAt: number;
}

export type SignInResult =
  | { ok: true; session: Session }
  /** `challenge`: Cognito asks for a step the app does not offer (a new password, an MFA code); `message` names it. */
  | { ok: false; reason: 'wrong' | 'offline' | 'challenge' | 'other'; message: string };

const STORAGE_KEY = 'cargo.session';
/** Refresh this long before the ID token expires. */
const REFRESH_MARGIN_MS = 5 * 60_000;
/** After a refresh that failed for another reason than a refused token, try again this much later. */
const REFRESH_RETRY_MS = 30_000;

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface AuthOptions {
  readonly config: RuntimeConfig;
  readonly storage: Storage;
  readonly fetch?: typeof fetch;
  readonly now?: () => number;
}

/** The claims of a JWT, read without verifying it (the API verifies it). */
export const claimsOf = (jwt: string): Record<string, unknown> => {
  const part = jwt.split('.')[1] ?? '';
  const text = atob(
    part
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(part.length / 4) * 4, '='),
  );
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(text, (c) => c.charCodeAt(0)))) as Record<string, unknown>;
};

const groupsOf = (claims: Record<string, unknown>): string[] => {
  const groups = claims['cognito:groups'];
  return Array.isArray(groups) ? groups.map(String) : [];
};

/**
 * @example
 * ```ts
 * const auth = createAuth({ config, storage: localStorage });
 * await auth.signIn('olga', 'secret');
 * const token = await auth.idToken(); // refreshed when it is about to expire
 * ```
 */
export const createAuth = (options: AuthOptions) => {
  const fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
  const now = options.now ?? Date.now;
  let session: Session | undefined = (() => {
    try {
      const stored = options.storage.getItem(STORAGE_KEY);
      return stored === null ? undefined : (JSON.parse(stored) as Session);
    } catch {
      return undefined;
    }
  })();
  let refreshing: Promise<Session | undefined> | undefined;
  /** When a refresh may be tried again after one that failed (Cognito busy or failing, no network). */
  let retryAt = 0;

  /** One call of Cognito's JSON API for the app client. */
  const cognito = (operation: 'InitiateAuth' | 'RevokeToken', input: Record<string, unknown>) =>
    fetchImpl(cognitoEndpoint(options.config), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`,
      },
      body: JSON.stringify({ ClientId: options.config.user_pool_client_id, ...input }),
    });

  const initiateAuth = async (flow: string, parameters: Record<string, string>) => {
    const res = await cognito('InitiateAuth', { AuthFlow: flow, AuthParameters: parameters });
    const body = (await res.json().catch(() => ({}))) as {
      AuthenticationResult?: { IdToken: string; RefreshToken?: string; ExpiresIn: number };
      ChallengeName?: string;
      __type?: string;
      message?: string;
    };
    return { ok: res.ok && body.AuthenticationResult !== undefined, body };
  };

  const keep = (next: Session | undefined) => {
    session = next;
    if (next === undefined) options.storage.removeItem(STORAGE_KEY);
    else options.storage.setItem(STORAGE_KEY, JSON.stringify(next));
    return next;
  };

  const sessionFrom = (idToken: string, refreshToken: string): Session => {
    const claims = claimsOf(idToken);
    return {
      user: String(claims['cognito:username'] ?? ''),
      groups: groupsOf(claims),
      idToken,
      refreshToken,
      expiresAt: Number(claims.exp) * 1000,
    };
  };

  /**
   * Only a refused refresh token (expired at the end of the shift, revoked), or an expired ID
   * token with none to refresh it, ends the session. Anything else (Cognito throttling or failing,
   * no network) keeps the session and its token, which the API still takes until it expires, and
   * the refresh is tried again later: the operator is never signed out by a passing fault.
   */
  const refresh = (): Promise<Session | undefined> => {
    const current = session;
    if (current === undefined) return Promise.resolve(undefined);
    if (current.refreshToken === '') return Promise.resolve(current.expiresAt > now() ? current : keep(undefined));
    refreshing ??= initiateAuth('REFRESH_TOKEN_AUTH', { REFRESH_TOKEN: current.refreshToken })
      .then(({ ok, body }) => {
        // Signed out (and maybe another operator signed in) while it was on its way: nothing of it is kept.
        if (session !== current) return undefined;
        if (ok) return keep(sessionFrom(body.AuthenticationResult!.IdToken, current.refreshToken));
        if (body.__type?.endsWith('NotAuthorizedException') === true) return keep(undefined);
        throw new Error(body.__type ?? 'refresh failed');
      })
      .catch(() => {
        if (session !== current) return undefined;
        retryAt = now() + REFRESH_RETRY_MS;
        return session;
      })
      .finally(() => {
        refreshing = undefined;
      });
    return refreshing;
  };

  return {
    session: () => session,
    isSupervisor: () => session?.groups.includes('supervisor') === true,
    signIn: async (user: string, password: string): Promise<SignInResult> => {
      try {
        const { ok, body } = await initiateAuth('USER_PASSWORD_AUTH', { USERNAME: user, PASSWORD: password });
        if (body.ChallengeName !== undefined) return { ok: false, reason: 'challenge', message: body.ChallengeName };
        if (!ok)
          return {
            ok: false,
            reason: body.__type === 'NotAuthorizedException' ? 'wrong' : 'other',
            message: body.message ?? String(body.__type),
          };
        const result = body.AuthenticationResult!;
        refreshing = undefined;
        retryAt = 0;
        return { ok: true, session: keep(sessionFrom(result.IdToken, result.RefreshToken ?? ''))! };
      } catch (error) {
        return { ok: false, reason: 'offline', message: (error as Error).message };
      }
    },
    /** The ID token for the API, refreshed first when it expires within 5 minutes (not again at once after a failed refresh). */
    idToken: async (): Promise<string | undefined> => {
      const mine = session;
      if (mine !== undefined && mine.expiresAt - now() < REFRESH_MARGIN_MS && now() >= retryAt) {
        await refresh();
        // The device changed hands meanwhile: the request was the previous operator's, and gets no token.
        if (session?.user !== mine.user) return undefined;
      }
      return session?.idToken;
    },
    refresh,
    /**
     * Forgets the session at once, then revokes its refresh token with Cognito (RevokeToken; the
     * app client has revocation on), so that a copy of it left on a shared handheld refreshes
     * nothing. Without a network the token is only forgotten, and expires with the shift.
     */
    signOut: async (): Promise<void> => {
      const ending = session;
      refreshing = undefined;
      retryAt = 0;
      keep(undefined);
      if (ending === undefined || ending.refreshToken === '') return;
      await cognito('RevokeToken', { Token: ending.refreshToken }).catch(() => undefined);
    },
  };
};

export type Auth = ReturnType<typeof createAuth>;
