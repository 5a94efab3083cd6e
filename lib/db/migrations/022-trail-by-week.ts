import type { Migration } from '../migrate.ts';
import { trailIndexRebuilt } from '../trail-rebuild.ts';
import { TRAIL_WEEK } from '../trail-week.ts';
import { TRAIL_COLUMNS } from './008-location-trail-index.ts';

/** The trail index's key and columns, keyed first by week (see {@link trailByWeek}). */
export const TRAIL_BY_WEEK_KEY = `(${TRAIL_WEEK('occurred_at')}, cargo_no COLLATE "C", occurred_at, id) INCLUDE (${TRAIL_COLUMNS})`;

/** The statement the benchmark builds the index with after its bulk load. */
export const TRAIL_INDEX_BY_WEEK = `CREATE INDEX location_record_trail_idx ON cargo.location_record ${TRAIL_BY_WEEK_KEY}`;

/**
 * The trail index keyed by week first, then cargo: `(week, cargo_no, occurred_at, id)`. Keyed by
 * cargo first (migrations 008, 017), every backlog of 500 wrote its entries at 500 random places
 * of the current month's index (about 1.6 GB near a month's end at 400 000 scans a day), and on
 * the smallest Aurora instance about 300 of those pages a backlog were not in its cache. Keyed by
 * week, new scans land in the current week's part of the index, a quarter of a month's, which
 * stays cached. A cargo's history is then read a week at a time, newest first, each week one
 * index descent (lib/location/locations.ts, `cargo.void_current`); the weeks walked are those of
 * the month partitions, and `location_record_before` (late scans older than every month) is read
 * for the cargo alone.
 *
 * `cargo.void_current` reads the trail by week from this migration on (its form in
 * lib/db/sql-functions/void-current.ts is applied after it).
 */
export const trailByWeek: Migration = {
  id: 22,
  name: 'trail-by-week',
  statements: trailIndexRebuilt('location_record_trail_w_idx', TRAIL_BY_WEEK_KEY),
};
