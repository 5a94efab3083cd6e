import type { Migration } from '../migration.ts';

/**
 * The location history's layout starts where its scans do. A new layout (migration 005) creates
 * every month back to the retention cutoff, 25 by default, and a warehouse in its first year kept
 * planning the empty ones: every statement that reads a cargo's history without a time bound
 * plans each partition, and planning is most of such a statement's time (docs/PERFORMANCE.md §4:
 * 28 partitions down to 15 took a third to a half off it).
 *
 * This migration brought `cargo.keep_location_history(months_kept, months_ahead)`, what the
 * maintenance calls: it runs `maintain_location_history`, then folds the empty months before the
 * first scan into `location_record_before` and keeps no scan past retention there. The function
 * is a statement of the migrator's, not of this migration's: its current form is
 * lib/db/sql-functions/keep-location-history.ts, applied after the migrations.
 */
export const locationHistoryFromFirstScan: Migration = {
  id: 9,
  name: 'location-history-from-first-scan',
  statements: [],
};
