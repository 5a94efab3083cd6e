import * as z from 'zod';
import { ConfigError } from '../lib/config.ts';

/**
 * Stage throttling, shared by the stack (infra/settings.ts) and the local gateway: a token
 * bucket of `rateLimit` requests per second holding at most `burstLimit`, for each method of
 * the stage (API Gateway applies a stage's limits per method).
 *
 * A bad value is a {@link ConfigError}, as a bad setting of the functions is.
 */
export const DEFAULT_THROTTLING = { rateLimit: 50, burstLimit: 100 } as const;

export const ThrottlingRateLimit = z.coerce.number().min(1).max(10_000).default(DEFAULT_THROTTLING.rateLimit);
export const ThrottlingBurstLimit = z.coerce.number().int().min(1).max(5_000).default(DEFAULT_THROTTLING.burstLimit);

/**
 * The throttling from the variables the stack reads too (`CARGO_THROTTLING_RATE_LIMIT`,
 * `CARGO_THROTTLING_BURST_LIMIT`); unset means the stack's defaults.
 *
 * @example
 * ```ts
 * readThrottling({}); // { rateLimit: 50, burstLimit: 100 }
 * ```
 */
export const readThrottling = (env: Record<string, string | undefined>): { rateLimit: number; burstLimit: number } => {
  const rate = ThrottlingRateLimit.safeParse(env.CARGO_THROTTLING_RATE_LIMIT || undefined);
  const burst = ThrottlingBurstLimit.safeParse(env.CARGO_THROTTLING_BURST_LIMIT || undefined);
  const refused = (name: string, allowed: string) =>
    new ConfigError(`${name}='${String(env[name])}' is not allowed: allowed are ${allowed}`);
  if (!rate.success) throw refused('CARGO_THROTTLING_RATE_LIMIT', 'numbers of requests per second from 1 to 10000');
  if (!burst.success) throw refused('CARGO_THROTTLING_BURST_LIMIT', 'whole numbers of requests from 1 to 5000');
  return { rateLimit: rate.data, burstLimit: burst.data };
};
