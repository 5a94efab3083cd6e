import type { Migration } from '../migration.ts';

/**
 * The partitions of the first layout, a statement each: `location_record_before` up to the oldest
 * month kept, a table per month from it to 2 months after this one, `location_record_after` from
 * there on. What the maintenance creates on a new layout with its default retention.
 */
const FIRST_LAYOUT = `
WITH bounds AS (
  -- Months of UTC, counted on timestamps without a time zone: the session's zone moves no bound.
  SELECT date_trunc('month', (now() AT TIME ZONE 'UTC') - interval '25 months') AS first_month,
         date_trunc('month', now() AT TIME ZONE 'UTC') + interval '3 months' AS end_month
)
SELECT statement FROM (
  SELECT 0 AS n, format('CREATE TABLE cargo.location_record_before PARTITION OF cargo.location_record FOR VALUES FROM (MINVALUE) TO (%L)',
                        first_month AT TIME ZONE 'UTC') AS statement
  FROM bounds
  UNION ALL
  SELECT 1, format('CREATE TABLE cargo.%I PARTITION OF cargo.location_record FOR VALUES FROM (%L) TO (%L)',
                   'location_record_p' || to_char(m, 'YYYYMM'), m AT TIME ZONE 'UTC', (m + interval '1 month') AT TIME ZONE 'UTC')
  FROM bounds CROSS JOIN LATERAL generate_series(first_month, end_month - interval '1 month', interval '1 month') AS m
  UNION ALL
  SELECT 2, format('CREATE TABLE cargo.location_record_after PARTITION OF cargo.location_record FOR VALUES FROM (%L) TO (MAXVALUE)',
                   end_month AT TIME ZONE 'UTC')
  FROM bounds
) AS layout
ORDER BY n, statement`;

/**
 * Location history at a large warehouse's scale (see docs/PERFORMANCE.md, "A year of scans").
 *
 * - `cargo.location_record` becomes a table partitioned by month of `occurred_at`: inserts touch
 *   only the current month's indexes, a cargo's history is read newest partition first (an
 *   ordered Append that stops at the page's LIMIT), and retention drops whole months.
 *   Partitions are contiguous: `location_record_before` [MINVALUE, first month), one
 *   `location_record_pYYYYMM` per month, `location_record_after` [last month's end, MAXVALUE),
 *   so a scan of any time always has a partition, even when the maintenance has not run.
 * - A record voided by a supervisor keeps its row, with `voided_at` and `voided_by`.
 * - `cargo.location_current` holds each cargo's latest unvoided record, written in the same
 *   statement as every scan and void; it is kept when history is dropped.
 * - The first layout reaches back to the oldest month the default retention keeps (25 months)
 *   and 2 months ahead. From then on the hourly maintenance keeps it: months ahead created, months
 *   past retention dropped (`cargo.maintain_location_history`, which this migration defined first:
 *   its current form is lib/db/sql-functions/maintain-location-history.ts, applied by the migrator
 *   after the migrations).
 *
 * The existing rows move into the new layout in this migration's transaction.
 */
export const locationHistory: Migration = {
  id: 5,
  name: 'location-history',
  statements: [
    'ALTER TABLE cargo.location_record RENAME TO location_record_v1',
    'ALTER TABLE cargo.location_record_v1 RENAME CONSTRAINT location_record_pkey TO location_record_v1_pkey',
    'ALTER INDEX cargo.location_record_cargo_idx RENAME TO location_record_v1_cargo_idx',
    // The columns of before (their defaults and identity too, not their key), and the void's two.
    `CREATE TABLE cargo.location_record (
       LIKE cargo.location_record_v1 INCLUDING DEFAULTS INCLUDING IDENTITY,
       voided_at     timestamptz,
       voided_by     text,
       CONSTRAINT location_record_pkey PRIMARY KEY (id, occurred_at),
       CONSTRAINT location_record_voided_check CHECK ((voided_at IS NULL) = (voided_by IS NULL))
     ) PARTITION BY RANGE (occurred_at)`,
    'CREATE INDEX location_record_cargo_idx ON cargo.location_record (cargo_no, occurred_at, id)',
    { statementsFrom: FIRST_LAYOUT },
    `INSERT INTO cargo.location_record (id, cargo_no, location_code, off_shelf, scanned_at, recorded_at, occurred_at, recorded_by, device_id)
     OVERRIDING SYSTEM VALUE
     SELECT id, cargo_no, location_code, off_shelf, scanned_at, recorded_at, occurred_at, recorded_by, device_id FROM cargo.location_record_v1`,
    `SELECT setval(pg_get_serial_sequence('cargo.location_record', 'id'), COALESCE(max(id), 1), max(id) IS NOT NULL)::text AS next_id
     FROM cargo.location_record_v1`,
    `CREATE TABLE cargo.location_current (
       cargo_no      text        PRIMARY KEY,
       record_id     bigint      NOT NULL,
       location_code text        NOT NULL,
       off_shelf     boolean     NOT NULL,
       scanned_at    timestamptz,
       recorded_at   timestamptz NOT NULL,
       occurred_at   timestamptz NOT NULL,
       recorded_by   text        NOT NULL,
       device_id     text
     )`,
    'CREATE INDEX location_current_location_idx ON cargo.location_current (location_code, cargo_no)',
    `INSERT INTO cargo.location_current (cargo_no, record_id, location_code, off_shelf, scanned_at, recorded_at, occurred_at, recorded_by, device_id)
     SELECT DISTINCT ON (cargo_no) cargo_no, id, location_code, off_shelf, scanned_at, recorded_at, occurred_at, recorded_by, device_id
     FROM cargo.location_record_v1
     ORDER BY cargo_no, occurred_at DESC, id DESC`,
    'DROP TABLE cargo.location_record_v1',
  ],
};
