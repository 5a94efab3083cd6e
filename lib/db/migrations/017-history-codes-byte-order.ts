import type { Migration } from '../migration.ts';
import { TRAIL_COLUMNS } from './008-location-trail-index.ts';
import { voidCurrentFunction } from './011-void-current-after-concurrent-writes.ts';

/**
 * The trail index of migration 008 with its cargo codes compared byte by byte ("C"), whatever the
 * database's collation. On Aurora (databases in `en_US.UTF-8`) each of a backlog's 500 history
 * rows descended the index comparing codes in the language's collation: about 3 ms of a backlog's
 * 29-31 ms of CPU (docs/PERFORMANCE.md §4, "Runs AN-AS"). The column keeps the database's
 * collation; the index compares in "C", and so do the statements that read by it
 * (`r.cargo_no = … COLLATE "C"`, lib/location/locations.ts and `cargo.void_current`).
 *
 * The statement is exported so that the benchmark builds the same index after its bulk load.
 */
export const TRAIL_INDEX_BYTE_ORDER = `CREATE INDEX location_record_trail_idx ON cargo.location_record (cargo_no COLLATE "C", occurred_at, id) INCLUDE (${TRAIL_COLUMNS})`;

/**
 * Each partition's index, one statement (one Data API call) per partition: a year's history
 * takes minutes to index, over the 45 s the Data API allows one statement, and a large
 * warehouse's month 8-12 s (docs/PERFORMANCE.md §4). Oldest first, the current and future months last: building an
 * index holds its partition's SHARE lock until the migrations commit, and scans are stored only
 * in the current month, so they wait for the last builds alone.
 */
const PER_PARTITION = `
SELECT s.statement
FROM (
  SELECT c.relname, format('CREATE INDEX %I ON cargo.%I (cargo_no COLLATE "C", occurred_at, id) INCLUDE (${TRAIL_COLUMNS})',
                           c.relname || '_trail_c_idx', c.relname) AS created,
         format('ALTER INDEX cargo.location_record_trail_c_idx ATTACH PARTITION cargo.%I', c.relname || '_trail_c_idx') AS attached,
         c.relname = 'location_record_after' AS last
  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
  WHERE i.inhparent = 'cargo.location_record'::regclass
) AS p
CROSS JOIN LATERAL (VALUES (1, p.created), (2, p.attached)) AS s (step, statement)
ORDER BY p.last, p.relname, s.step`;

export const historyCodesByteOrder: Migration = {
  id: 17,
  name: 'history-codes-byte-order',
  statements: [
    // On the parent alone: not valid, and not used, until every partition's index is attached.
    `CREATE INDEX location_record_trail_c_idx ON ONLY cargo.location_record (cargo_no COLLATE "C", occurred_at, id) INCLUDE (${TRAIL_COLUMNS})`,
    { statementsFrom: PER_PARTITION },
    'DROP INDEX cargo.location_record_trail_idx',
    'ALTER INDEX cargo.location_record_trail_c_idx RENAME TO location_record_trail_idx',
    // Migration 011's function, reading the trail in "C" so that the new index serves it.
    voidCurrentFunction({ create: 'CREATE OR REPLACE FUNCTION', trailCollation: ' COLLATE "C"' }),
  ],
};
