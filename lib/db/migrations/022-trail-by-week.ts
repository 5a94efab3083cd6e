import type { Migration } from '../migrate.ts';
import { TRAIL_WEEK } from '../trail-week.ts';
import { TRAIL_COLUMNS } from './008-location-trail-index.ts';

/** The trail index's key and columns, keyed first by week (see {@link trailByWeek}). */
export const TRAIL_BY_WEEK_KEY = `(${TRAIL_WEEK('occurred_at')}, cargo_no COLLATE "C", occurred_at, id) INCLUDE (${TRAIL_COLUMNS})`;

/** The statement the benchmark builds the index with after its bulk load. */
export const TRAIL_INDEX_BY_WEEK = `CREATE INDEX location_record_trail_idx ON cargo.location_record ${TRAIL_BY_WEEK_KEY}`;

/**
 * Each partition's index, one statement (one Data API call) per partition, as migration 017 built
 * them: at a large warehouse's rate a month of about 12 M scans indexes in well under the 45 s the
 * Data API allows a statement (docs/PERFORMANCE.md §4). Oldest first, the current and future months
 * last: a build holds its partition's SHARE lock until the migrations commit, and scans are stored
 * only in the current month, so they wait for the last builds alone.
 */
const PER_PARTITION = `
SELECT s.statement
FROM (
  SELECT c.relname, format('CREATE INDEX %I ON cargo.%I ${TRAIL_BY_WEEK_KEY.replaceAll("'", "''")}', c.relname || '_trail_w_idx', c.relname) AS created,
         format('ALTER INDEX cargo.location_record_trail_w_idx ATTACH PARTITION cargo.%I', c.relname || '_trail_w_idx') AS attached,
         c.relname = 'location_record_after' AS last
  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
  WHERE i.inhparent = 'cargo.location_record'::regclass
) AS p
CROSS JOIN LATERAL (VALUES (1, p.created), (2, p.attached)) AS s (step, statement)
ORDER BY p.last, p.relname, s.step`;

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
  statements: [
    // On the parent alone: not valid, and not used, until every partition's index is attached.
    `CREATE INDEX location_record_trail_w_idx ON ONLY cargo.location_record ${TRAIL_BY_WEEK_KEY}`,
    { statementsFrom: PER_PARTITION },
    'DROP INDEX cargo.location_record_trail_idx',
    'ALTER INDEX cargo.location_record_trail_w_idx RENAME TO location_record_trail_idx',
  ],
};
