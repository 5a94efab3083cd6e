/**
 * The trail index's weeks (migration 022), for the statements and functions that read it.
 */

import { TRAIL_COLUMNS } from './migrations/008-location-trail-index.ts';

/**
 * The week a history entry falls in, as the trail index keys it: weeks of 168 hours from a Monday,
 * 00:00 UTC (2000-01-03). `date_bin` with a `timestamptz` origin is IMMUTABLE (PostgreSQL marks it
 * so, and a bin of whole hours is arithmetic on the instant, whatever the session's time zone), so
 * it may key an index. The statements that read the trail name the same expression of `r`.
 */
export const TRAIL_WEEK = (column: string) => `date_bin('168 hours', ${column}, TIMESTAMPTZ '2000-01-03 00:00:00+00')`;

/**
 * Where the trail index's weeks begin (migration 022): `floor`, the start of the oldest month
 * partition (from the catalog; infinity when there is none). The weeks from it on are read week by
 * week; what is older than it lies in `location_record_before` (late scans of any past time), read
 * for the cargo alone.
 */
export const TRAIL_FLOOR_SQL = `SELECT COALESCE(min(make_timestamptz(substr(c.relname, 18, 4)::integer, substr(c.relname, 22, 2)::integer, 1, 0, 0, 0, 'UTC')), 'infinity') AS floor
  FROM pg_catalog.pg_inherits i JOIN pg_catalog.pg_class c ON c.oid = i.inhrelid
  WHERE i.inhparent = 'cargo.location_record'::regclass AND c.relname ~ '^location_record_p[0-9]{6}$'`;

/**
 * The index of `location_record_before` keyed by cargo (migration 023): a history page reads that
 * table for the cargo alone (no weeks bound it: it holds late scans of any time before the oldest
 * month), where the trail index, keyed by week first, would be read whole. A local index of that
 * table only, so the month partitions keep the week-keyed trail alone: the history maintenance
 * creates it whenever it creates the table again.
 */
export const BEFORE_BY_CARGO_INDEX = `CREATE INDEX IF NOT EXISTS location_record_before_cargo_idx ON cargo.location_record_before (cargo_no COLLATE "C", occurred_at, id) INCLUDE (${TRAIL_COLUMNS})`;
