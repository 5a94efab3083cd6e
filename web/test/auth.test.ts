import { describe, expect, it } from 'vitest';
import { createAuth } from '../src/auth.ts';

/** An ID token the app can read (the API verifies it; the app only reads its claims). */
const jwt = (claims: Record<string, unknown>) => `h.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.s`;
const config = { region: 'local', user_pool_client_id: 'app' };
const minute = 60_000;

/** A device with a stored session whose ID token expires in a minute, and a scripted Cognito. */
const device = (answers: (() => Promise<Response>)[]) => {
  const store = new Map<string, string>();
  const storage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  };
  let clock = 1_800_000_000_000;
  const idToken = jwt({ 'cognito:username': 'olga', exp: (clock + minute) / 1000 });
  storage.setItem(
    'cargo.session',
    JSON.stringify({ user: 'olga', groups: [], idToken, refreshToken: 'r', expiresAt: clock + minute }),
  );
  const calls: number[] = [];
  const fetch = async () => {
    calls.push(clock);
    return (answers.shift() ?? (() => Promise.reject(new TypeError('no script'))))();
  };
  const auth = createAuth({ config, storage, fetch: fetch as typeof globalThis.fetch, now: () => clock });
  return { auth, store, calls, idToken, tick: (ms: number) => void (clock += ms), at: () => clock };
};
const cognito = (status: number, body: unknown) => () =>
  Promise.resolve(new Response(JSON.stringify(body), { status }));

describe('the session during a shift', () => {
  it.each([
    ['Cognito throttling', cognito(400, { __type: 'TooManyRequestsException', message: 'Rate exceeded' })],
    ['a server error', cognito(500, { __type: 'InternalErrorException' })],
    ['no network', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('keeps the session and its still valid token when a refresh fails with %s', async (_, answer) => {
    const { auth, store, idToken } = device([answer]);
    expect(await auth.idToken()).toBe(idToken);
    expect(auth.session()?.user).toBe('olga');
    expect(store.has('cargo.session')).toBe(true);
  });

  it('tries a failed refresh again later, not on every request', async () => {
    const refreshed = jwt({ 'cognito:username': 'olga', exp: 1_800_003_600 });
    const { auth, calls, tick } = device([
      cognito(400, { __type: 'TooManyRequestsException' }),
      cognito(200, { AuthenticationResult: { IdToken: refreshed, ExpiresIn: 3600 } }),
    ]);
    await auth.idToken();
    tick(5_000);
    await auth.idToken();
    expect(calls).toHaveLength(1);
    tick(30_000);
    expect(await auth.idToken()).toBe(refreshed);
    expect(calls).toHaveLength(2);
  });

  it('ends the session when Cognito refuses the refresh token', async () => {
    const { auth, store } = device([
      cognito(400, { __type: 'NotAuthorizedException', message: 'Refresh Token has expired' }),
    ]);
    expect(await auth.idToken()).toBeUndefined();
    expect(auth.session()).toBeUndefined();
    expect(store.has('cargo.session')).toBe(false);
  });
});

describe('a handheld changing hands while a refresh is on its way', () => {
  /** Cognito answering only when told to: the refresh is slow. */
  const slow = () => {
    let answer: (res: Response) => void = () => undefined;
    const pending = () => new Promise<Response>((resolve) => (answer = resolve));
    return {
      pending,
      answer: (status: number, body: unknown) => answer(new Response(JSON.stringify(body), { status })),
    };
  };
  const samToken = jwt({ 'cognito:username': 'sam', exp: 1_800_003_600 });
  const signInSam = cognito(200, { AuthenticationResult: { IdToken: samToken, RefreshToken: 's', ExpiresIn: 3600 } });

  it.each([
    ['renews it', 200, { AuthenticationResult: { IdToken: jwt({ 'cognito:username': 'olga', exp: 1_800_003_600 }) } }],
    ['refuses it', 400, { __type: 'NotAuthorizedException' }],
    ['fails', 500, { __type: 'InternalErrorException' }],
  ])(
    "keeps the next operator signed in when the first one's refresh %s after the hand-over, and gives the first one's request no token",
    async (_what, status, body) => {
      const cognitoSlow = slow();
      // Cognito's answers in turn: olga's refresh (slow), her sign-out's RevokeToken, sam's sign-in.
      const { auth } = device([cognitoSlow.pending, cognito(200, {}), signInSam]);
      const olgasToken = auth.idToken();
      auth.signOut();
      expect((await auth.signIn('sam', 'pw')).ok).toBe(true);
      cognitoSlow.answer(status, body);
      expect(await olgasToken).toBeUndefined();
      expect(auth.session()?.user).toBe('sam');
      expect(await auth.idToken()).toBe(samToken);
    },
  );
});

describe('signing in to an account Cognito asks more of', () => {
  it.each(['NEW_PASSWORD_REQUIRED', 'SOFTWARE_TOKEN_MFA'])(
    'says the account needs %s rather than a message of its own, and keeps no session',
    async (challenge) => {
      const { auth } = device([
        cognito(200, {}),
        cognito(200, { ChallengeName: challenge, Session: 'x', ChallengeParameters: {} }),
      ]);
      auth.signOut();
      expect(await auth.signIn('newbie', 'Temp-Passw0rd!2026')).toEqual({
        ok: false,
        reason: 'challenge',
        message: challenge,
      });
      expect(auth.session()).toBeUndefined();
    },
  );
});

describe('signing out', () => {
  /** A device signed in as olga whose Cognito records every call. */
  const recorded = (answer: () => Promise<Response>) => {
    const store = new Map<string, string>();
    store.set(
      'cargo.session',
      JSON.stringify({ user: 'olga', groups: [], idToken: jwt({ exp: 2e9 }), refreshToken: 'r-olga', expiresAt: 2e12 }),
    );
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    };
    const calls: { target: string | null; body: unknown }[] = [];
    const fetch = async (_url: string, init: RequestInit) => {
      calls.push({ target: new Headers(init.headers).get('x-amz-target'), body: JSON.parse(String(init.body)) });
      return answer();
    };
    const auth = createAuth({ config, storage, fetch: fetch as unknown as typeof globalThis.fetch });
    return { auth, store, calls };
  };

  it("revokes the operator's refresh token with Cognito, so a copy of it refreshes nothing", async () => {
    const { auth, store, calls } = recorded(cognito(200, {}));
    await auth.signOut();
    expect(calls).toEqual([
      { target: 'AWSCognitoIdentityProviderService.RevokeToken', body: { ClientId: 'app', Token: 'r-olga' } },
    ]);
    expect(auth.session()).toBeUndefined();
    expect(store.has('cargo.session')).toBe(false);
  });

  it('signs out all the same when Cognito cannot be reached', async () => {
    const { auth, store } = recorded(() => Promise.reject(new TypeError('Failed to fetch')));
    await auth.signOut();
    expect(auth.session()).toBeUndefined();
    expect(store.has('cargo.session')).toBe(false);
  });
});
