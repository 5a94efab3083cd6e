import createClient from 'openapi-fetch';
import type { Auth } from './auth.ts';
import type { ErrorBody, paths } from './api-types.ts';
import type { ServiceClock } from './clock.ts';
import { acceptLanguage, type Lang } from './i18n.ts';

/**
 * The API client: openapi-fetch over the generated types, with the ID token and the device's
 * language on every call, one refresh-and-retry on a 401, and every answer turned into an
 * {@link Outcome} the screens switch on.
 */
export type Outcome<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number; error: ErrorBody }
  | { ok: false; status: 0; offline: true };

export interface ApiOptions {
  readonly auth: Auth;
  readonly lang: () => Lang;
  readonly fetch?: (request: Request) => Promise<Response>;
  readonly baseUrl?: string;
  /** Learns the service's time from each answer's `Date` header (scans are stamped with it). */
  readonly clock?: Pick<ServiceClock, 'observe'>;
  /** The `{service_prefix}` path segment the service is deployed with (`config.json`). @default 'cargo' */
  readonly servicePrefix?: string;
}

/**
 * The `{service_prefix}` segment of the paths in api-types.ts: the OpenAPI document they are
 * generated from is the service's with its default prefix.
 */
const TYPED_PREFIX = '/v1/cargo/';

/**
 * The request for a service deployed with another prefix: the location routes' paths (the
 * ones holding the prefix) moved under it, the method, headers and body as they were.
 */
const underPrefix = async (request: Request, servicePrefix: string | undefined): Promise<Request> => {
  const url = new URL(request.url);
  const prefix = `/v1/${servicePrefix ?? 'cargo'}/`;
  if (prefix === TYPED_PREFIX || !url.pathname.startsWith(TYPED_PREFIX)) return request;
  url.pathname = prefix + url.pathname.slice(TYPED_PREFIX.length);
  // A body read whole: a streamed one would need `duplex`, which not every handheld's browser knows.
  const body = request.body === null ? null : await request.arrayBuffer();
  return new Request(url, { method: request.method, headers: request.headers, body, signal: request.signal });
};

const isErrorBody = (body: unknown): body is ErrorBody =>
  typeof body === 'object' && body !== null && typeof (body as ErrorBody).error_code === 'string';

/**
 * @example
 * ```ts
 * const api = createApi({ auth, lang: () => 'en' });
 * const info = await api.run(api.client.GET('/v1/box/info', { params: { query: { box_no: 'BOX-1001' } } }));
 * ```
 */
export const createApi = (options: ApiOptions) => {
  const base = options.fetch ?? ((request: Request) => fetch(request));
  /**
   * Sends a request; one made for an operator (`owner`: a backlog of their scans) goes only with
   * that operator's token. If the handheld changed hands on the way, it is not sent (an error,
   * which {@link run} reports as offline): it waits for its owner instead of being recorded as
   * the next operator's.
   */
  const sender = (owner?: string) => async (sent: Request) => {
    const request = await underPrefix(sent, options.servicePrefix);
    const owned = (token: string | undefined): string | undefined => {
      if (owner !== undefined && options.auth.session()?.user !== owner)
        throw new Error('the handheld changed hands: the request waits for its owner');
      return token;
    };
    const attempt = async (token: string | undefined) => {
      const copy = request.clone();
      if (token !== undefined) copy.headers.set('authorization', token);
      copy.headers.set('accept-language', acceptLanguage(options.lang()));
      const sentAt = Date.now();
      const res = await base(copy);
      options.clock?.observe(res.headers.get('date'), sentAt, Date.now());
      return res;
    };
    const res = await attempt(owned(await options.auth.idToken()));
    if (res.status !== 401 || options.auth.session() === undefined) return res;
    // Refused before any function ran (API Gateway's authorizer): safe to send again once.
    const renewed = await options.auth.refresh();
    return renewed === undefined ? res : attempt(owned(renewed.idToken));
  };
  const client = createClient<paths>({ baseUrl: options.baseUrl ?? '', fetch: sender() });
  /** A client whose requests go only as `owner` (see {@link sender}). */
  const clientFor = (owner: string) => createClient<paths>({ baseUrl: options.baseUrl ?? '', fetch: sender(owner) });

  /** Awaits an openapi-fetch call and says what came of it; a failed connection is `offline`. */
  const run = async <T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<Outcome<T>> => {
    try {
      const { data, error, response } = await call;
      if (response.ok) return { ok: true, status: response.status, data: data as T };
      if (isErrorBody(error)) return { ok: false, status: response.status, error };
      // Not the service's body (a proxy's error page): said as the service would.
      return {
        ok: false,
        status: response.status,
        error: {
          error_code: response.status >= 500 ? 'INTERNAL_ERROR' : 'VALIDATION_ERROR',
          message: `HTTP ${response.status}`,
          domain: 'system',
          request_id: '',
        },
      };
    } catch {
      return { ok: false, status: 0, offline: true };
    }
  };
  return { client, clientFor, run };
};

export type Api = ReturnType<typeof createApi>;

/** Answers worth the same request again under the same key: no answer, or the service busy or failing. */
export const isTransient = (outcome: Outcome<unknown>): boolean =>
  outcome.status === 0 || outcome.status === 429 || outcome.status >= 500;

export interface RetryOptions {
  /** Told before each new attempt (the screen says it is retrying). */
  readonly onRetry?: (attempt: number) => void;
  /** Give up (the operator saves again, with the same key) after this long. @default 60 s */
  readonly deadlineMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
}

/**
 * Sends a write until it gets a definitive answer: the same request (the same Idempotency-Key)
 * again while there is no answer or the service is busy, waiting 0.5, 1, 2, 4 then 5 s between
 * tries. Never reports success before the service did.
 */
export const withRetries = async <T>(
  attempt: () => Promise<Outcome<T>>,
  options: RetryOptions = {},
): Promise<Outcome<T>> => {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  const deadline = now() + (options.deadlineMs ?? 60_000);
  for (let tries = 1; ; tries += 1) {
    const outcome = await attempt();
    if (!isTransient(outcome) || now() >= deadline) return outcome;
    options.onRetry?.(tries);
    await sleep(Math.min(5000, 250 * 2 ** tries));
  }
};

/**
 * One Idempotency-Key per attempt at a write: the same key while the body is the same and no
 * definitive answer came, a new one once the service answered or the body changed.
 */
export const createKeyKeeper = (newKey: () => string = () => crypto.randomUUID()) => {
  let current: { body: string; key: string } | undefined;
  return {
    keyFor: (body: unknown): string => {
      const text = JSON.stringify(body);
      if (current?.body !== text) current = { body: text, key: newKey() };
      return current.key;
    },
    /** The service answered: the next attempt is a new request. */
    settle: () => {
      current = undefined;
    },
  };
};
