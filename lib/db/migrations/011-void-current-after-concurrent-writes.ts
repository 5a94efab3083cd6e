import type { Migration } from '../migration.ts';

/**
 * `cargo.void_current(cargo_no, record_id)`: after a void, the cargo's current location as the
 * writes committed before it leave it, not as the void's statement saw them when it started.
 *
 * One statement reads with the snapshot it started with (READ COMMITTED). A void that chose the
 * fallback from that snapshot could miss what another write committed meanwhile: with two scans of
 * one cargo voided at once, the current location could stay on the other voided scan; with a late
 * backlog uploaded as the current scan was voided, on a scan older than the one just uploaded.
 * The function (its current form lib/db/sql-functions/void-current.ts, applied by the migrator
 * after the migrations) first locks the cargo's current location, then reads with new snapshots.
 */
export const voidCurrentAfterConcurrentWrites: Migration = {
  id: 11,
  name: 'void-current-after-concurrent-writes',
  statements: [],
};
