import type { Migration } from '../migration.ts';

/**
 * The location history's layout starts where its scans do. A new layout (migration 005) creates
 * every month back to the retention cutoff, 25 by default, and a warehouse in its first year keeps
 * planning the empty ones: every statement that reads a cargo's history without a time bound
 * plans each partition, and planning is most of such a statement's time (docs/PERFORMANCE.md §4:
 * 28 partitions down to 15 took a third to a half off it).
 *
 * `cargo.keep_location_history(months_kept, months_ahead)` is what the maintenance calls. It
 * runs `maintain_location_history` (months ahead, whole months past retention), then:
 * - the months before the first month that holds a scan, and before this month, are dropped and
 *   `location_record_before` covers them instead (each month is locked before it is found empty,
 *   so a scan arriving meanwhile waits and then goes to `before`);
 * - `location_record_before` keeps no scan past retention. It only ever holds scans dated before
 *   the layout's first month (late uploads from devices with old clocks), so removing those past
 *   the cutoff is a small delete; the history itself is still dropped a whole month at a time.
 */
export const locationHistoryFromFirstScan: Migration = {
  id: 9,
  name: 'location-history-from-first-scan',
  statements: [
    `CREATE FUNCTION cargo.keep_location_history(p_months_kept integer, p_months_ahead integer) RETURNS json
       LANGUAGE plpgsql VOLATILE SECURITY DEFINER
       SET search_path = pg_catalog, pg_temp
       SET lock_timeout = '10s'
     AS $fn$
     DECLARE
       -- Validates its arguments and takes the maintenance's lock for this transaction.
       summary jsonb := cargo.maintain_location_history(p_months_kept, p_months_ahead)::jsonb;
       this_month constant timestamptz := date_trunc('month', now(), 'UTC');
       cutoff constant timestamptz := now() - make_interval(months => p_months_kept);
       month record;
       holds_scans boolean;
       history_start timestamptz;
       folded text[] := '{}';
       removed bigint;
     BEGIN
       FOR month IN
         SELECT c.relname,
                make_timestamptz(substr(c.relname, 18, 4)::integer, substr(c.relname, 22, 2)::integer, 1, 0, 0, 0, 'UTC') AS start
         FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
         WHERE i.inhparent = 'cargo.location_record'::regclass AND c.relname ~ '^location_record_p[0-9]{6}$'
         ORDER BY 2
       LOOP
         EXIT WHEN month.start >= this_month;
         EXECUTE format('LOCK TABLE cargo.%I IN ACCESS EXCLUSIVE MODE', month.relname);
         EXECUTE format('SELECT EXISTS (SELECT 1 FROM cargo.%I)', month.relname) INTO holds_scans;
         EXIT WHEN holds_scans;
         folded := folded || month.relname::text;
         history_start := month.start + interval '1 month';
       END LOOP;

       IF cardinality(folded) > 0 THEN
         ALTER TABLE cargo.location_record DETACH PARTITION cargo.location_record_before;
         ALTER TABLE cargo.location_record_before RENAME TO location_record_before_old;
         FOR i IN 1 .. cardinality(folded) LOOP
           EXECUTE format('DROP TABLE cargo.%I', folded[i]);
         END LOOP;
         EXECUTE format('CREATE TABLE cargo.location_record_before PARTITION OF cargo.location_record FOR VALUES FROM (MINVALUE) TO (%L)', history_start);
         INSERT INTO cargo.location_record OVERRIDING SYSTEM VALUE SELECT * FROM cargo.location_record_before_old;
         DROP TABLE cargo.location_record_before_old;
       END IF;

       DELETE FROM cargo.location_record_before WHERE occurred_at < cutoff;
       GET DIAGNOSTICS removed = ROW_COUNT;
       IF removed > 0 AND NOT summary->'emptied' ? 'location_record_before' THEN
         summary := jsonb_set(summary, '{emptied}', (summary->'emptied') || to_jsonb('location_record_before'::text));
       END IF;
       RETURN (summary || jsonb_build_object('folded', to_jsonb(folded)))::json;
     END
     $fn$`,
  ],
};
