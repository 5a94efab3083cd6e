import type { Migration } from '../migration.ts';

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
 * - `cargo.maintain_location_history(months_kept, months_ahead)` creates the months ahead and
 *   drops the months past retention; the maintenance function calls it (SECURITY DEFINER: the
 *   service user may not create or drop tables itself).
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
    `CREATE TABLE cargo.location_record (
       id            bigint      GENERATED ALWAYS AS IDENTITY,
       cargo_no      text        NOT NULL,
       location_code text        NOT NULL,
       off_shelf     boolean     NOT NULL DEFAULT false,
       scanned_at    timestamptz,
       recorded_at   timestamptz NOT NULL DEFAULT now(),
       occurred_at   timestamptz NOT NULL,
       recorded_by   text        NOT NULL,
       device_id     text,
       voided_at     timestamptz,
       voided_by     text,
       CONSTRAINT location_record_pkey PRIMARY KEY (id, occurred_at),
       CONSTRAINT location_record_voided_check CHECK ((voided_at IS NULL) = (voided_by IS NULL))
     ) PARTITION BY RANGE (occurred_at)`,
    'CREATE INDEX location_record_cargo_idx ON cargo.location_record (cargo_no, occurred_at, id)',
    `CREATE FUNCTION cargo.maintain_location_history(p_months_kept integer, p_months_ahead integer) RETURNS json
       LANGUAGE plpgsql VOLATILE SECURITY DEFINER
       SET search_path = pg_catalog, pg_temp
       SET lock_timeout = '10s'
     AS $fn$
     DECLARE
       this_month constant timestamptz := date_trunc('month', now(), 'UTC');
       target_end constant timestamptz := this_month + make_interval(months => p_months_ahead + 1);
       cutoff constant timestamptz := now() - make_interval(months => p_months_kept);
       first_start timestamptz;
       last_end timestamptz;
       month_start timestamptz;
       part record;
       moved bigint := 0;
       created text[] := '{}';
       dropped text[] := '{}';
       emptied text[] := '{}';
     BEGIN
       IF p_months_kept IS NULL OR p_months_kept < 1 OR p_months_ahead IS NULL OR p_months_ahead < 0 THEN
         RAISE EXCEPTION 'months kept must be at least 1 and months ahead at least 0';
       END IF;
       -- One maintenance at a time; requests wait at most lock_timeout for the DDL's short locks.
       PERFORM pg_advisory_xact_lock(7340214903);

       SELECT min(m.start), max(m.start) + interval '1 month' INTO first_start, last_end
       FROM (SELECT make_timestamptz(substr(c.relname, 18, 4)::integer, substr(c.relname, 22, 2)::integer, 1, 0, 0, 0, 'UTC') AS start
             FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
             WHERE i.inhparent = 'cargo.location_record'::regclass AND c.relname ~ '^location_record_p[0-9]{6}$') m;

       IF first_start IS NULL THEN
         -- A new layout: history starts with the oldest month retention keeps.
         first_start := date_trunc('month', cutoff, 'UTC');
         last_end := first_start;
         EXECUTE format('CREATE TABLE cargo.location_record_before PARTITION OF cargo.location_record FOR VALUES FROM (MINVALUE) TO (%L)', first_start);
         EXECUTE format('CREATE TABLE cargo.location_record_after PARTITION OF cargo.location_record FOR VALUES FROM (%L) TO (MAXVALUE)', first_start);
         created := created || ARRAY['location_record_before', 'location_record_after'];
       END IF;

       IF last_end < target_end THEN
         -- The months ahead. Rows the open-ended partition took meanwhile (the maintenance did
         -- not run for a while) move into their month.
         ALTER TABLE cargo.location_record DETACH PARTITION cargo.location_record_after;
         ALTER TABLE cargo.location_record_after RENAME TO location_record_after_old;
         month_start := last_end;
         WHILE month_start < target_end LOOP
           EXECUTE format('CREATE TABLE cargo.%I PARTITION OF cargo.location_record FOR VALUES FROM (%L) TO (%L)',
                          'location_record_p' || to_char(month_start AT TIME ZONE 'UTC', 'YYYYMM'), month_start, month_start + interval '1 month');
           created := created || ('location_record_p' || to_char(month_start AT TIME ZONE 'UTC', 'YYYYMM'));
           month_start := month_start + interval '1 month';
         END LOOP;
         EXECUTE format('CREATE TABLE cargo.location_record_after PARTITION OF cargo.location_record FOR VALUES FROM (%L) TO (MAXVALUE)', target_end);
         INSERT INTO cargo.location_record OVERRIDING SYSTEM VALUE SELECT * FROM cargo.location_record_after_old;
         GET DIAGNOSTICS moved = ROW_COUNT;
         DROP TABLE cargo.location_record_after_old;
       END IF;

       -- Retention: whole months whose every row is older than the cutoff, and what came before them.
       FOR part IN
         SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
         WHERE i.inhparent = 'cargo.location_record'::regclass AND c.relname ~ '^location_record_p[0-9]{6}$'
           AND make_timestamptz(substr(c.relname, 18, 4)::integer, substr(c.relname, 22, 2)::integer, 1, 0, 0, 0, 'UTC') + interval '1 month' <= cutoff
         ORDER BY c.relname
       LOOP
         EXECUTE format('DROP TABLE cargo.%I', part.relname);
         dropped := dropped || part.relname::text;
       END LOOP;
       IF cardinality(dropped) > 0 THEN
         SELECT min(make_timestamptz(substr(c.relname, 18, 4)::integer, substr(c.relname, 22, 2)::integer, 1, 0, 0, 0, 'UTC')) INTO first_start
         FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
         WHERE i.inhparent = 'cargo.location_record'::regclass AND c.relname ~ '^location_record_p[0-9]{6}$';
         DROP TABLE cargo.location_record_before;
         EXECUTE format('CREATE TABLE cargo.location_record_before PARTITION OF cargo.location_record FOR VALUES FROM (MINVALUE) TO (%L)', first_start);
         dropped := dropped || 'location_record_before'::text;
       ELSIF first_start <= cutoff AND EXISTS (SELECT 1 FROM cargo.location_record_before) THEN
         -- Late scans of times before the oldest month: all past retention.
         TRUNCATE cargo.location_record_before;
         emptied := emptied || 'location_record_before'::text;
       END IF;

       RETURN json_build_object('created', to_json(created), 'dropped', to_json(dropped), 'emptied', to_json(emptied), 'moved', moved);
     END
     $fn$`,
    // The default retention; the maintenance applies the configured one on its first run.
    'SELECT cargo.maintain_location_history(25, 2)::text AS layout',
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
