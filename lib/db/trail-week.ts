/**
 * The trail index's weeks (migration 022), for the statements and functions that read it.
 */

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
