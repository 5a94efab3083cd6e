import type { Db } from '../db/types.ts';

/** What one maintenance run changed in the partitions of the location history. */
export interface HistoryMaintenance {
  /** Partitions created: the months ahead (and, on a new layout, the open-ended ones). */
  created: string[];
  /**
   * Whole months taken out of the history as past retention, and the partition of what came
   * before them. A month is detached at once and its table (`<month>_retired`) removed by the
   * next run (`removed`).
   */
  dropped: string[];
  /** Tables of months an earlier run took out of the history, dropped with their files. */
  removed: string[];
  /** The partition of scans older than every month, when scans past retention were removed from it. */
  emptied: string[];
  /** Scans moved out of the open-ended partition into the month created for them. */
  moved: number;
  /** Empty months before the first month holding scans, dropped: `before` covers them. */
  folded: string[];
}

/** How many months ahead of the current one always have a partition. */
export const MONTHS_AHEAD = 2;

export const MAINTAIN_SQL =
  'SELECT cargo.keep_location_history(:months_kept::integer, :months_ahead::integer) AS summary';

/**
 * Keeps the location history's monthly partitions: the months ahead exist before a scan needs
 * them, months whose every scan is older than `monthsKept` months leave the history whole (no
 * row-by-row delete: detached at once, their tables dropped by the next run, so that no request
 * waits while their files are removed; migration 010), and the empty months before the first one
 * holding scans are dropped, so that history statements do not plan them (migration 009). Scans
 * dated before every month, kept apart, are removed once past retention. Current locations are
 * not touched. One statement, which refuses more than 12 months ahead (migration 013).
 *
 * @example
 * ```ts
 * const done = await maintainLocationHistory(db, { monthsKept: config.locationHistoryMonths });
 * done.dropped; // e.g. ['location_record_p202409', 'location_record_before']
 * done.removed; // at the next run: ['location_record_p202409_retired']
 * ```
 */
export const maintainLocationHistory = async (
  db: Db,
  options: { monthsKept: number; monthsAhead?: number },
): Promise<HistoryMaintenance> => {
  const { rows } = await db.query<{ summary: HistoryMaintenance }>(MAINTAIN_SQL, {
    months_kept: options.monthsKept,
    months_ahead: options.monthsAhead ?? MONTHS_AHEAD,
  });
  const summary = rows[0]?.summary;
  if (summary === undefined) throw new Error('the location history maintenance answered nothing');
  return summary;
};
