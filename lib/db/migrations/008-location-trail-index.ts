import type { Migration } from '../migration.ts';

/** Every column a history entry answers, beyond the trail index's key. */
export const TRAIL_COLUMNS =
  'location_code, off_shelf, scanned_at, recorded_at, recorded_by, device_id, voided_at, voided_by';

/**
 * The trail index: a cargo's scans in time order, carrying every column a history entry answers,
 * so that a page of history is an index-only scan. At a year's scale a cargo's scans of a month
 * lie on one or two index pages, where the heap has each on a page of its own: a box's first page
 * read about 200 blocks through the key-only index (docs/PERFORMANCE.md §4). Partitions of closed
 * months are all-visible after their vacuum, so their rows are read from the index alone; the
 * current month's newest rows are checked against the heap until autovacuum marks their pages.
 *
 * Building it takes the table's SHARE lock on every partition for the build's duration (minutes
 * at a year's scale, during which scans wait and are retried by the handhelds): apply it when the
 * warehouse is quiet. The statement is exported so that the benchmark builds the same index after
 * its bulk load.
 */
export const TRAIL_INDEX = `CREATE INDEX location_record_trail_idx ON cargo.location_record (cargo_no, occurred_at, id) INCLUDE (${TRAIL_COLUMNS})`;

export const locationTrailIndex: Migration = {
  id: 8,
  name: 'location-trail-index',
  statements: [TRAIL_INDEX, 'DROP INDEX cargo.location_record_cargo_idx'],
};
