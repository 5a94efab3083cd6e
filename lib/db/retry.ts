export interface RetryOptions {
  readonly isTransient: (error: unknown) => boolean;
  readonly giveUp: (lastError: unknown) => Error;
  readonly budgetMs: number;
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
}

/**
 * How much longer than its retry budget (`DB_RETRY_BUDGET_MS`) one Data API call may take,
 * retries included, before it is abandoned with 503. The stack sets every function's retry
 * budget 8 s below its timeout (infra/constructs/service-function.ts), so a call that does not
 * answer (a slow ERP view, say) ends 3 s before Lambda would stop the function, and the client
 * gets the unified body instead of API Gateway's own. The Data API itself stops waiting at 45 s.
 */
export const CALL_GRACE_MS = 5_000;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Retries an operation on transient failures with capped exponential backoff with jitter (half fixed, half random, so
 * retries never bunch up at zero delay),
 * inside a time budget (the function's timeout leaves room for it). When the budget is spent
 * the last error is handed to `giveUp`, which turns it into what the caller should see.
 *
 * @example
 * ```ts
 * await withRetry(() => client.send(cmd), { isTransient, giveUp: databaseUnavailable, budgetMs: 20_000 });
 * ```
 */
export const withRetry = async <T>(operation: () => Promise<T>, options: RetryOptions): Promise<T> => {
  const { now = Date.now, sleep = defaultSleep, random = Math.random, baseDelayMs = 100, maxDelayMs = 2_000 } = options;
  const deadline = now() + options.budgetMs;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await operation();
    } catch (error) {
      if (!options.isTransient(error)) throw error;
      const cap = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
      const delay = Math.round(cap / 2 + (random() * cap) / 2);
      if (now() + delay >= deadline) throw options.giveUp(error);
      await sleep(delay);
    }
  }
};
