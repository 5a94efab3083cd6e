import { useEffect, useMemo } from 'preact/hooks';

/**
 * The loads of a screen that shows one thing at a time (a cargo, an order, a zongpai, a box):
 * `latest(load)` resolves to the load's answer while no later load was started through it, and
 * to `undefined` once one was (or once `drop()` was called), so the last scan wins however late
 * the answer to the one before arrives: that answer is dropped, never shown.
 *
 * @example
 * ```ts
 * const { latest } = createLatest();
 * const outcome = await latest(api.run(api.client.GET(...)));
 * if (outcome === undefined) return; // superseded by a later scan
 * ```
 */
export const createLatest = () => {
  let last = 0;
  return {
    latest: async <T>(load: Promise<T>): Promise<T | undefined> => {
      last += 1;
      const mine = last;
      const answer = await load;
      return mine === last ? answer : undefined;
    },
    /** Drops the answer of every load under way (the screen was left). */
    drop: () => {
      last += 1;
    },
  };
};

/**
 * `createLatest` for a screen: an answer that arrives after the screen was left is dropped too.
 * Its `drop` is for a screen whose scans do not all start a load through it: called at every
 * scan, a scan answered at once (a refusal) also drops the answers of the scans before it.
 */
export const useLatestLoads = () => {
  const loads = useMemo(createLatest, []);
  useEffect(() => loads.drop, []);
  return loads;
};

/** {@link useLatestLoads}' `latest`: for a screen whose every answer comes from a load through it. */
export const useLatest = () => useLatestLoads().latest;
