import { TRAIL_FLOOR_SQL, TRAIL_WEEK } from '../trail-week.ts';
import type { DatabaseFunction } from './function.ts';

/**
 * The end of `cargo.void_current` once it looked for the scan before the voided one (`f`, found
 * when the condition before it is false): none, and the cargo's current location is forgotten;
 * one, and the current location moves back to it. Shared with the benchmark's form of the
 * function before 022 (bench/sql/trail-by-cargo.ts), which ends alike.
 */
export const MOVED_BACK = `    DELETE FROM cargo.location_current c WHERE c.cargo_no = p_cargo_no;
    RETURN 'forgotten';
  END IF;
  UPDATE cargo.location_current c
  SET record_id = f.id, location_code = f.location_code, off_shelf = f.off_shelf, scanned_at = f.scanned_at,
      recorded_at = f.recorded_at, occurred_at = f.occurred_at, recorded_by = f.recorded_by, device_id = f.device_id
  WHERE c.cargo_no = p_cargo_no;
  RETURN 'moved_back';
END`;

/**
 * `cargo.void_current(cargo_no, record_id)`: after a void (lib/location/void.ts), the cargo's
 * current location as the writes committed before it leave it, not as the void's statement saw
 * them when it started. It first locks the cargo's current location (the row every scan and void
 * of the cargo writes or locks), waiting for whichever holds it; its queries then read with new
 * snapshots (a VOLATILE function's queries each take one), which see what those writes committed.
 * When the voided record is the current location, the newest scan of the cargo that is not voided
 * takes its place, or the cargo has no current location left. The trail is read as its index is
 * keyed (migration 022): a week at a time, from the voided record's week back (no scan not voided
 * is newer than the current location), each week one descent on (week, cargo codes compared in
 * "C"), down to the oldest month partition or the cargo's first scan (its span, migration 024),
 * whichever is later, then what lies before every month if its first scan is older (every scan
 * not voided lies within the current location's span: what a void forgot before was all voided).
 * When no scan is left, the span joins the one `location_forgotten` holds for the cargo as the
 * current location is forgotten: the voided records stay in the history, which reads both spans.
 *
 * Answers what it did: `moved_back`, `forgotten` (no scan left), or `kept` (the voided record was
 * not the current location).
 */
export const voidCurrent: DatabaseFunction = {
  name: 'cargo.void_current',
  after: 24,
  sql: `CREATE OR REPLACE FUNCTION cargo.void_current(p_cargo_no text, p_record_id bigint) RETURNS text
  LANGUAGE plpgsql VOLATILE
  SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
  f record;
  week timestamptz;
  first_seen timestamptz;
  walk_floor timestamptz;
  kept_one boolean := false;
BEGIN
  PERFORM 1 FROM cargo.location_current c WHERE c.cargo_no = p_cargo_no FOR UPDATE;
  SELECT ${TRAIL_WEEK('c.occurred_at')}, c.first_at INTO week, first_seen
  FROM cargo.location_current c WHERE c.cargo_no = p_cargo_no AND c.record_id = p_record_id;
  IF NOT FOUND THEN
    RETURN 'kept';
  END IF;
  SELECT s.floor INTO walk_floor FROM (${TRAIL_FLOOR_SQL}) AS s;
  LOOP
    EXIT WHEN week < ${TRAIL_WEEK("GREATEST(walk_floor, COALESCE(first_seen, '-infinity'))")};
    SELECT r.id, r.location_code, r.off_shelf, r.scanned_at, r.recorded_at, r.occurred_at, r.recorded_by, r.device_id
    INTO f
    FROM cargo.location_record r
    WHERE ${TRAIL_WEEK('r.occurred_at')} = week AND r.cargo_no = p_cargo_no COLLATE "C"
      AND r.occurred_at >= GREATEST(week, walk_floor) AND r.occurred_at < week + interval '168 hours'
      AND r.voided_at IS NULL AND r.id <> p_record_id
    ORDER BY r.occurred_at DESC, r.id DESC
    LIMIT 1;
    kept_one := FOUND;
    EXIT WHEN kept_one;
    week := week - interval '168 hours';
  END LOOP;
  IF NOT kept_one AND COALESCE(first_seen, '-infinity') < walk_floor THEN
    SELECT r.id, r.location_code, r.off_shelf, r.scanned_at, r.recorded_at, r.occurred_at, r.recorded_by, r.device_id
    INTO f
    FROM cargo.location_record r
    WHERE r.occurred_at < walk_floor AND r.cargo_no = p_cargo_no COLLATE "C" AND r.voided_at IS NULL AND r.id <> p_record_id
    ORDER BY r.occurred_at DESC, r.id DESC
    LIMIT 1;
    kept_one := FOUND;
  END IF;
  IF NOT kept_one THEN
    INSERT INTO cargo.location_forgotten AS g (cargo_no, first_at, last_at)
    SELECT c.cargo_no, c.first_at, c.last_at FROM cargo.location_current c WHERE c.cargo_no = p_cargo_no
    ON CONFLICT (cargo_no) DO UPDATE
    SET first_at = CASE WHEN g.first_at IS NOT NULL AND EXCLUDED.first_at IS NOT NULL THEN LEAST(g.first_at, EXCLUDED.first_at) END,
        last_at = CASE WHEN g.last_at IS NOT NULL AND EXCLUDED.last_at IS NOT NULL THEN GREATEST(g.last_at, EXCLUDED.last_at) END;
${MOVED_BACK}
$fn$`,
};
