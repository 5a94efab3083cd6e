/**
 * The service's time as the device knows it. A handheld's clock may run minutes fast or slow,
 * and the service refuses a scan stamped more than 5 minutes ahead of its own clock; so scans
 * are stamped with the device's time corrected by the offset between the two, learnt from the
 * `Date` header of the service's answers and kept on the device, so that a start without
 * network still stamps with the last offset known.
 */
const STORAGE_KEY = 'cargo.clockOffset';

export interface ServiceClockOptions {
  readonly storage: Pick<Storage, 'getItem' | 'setItem'>;
  readonly now?: () => number;
}

/**
 * @example
 * ```ts
 * const clock = createServiceClock({ storage: localStorage });
 * clock.observe(response.headers.get('date'), sentAt, Date.now());
 * const scanned_at = new Date(clock.now()).toISOString();
 * ```
 */
export const createServiceClock = (options: ServiceClockOptions) => {
  const now = options.now ?? Date.now;
  let offset = Number(options.storage.getItem(STORAGE_KEY)) || 0;
  return {
    /** The service's time now, in epoch milliseconds, as well as the device knows it. */
    now: () => now() + offset,
    /**
     * Learns the offset from one answer, sent and received at these device times. The header
     * has whole seconds: the service's time was within the second after it, at some point while
     * the request was out; the middle of both is the estimate, good to about a second.
     */
    observe: (date: string | null, sentAt: number, receivedAt: number) => {
      const server = date === null ? Number.NaN : Date.parse(date);
      if (Number.isNaN(server)) return;
      const estimate = Math.round(server + 500 - (sentAt + receivedAt) / 2);
      // Within the header's precision of what is known: nothing learnt (and nothing written).
      if (Math.abs(estimate - offset) <= 1000 + (receivedAt - sentAt) / 2) return;
      offset = estimate;
      options.storage.setItem(STORAGE_KEY, String(offset));
    },
  };
};

export type ServiceClock = ReturnType<typeof createServiceClock>;
