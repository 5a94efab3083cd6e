import type { Migration } from '../migration.ts';
import { trailIndexRebuilt } from '../trail-rebuild.ts';
import { TRAIL_COLUMNS } from './008-location-trail-index.ts';

/** The trail index's key and columns, its cargo codes compared byte by byte. */
export const TRAIL_BY_CARGO_KEY = `(cargo_no COLLATE "C", occurred_at, id) INCLUDE (${TRAIL_COLUMNS})`;

/** The statement the benchmark builds the same index with after its bulk load. */
export const TRAIL_INDEX_BYTE_ORDER = `CREATE INDEX location_record_trail_idx ON cargo.location_record ${TRAIL_BY_CARGO_KEY}`;

/**
 * The trail index of migration 008 with its cargo codes compared byte by byte ("C"), whatever the
 * database's collation. On Aurora (databases in `en_US.UTF-8`) each of a backlog's 500 history
 * rows descended the index comparing codes in the language's collation: about 3 ms of a backlog's
 * 29-31 ms of CPU on the year benchmark. The column keeps the database's
 * collation; the index compares in "C", and so do the statements that read by it
 * (`r.cargo_no = … COLLATE "C"`, lib/location/locations.ts and `cargo.void_current`).
 */
export const historyCodesByteOrder: Migration = {
  id: 17,
  name: 'history-codes-byte-order',
  statements: trailIndexRebuilt('location_record_trail_c_idx', TRAIL_BY_CARGO_KEY),
};
