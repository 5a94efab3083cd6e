import type { Migration } from '../migration.ts';

/**
 * `cargo.void_current(cargo_no, record_id)`: after a void, the cargo's current location as the
 * writes committed before it leave it, not as the void's statement saw them when it started.
 *
 * One statement reads with the snapshot it started with (READ COMMITTED). A void that chose the
 * fallback from that snapshot could miss what another write committed meanwhile: with two scans of
 * one cargo voided at once, the current location could stay on the other voided scan; with a late
 * backlog uploaded as the current scan was voided, on a scan older than the one just uploaded.
 * This function first locks the cargo's current location (the row every scan and void of the
 * cargo writes or locks), waiting for whichever of them holds it; its queries then read with new
 * snapshots (a VOLATILE function's queries each take one), which see what those writes
 * committed. When the voided record is the current location, the newest scan of the cargo that is
 * not voided takes its place, or the cargo has no current location left.
 *
 * Returns what it did: `moved_back`, `forgotten` (no scan left), or `kept` (the voided record was
 * not the current location).
 *
 * Migration 017 replaces it with the trail read in "C" (`trailCollation`), as its index compares since.
 */
export const voidCurrentFunction = ({
  create,
  trailCollation,
}: {
  create: 'CREATE FUNCTION' | 'CREATE OR REPLACE FUNCTION';
  trailCollation: '' | ' COLLATE "C"';
}): string => `${create} cargo.void_current(p_cargo_no text, p_record_id bigint) RETURNS text
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
       WHERE r.cargo_no = p_cargo_no${trailCollation} AND r.voided_at IS NULL AND r.id <> p_record_id
       ORDER BY r.occurred_at DESC, r.id DESC
       LIMIT 1;
       IF NOT FOUND THEN
         DELETE FROM cargo.location_current c WHERE c.cargo_no = p_cargo_no;
         RETURN 'forgotten';
       END IF;
       UPDATE cargo.location_current c
       SET record_id = f.id, location_code = f.location_code, off_shelf = f.off_shelf, scanned_at = f.scanned_at,
           recorded_at = f.recorded_at, occurred_at = f.occurred_at, recorded_by = f.recorded_by, device_id = f.device_id
       WHERE c.cargo_no = p_cargo_no;
       RETURN 'moved_back';
     END
     $fn$`;

export const voidCurrentAfterConcurrentWrites: Migration = {
  id: 11,
  name: 'void-current-after-concurrent-writes',
  statements: [voidCurrentFunction({ create: 'CREATE FUNCTION', trailCollation: '' })],
};
