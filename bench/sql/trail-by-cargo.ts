import type pg from 'pg';
import { TRAIL_INDEX_BYTE_ORDER } from '../../lib/db/migrations/017-history-codes-byte-order.ts';
import { MOVED_BACK } from '../../lib/db/sql-functions/void-current.ts';
import { PROCEED, type WriteStatement } from '../../lib/db/write.ts';
import { outbox } from '../../lib/events/write.ts';
import {
  locatedData,
  RECORDS_SELECT,
  SCANS_FROM,
  ScanRow,
  TRAIL_CARGO_SQL,
  TRAIL_HEADS_SQL,
  TRAIL_PARTS_SQL,
} from '../../lib/location/locations.ts';

/**
 * The location history as it was before migration 022, for the year benchmark to measure beside
 * the week-keyed trail at the same size in the same run: the trail index keyed by cargo
 * (migration 017), the history page and `cargo.void_current` that read it (their forms before
 * 022, kept here as they were), and the record statement without the span migration 024 keeps.
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

/**
 * The record statement (lib/location/locations.ts `recordStatement`, without the register's
 * checks) as it ran with the trail keyed by cargo: the records, the current locations kept, the
 * outbox's events, and no span (migration 024's columns and `location_forgotten`, which the schema
 * before 022 has not).
 */
export const RECORD_BY_CARGO: WriteStatement<ScanRow> = {
  ctes: `
inserted AS (
  INSERT INTO cargo.location_record (cargo_no, location_code, off_shelf, scanned_at, occurred_at, recorded_by, device_id)
  SELECT s.cargo_no, s.location_code, s.off_shelf, s.scanned_at,
         date_trunc('milliseconds', COALESCE(s.scanned_at - GREATEST(max(s.scanned_at) OVER () - now(), interval '0'), now())),
         :recorded_by, s.device_id
  FROM ${SCANS_FROM}
  WHERE ${PROCEED}
  ORDER BY s.ord
  RETURNING *
),
located AS (
  INSERT INTO cargo.location_current AS c (cargo_no, record_id, location_code, off_shelf, scanned_at, recorded_at, occurred_at, recorded_by, device_id)
  SELECT DISTINCT ON (i.cargo_no) i.cargo_no, i.id, i.location_code, i.off_shelf, i.scanned_at, i.recorded_at, i.occurred_at, i.recorded_by, i.device_id
  FROM inserted i
  ORDER BY i.cargo_no, i.occurred_at DESC, i.id DESC
  ON CONFLICT (cargo_no) DO UPDATE
  SET record_id = EXCLUDED.record_id, location_code = EXCLUDED.location_code, off_shelf = EXCLUDED.off_shelf, scanned_at = EXCLUDED.scanned_at,
      recorded_at = EXCLUDED.recorded_at, occurred_at = EXCLUDED.occurred_at, recorded_by = EXCLUDED.recorded_by, device_id = EXCLUDED.device_id
  WHERE (EXCLUDED.occurred_at, EXCLUDED.record_id) > (c.occurred_at, c.record_id)
  RETURNING c.cargo_no
),
${outbox([{ type: 'cargo.located', from: `inserted i CROSS JOIN (SELECT count(*) FROM located) AS current_kept`, data: locatedData(), order: 'i.id' }], ':recorded_by')}`,
  select: RECORDS_SELECT,
  row: ScanRow,
};

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
 * Puts a database of every migration back to the schema before 022, so that the run applies the
 * migrations from 022 on to it again (the benchmark applies migrations' statements without the
 * migrator's bookkeeping): 024's span of each cargo (the current locations' two columns, the
 * forgotten cargo's table) and 023's index of the late scans by cargo dropped, the trail index
 * keyed by cargo again (one statement over every partition: the benchmark is not bound by the Data
 * API's 45 s), and the function that reads it.
 */
export const backToTrailByCargo = async (client: pg.Client): Promise<void> => {
  await client.query(
    'ALTER TABLE cargo.location_current DROP COLUMN IF EXISTS first_at, DROP COLUMN IF EXISTS last_at',
  );
  await client.query('DROP TABLE IF EXISTS cargo.location_forgotten');
  await client.query('DROP INDEX IF EXISTS cargo.location_record_before_cargo_idx');
  await client.query('DROP INDEX cargo.location_record_trail_idx');
  await client.query(TRAIL_INDEX_BYTE_ORDER);
  await client.query(VOID_CURRENT_BY_CARGO);
};
