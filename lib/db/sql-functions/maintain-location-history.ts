import { BEFORE_BY_CARGO_INDEX } from '../trail-week.ts';
import { historyMaintenance } from './history-maintenance.ts';

/**
 * `cargo.maintain_location_history(months_kept, months_ahead)`: the location history's partitions
 * (migration 005's layout, a table per month of `occurred_at` between `location_record_before` and
 * `location_record_after`). It runs as the owner (SECURITY DEFINER: the service's users may not
 * create or drop tables), one run at a time (an advisory lock), and:
 *
 * - drops the months an earlier run retired (`location_record_pYYYYMM_retired`): no partition any
 *   more, so removing their files at commit locks nothing a request uses;
 * - on a new layout, starts the history with the oldest month retention keeps;
 * - creates the months up to `months_ahead` after this one, moving into its month any row the
 *   open-ended `location_record_after` took meanwhile;
 * - retires every whole month past retention: detached and renamed `<month>_retired` (a change of
 *   the catalog, committed at once) rather than dropped under its parent's lock, and
 *   `location_record_before` starts again at the oldest month kept (with its index by cargo,
 *   migration 023, as whenever it creates that table); or, when no month leaves,
 *   empties `location_record_before` of late scans all past retention.
 *
 * It answers what it did: the tables `created`, `dropped` (retired), `emptied`, `removed` and the
 * rows `moved`. The maintenance calls it through `cargo.keep_location_history`.
 */
export const maintainLocationHistory = historyMaintenance({
  name: 'cargo.maintain_location_history',
  after: 10,
  body: `DECLARE
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
  removed text[] := '{}';
BEGIN
  IF p_months_kept IS NULL OR p_months_kept < 1 OR p_months_ahead IS NULL OR p_months_ahead < 0 THEN
    RAISE EXCEPTION 'months kept must be at least 1 and months ahead at least 0';
  END IF;
  -- One maintenance at a time; requests wait at most lock_timeout for the DDL's short locks.
  PERFORM pg_advisory_xact_lock(7340214903);

  -- The months an earlier run took out of the history: no partition any more, so dropping
  -- them (and removing their files at commit) locks nothing a request uses.
  FOR part IN
    SELECT c.relname FROM pg_class c
    WHERE c.relnamespace = 'cargo'::regnamespace AND c.relkind = 'r' AND NOT c.relispartition
      AND c.relname ~ '^location_record_p[0-9]{6}_retired$'
    ORDER BY c.relname
  LOOP
    EXECUTE format('DROP TABLE cargo.%I', part.relname);
    removed := removed || part.relname::text;
  END LOOP;

  SELECT min(m.start), max(m.start) + interval '1 month' INTO first_start, last_end
  FROM (SELECT make_timestamptz(substr(c.relname, 18, 4)::integer, substr(c.relname, 22, 2)::integer, 1, 0, 0, 0, 'UTC') AS start
        FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'cargo.location_record'::regclass AND c.relname ~ '^location_record_p[0-9]{6}$') m;

  IF first_start IS NULL THEN
    -- A new layout: history starts with the oldest month retention keeps.
    first_start := date_trunc('month', cutoff, 'UTC');
    last_end := first_start;
    EXECUTE format('CREATE TABLE cargo.location_record_before PARTITION OF cargo.location_record FOR VALUES FROM (MINVALUE) TO (%L)', first_start);
    ${BEFORE_BY_CARGO_INDEX};
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

  -- Retention: whole months whose every row is older than the cutoff leave the history now
  -- (detached, kept as <month>_retired until the next run), and what came before them goes.
  FOR part IN
    SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = 'cargo.location_record'::regclass AND c.relname ~ '^location_record_p[0-9]{6}$'
      AND make_timestamptz(substr(c.relname, 18, 4)::integer, substr(c.relname, 22, 2)::integer, 1, 0, 0, 0, 'UTC') + interval '1 month' <= cutoff
    ORDER BY c.relname
  LOOP
    EXECUTE format('ALTER TABLE cargo.location_record DETACH PARTITION cargo.%I', part.relname);
    EXECUTE format('ALTER TABLE cargo.%I RENAME TO %I', part.relname, part.relname || '_retired');
    dropped := dropped || part.relname::text;
  END LOOP;
  IF cardinality(dropped) > 0 THEN
    SELECT min(make_timestamptz(substr(c.relname, 18, 4)::integer, substr(c.relname, 22, 2)::integer, 1, 0, 0, 0, 'UTC')) INTO first_start
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = 'cargo.location_record'::regclass AND c.relname ~ '^location_record_p[0-9]{6}$';
    DROP TABLE cargo.location_record_before;
    EXECUTE format('CREATE TABLE cargo.location_record_before PARTITION OF cargo.location_record FOR VALUES FROM (MINVALUE) TO (%L)', first_start);
    ${BEFORE_BY_CARGO_INDEX};
    dropped := dropped || 'location_record_before'::text;
  ELSIF first_start <= cutoff AND EXISTS (SELECT 1 FROM cargo.location_record_before) THEN
    -- Late scans of times before the oldest month: all past retention.
    TRUNCATE cargo.location_record_before;
    emptied := emptied || 'location_record_before'::text;
  END IF;

  RETURN json_build_object('created', to_json(created), 'dropped', to_json(dropped), 'emptied', to_json(emptied), 'moved', moved,
                           'removed', to_json(removed));
END`,
});
