/** Latency figures of one series of samples, in milliseconds. */
export interface Summary {
  readonly n: number;
  readonly p50: number;
  readonly p99: number;
  readonly mean: number;
  readonly min: number;
  readonly max: number;
}

/**
 * The nearest-rank percentile of an ascending list: with 200 samples, p99 is the 198th value,
 * so the two slowest of 200 do not decide it, a third does.
 *
 * @example
 * ```ts
 * percentile([1, 2, 3, 4], 50); // 2
 * ```
 */
export const percentile = (sorted: readonly number[], p: number): number => {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
};

/** @example median([3, 1, 2]) // 2 */
export const median = (samples: readonly number[]): number =>
  percentile(
    [...samples].sort((a, b) => a - b),
    50,
  );

/** @example summarize([1.2, 0.8, 3.1]).p50 // 1.2 */
export const summarize = (samples: readonly number[]): Summary => {
  const sorted = [...samples].sort((a, b) => a - b);
  const sum = sorted.reduce((acc, v) => acc + v, 0);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: sorted.length === 0 ? Number.NaN : sum / sorted.length,
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
};

/** Milliseconds with one decimal (two below 1 ms), for tables. */
export const ms = (value: number): string =>
  Number.isNaN(value) ? '–' : value < 1 ? value.toFixed(2) : value.toFixed(1);

/** Bytes as KB (1 KB = 1000 bytes, as bundle sizes are usually quoted) with one decimal. */
export const kb = (bytes: number): string => `${(bytes / 1000).toFixed(1)} KB`;
