import { TRAIL_FLOOR_SQL, TRAIL_WEEK } from '../trail-week.ts';
import type { DatabaseFunction } from './index.ts';

/**
 * `cargo.trail_before(cargo_no, since, before_at, before_id, fetch)`: the part of a cargo's trail
 * older than the first week of the oldest month partition (in `location_record_before`: late scans
 * of any past time),
 * newest first, from `since` and before the cursor (`before_at`, `before_id`), at most `fetch`
 * entries. The history page reads it after the trail index's weeks (migration 022,
 * lib/location/locations.ts), and only when they did not fill the page. Its query is planned
 * with the oldest month's start as a constant, so only that partition is planned and read; read
 * by the page's own statement instead, every partition would be planned a second time.
 */
export const trailBefore: DatabaseFunction = {
  name: 'cargo.trail_before',
  after: 22,
  sql: `CREATE OR REPLACE FUNCTION cargo.trail_before(p_cargo_no text, p_since timestamptz, p_before_at timestamptz, p_before_id bigint, p_fetch integer)
  RETURNS SETOF cargo.location_record
  LANGUAGE plpgsql STABLE
  SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
  walk_floor timestamptz;
BEGIN
  SELECT s.floor INTO walk_floor FROM (${TRAIL_FLOOR_SQL}) AS s;
  RETURN QUERY EXECUTE format(
    $q$SELECT r.* FROM cargo.location_record r
       WHERE r.occurred_at < %L::timestamptz AND r.cargo_no = $1 COLLATE "C" AND r.occurred_at >= $2
         AND r.occurred_at <= $3 AND (r.occurred_at, r.id) < ($3, $4)
       ORDER BY r.occurred_at DESC, r.id DESC LIMIT $5$q$, ${TRAIL_WEEK('walk_floor')})
    USING p_cargo_no, p_since, COALESCE(p_before_at, 'infinity'), COALESCE(p_before_id, 9223372036854775807), p_fetch;
END
$fn$`,
};
