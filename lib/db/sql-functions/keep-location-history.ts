import { BEFORE_BY_CARGO_INDEX } from '../trail-week.ts';
import { historyMaintenance } from './history-maintenance.ts';

/** The most months ahead of the current one the history maintenance creates partitions for (migration 013). */
export const MONTHS_AHEAD_MAX = 12;

/**
 * `cargo.keep_location_history(months_kept, months_ahead)`: what the hourly maintenance calls
 * (lib/location/history.ts), the only function the maintenance user may run. It runs as the owner
 * (SECURITY DEFINER), so its callers' months ahead are bounded: more than {@link MONTHS_AHEAD_MAX}
 * is refused before anything changes (each month is a partition every statement on the history
 * plans). Then it:
 *
 * - runs `cargo.maintain_location_history` (months ahead, months past retention; it validates
 *   the arguments and takes the maintenance's lock for this transaction);
 * - folds the months before the first month that holds a scan, and before this month, into
 *   `location_record_before`, so a warehouse in its first year plans no empty months (each month
 *   is locked before it is found empty: a scan arriving meanwhile waits, then goes to `before`);
 * - deletes from `location_record_before` the scans past retention (late uploads from devices
 *   with old clocks: a small delete; the history itself leaves a whole month at a time).
 *
 * It answers `maintain_location_history`'s summary with the months `folded`.
 */
export const keepLocationHistory = historyMaintenance({
  name: 'cargo.keep_location_history',
  after: 13,
  body: `DECLARE
  summary jsonb;
  this_month constant timestamptz := date_trunc('month', now(), 'UTC');
  cutoff constant timestamptz := now() - make_interval(months => p_months_kept);
  month record;
  holds_scans boolean;
  history_start timestamptz;
  folded text[] := '{}';
  removed bigint;
BEGIN
  IF p_months_ahead > ${MONTHS_AHEAD_MAX} THEN
    RAISE EXCEPTION 'months ahead must be at most ${MONTHS_AHEAD_MAX}';
  END IF;
  -- Validates its arguments and takes the maintenance's lock for this transaction.
  summary := cargo.maintain_location_history(p_months_kept, p_months_ahead)::jsonb;
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
    -- After the old table is gone, with the index of the same name.
    ${BEFORE_BY_CARGO_INDEX};
  END IF;

  DELETE FROM cargo.location_record_before WHERE occurred_at < cutoff;
  GET DIAGNOSTICS removed = ROW_COUNT;
  IF removed > 0 AND NOT summary->'emptied' ? 'location_record_before' THEN
    summary := jsonb_set(summary, '{emptied}', (summary->'emptied') || to_jsonb('location_record_before'::text));
  END IF;
  RETURN (summary || jsonb_build_object('folded', to_jsonb(folded)))::json;
END`,
});
