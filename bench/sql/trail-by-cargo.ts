import type pg from 'pg';
import { TRAIL_INDEX_BYTE_ORDER } from '../../lib/db/migrations/017-history-codes-byte-order.ts';
import { MOVED_BACK } from '../../lib/db/sql-functions/void-current.ts';
import { TRAIL_CARGO_SQL, TRAIL_HEADS_SQL, TRAIL_PARTS_SQL } from '../../lib/location/locations.ts';

/**
 * The location history as it was before migration 022, for the year benchmark to measure beside
 * the week-keyed trail at the same size in the same run: the trail index keyed by cargo
 * (migration 017), the history page and `cargo.void_current` that read it (their forms before
 * 022, kept here as they were).
 */
export const TRAIL_BY_CARGO_SQL = `
WITH ${TRAIL_CARGO_SQL},
${TRAIL_HEADS_SQL},
page AS (
  SELECT p.*, t.via
  FROM trails t
  CROSS JOIN LATERAL (
    SELECT r.id, r.cargo_no, r.location_code, r.off_shelf, r.scanned_at, r.recorded_at, r.occurred_at, r.recorded_by, r.device_id,
           r.voided_at, r.voided_by
    FROM cargo.location_record r
    -- The history's codes keep the database's collation; its trail index compares them in "C" (migration 017).
    WHERE r.cargo_no = t.cargo_no COLLATE "C"
      AND r.occurred_at <= COALESCE(:before_at::timestamptz, 'infinity')
      AND (r.occurred_at, r.id) < (COALESCE(:before_at::timestamptz, 'infinity'), COALESCE(:before_id::bigint, 9223372036854775807))
    ORDER BY r.occurred_at DESC, r.id DESC LIMIT :fetch) p
  WHERE p.occurred_at >= t.since
),
${TRAIL_PARTS_SQL}`;

/** `cargo.void_current` as it read the trail keyed by cargo (lib/db/sql-functions/void-current.ts before 022). */
export const VOID_CURRENT_BY_CARGO = `CREATE OR REPLACE FUNCTION cargo.void_current(p_cargo_no text, p_record_id bigint) RETURNS text
  LANGUAGE plpgsql VOLATILE
  SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
  f record;
BEGIN
  PERFORM 1 FROM cargo.location_current c WHERE c.cargo_no = p_cargo_no FOR UPDATE;
  IF NOT EXISTS (SELECT 1 FROM cargo.location_current c WHERE c.cargo_no = p_cargo_no AND c.record_id = p_record_id) THEN
    RETURN 'kept';
  END IF;
  SELECT r.id, r.location_code, r.off_shelf, r.scanned_at, r.recorded_at, r.occurred_at, r.recorded_by, r.device_id
  INTO f
  FROM cargo.location_record r
  WHERE r.cargo_no = p_cargo_no COLLATE "C" AND r.voided_at IS NULL AND r.id <> p_record_id
  ORDER BY r.occurred_at DESC, r.id DESC
  LIMIT 1;
  IF NOT FOUND THEN
${MOVED_BACK}
$fn$`;

/**
 * Puts a database of every migration back to the trail keyed by cargo: its index (one statement
 * over every partition: the benchmark is not bound by the Data API's 45 s), the function that
 * reads it, so that the run applies migration 022 to it again (the benchmark applies migrations'
 * statements without the migrator's bookkeeping).
 */
export const backToTrailByCargo = async (client: pg.Client): Promise<void> => {
  await client.query('DROP INDEX cargo.location_record_trail_idx');
  await client.query(TRAIL_INDEX_BYTE_ORDER);
  await client.query(VOID_CURRENT_BY_CARGO);
};
