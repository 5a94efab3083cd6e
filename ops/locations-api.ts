import type { LocationInput, RegisteredLocation } from './locations-csv.ts';

/**
 * The two routes of the location register the `locations` command calls (SPEC, The location
 * register): `POST /v1/{prefix}/locations` (1-500 locations, all or none, 200 `{created, changed,
 * unchanged}`) and `GET /v1/{prefix}/locations?limit=&cursor=` (ordered by code).
 */
export interface ImportCounts {
  readonly created: number;
  readonly changed: number;
  readonly unchanged: number;
}

/** An answer that is not a success: its status and the unified error body, as far as there is one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { error_code?: string; message?: string; details?: { field?: string; message?: string }[] },
  ) {
    super(`${status} ${body.error_code ?? 'error'}: ${body.message ?? 'no message'}`);
  }
}

export interface ApiOptions {
  /** `http://127.0.0.1:3000`, or the stack's ApiUrl (`https://…/live/v1/`). */
  readonly baseUrl: string;
  readonly prefix: string;
  readonly token: string;
  /** How often a 503 or 429 (or a lost connection) is tried again. @default 5 */
  readonly retries?: number;
  /** The longest wait between two tries, whatever Retry-After says. @default 60 s */
  readonly maxWaitMs?: number;
}

/** Told before each wait, so that the user sees why nothing moves. */
export type OnRetry = (reason: string, waitMs: number) => void;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Retry-After in seconds (the only form the service sends), else a growing wait. */
const waitOf = (response: Response | undefined, attempt: number, maxWaitMs: number): number => {
  const header = response?.headers.get('retry-after');
  const seconds =
    header !== null && header !== undefined && /^\d+$/.test(header.trim()) ? Number(header) : 2 ** attempt;
  return Math.min(seconds * 1000, maxWaitMs);
};

const bodyOf = async (response: Response): Promise<unknown> => {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return { message: text.slice(0, 200) || response.statusText };
  }
};

/**
 * A client of the register's routes for one caller. A 503 or 429 is tried again after its
 * Retry-After, and a lost connection after a growing wait, each time with the same
 * Idempotency-Key, so that a write the service did commit is replayed, not repeated.
 *
 * @example
 * ```ts
 * const api = registerApi({ baseUrl: 'http://127.0.0.1:3000', prefix: 'cargo', token });
 * const counts = await api.importBatch(locations, 'locations-…');
 * ```
 */
export const registerApi = (options: ApiOptions) => {
  const root = `${options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1/${encodeURIComponent(options.prefix)}/locations`;
  const retries = options.retries ?? 5;
  const maxWaitMs = options.maxWaitMs ?? 60_000;
  const headers = { Authorization: `Bearer ${options.token}`, Accept: 'application/json' };

  const call = async <T>(url: string, init: RequestInit, onRetry?: OnRetry): Promise<T> => {
    for (let attempt = 0; ; attempt += 1) {
      let response: Response | undefined;
      let lost: Error | undefined;
      try {
        response = await fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
      } catch (error) {
        lost = error as Error;
      }
      if (response?.ok) return (await response.json()) as T;
      const busy = response === undefined || response.status === 503 || response.status === 429;
      if (!busy || attempt >= retries) {
        if (response === undefined) throw new Error(`cannot reach ${url}: ${lost?.cause ?? lost?.message}`);
        throw new ApiError(response.status, (await bodyOf(response)) as ApiError['body']);
      }
      const waitMs = waitOf(response, attempt, maxWaitMs);
      const reason = response === undefined ? `no answer (${lost?.message})` : `${response.status}`;
      await response?.body?.cancel();
      onRetry?.(reason, waitMs);
      await sleep(waitMs);
    }
  };

  return {
    importBatch: (locations: readonly LocationInput[], idempotencyKey: string, onRetry?: OnRetry) =>
      call<ImportCounts>(
        root,
        {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey },
          body: JSON.stringify({ locations }),
        },
        onRetry,
      ),
    /** Every location of the register, a page of 100 at a time, ordered by code. */
    async *list(): AsyncGenerator<RegisteredLocation[]> {
      let cursor: string | null = null;
      do {
        const query = new URLSearchParams({ limit: '100', ...(cursor === null ? {} : { cursor }) });
        const page: { locations: RegisteredLocation[]; next_cursor: string | null } = await call(`${root}?${query}`, {
          method: 'GET',
          headers,
        });
        yield page.locations;
        cursor = page.next_cursor ?? null;
      } while (cursor !== null);
    },
  };
};

export type RegisterApi = ReturnType<typeof registerApi>;
