/**
 * The location statements of the unpartitioned design (one `cargo.location_record` table, no
 * kept current location: migrations 001-004 and lib/location/locations.ts before migration 005),
 * kept for the year-scale comparison (bench/sql/year.ts). Named parameters as in lib/.
 * A frozen copy: it runs on the schema of migrations 001-004 alone, which lib/'s statements,
 * written for every migration, need not keep working with, and it measures the design as it was.
 * Its one fragment from lib/, `TRAIL_CARGO_SQL`, reads only the box and zongpai tables, which
 * migrations 001-004 made as they are.
 */

import { TRAIL_CARGO_SQL } from '../../lib/location/locations.ts';

/** A scan or backlog: the INSERT alone. */
export const FLAT_RECORD_SQL = `
WITH inserted AS (
  INSERT INTO cargo.location_record (cargo_no, location_code, off_shelf, scanned_at, occurred_at, recorded_by, device_id)
  SELECT s.cargo_no, s.location_code, s.off_shelf, s.scanned_at,
         date_trunc('milliseconds', LEAST(COALESCE(s.scanned_at, now()), now())), :recorded_by, s.device_id
  FROM ROWS FROM (json_to_recordset(:scans) AS (cargo_no text, location_code text, off_shelf boolean, scanned_at timestamptz, device_id text))
       WITH ORDINALITY AS s (cargo_no, location_code, off_shelf, scanned_at, device_id, ord)
  ORDER BY s.ord
  RETURNING *
)
SELECT id::text AS id, cargo_no, location_code, off_shelf, scanned_at, recorded_at, recorded_by, device_id FROM inserted ORDER BY inserted.id`;

/** The current location searched (latest own scan and latest pallet scan), and one page of history. */
export const FLAT_TRAIL_SQL = `
WITH ${TRAIL_CARGO_SQL},
latest AS (
  (SELECT r.*, k.own_via AS via FROM cargo.location_record r, kind k
    WHERE r.cargo_no = :cargo_no ORDER BY r.occurred_at DESC, r.id DESC LIMIT 1)
  UNION ALL
  (SELECT r.*, 'ZONGPAI' FROM cargo.location_record r JOIN carrier c ON r.cargo_no = c.zongpai_no
    ORDER BY r.occurred_at DESC, r.id DESC LIMIT 1)
),
page AS (
  (SELECT r.*, k.own_via AS via FROM cargo.location_record r, kind k
    WHERE r.cargo_no = :cargo_no
      AND (r.occurred_at, r.id) < (COALESCE(:before_at::timestamptz, 'infinity'), COALESCE(:before_id::bigint, 9223372036854775807))
    ORDER BY r.occurred_at DESC, r.id DESC LIMIT :fetch)
  UNION ALL
  (SELECT r.*, 'ZONGPAI' FROM cargo.location_record r JOIN carrier c ON r.cargo_no = c.zongpai_no
    WHERE r.occurred_at >= c.zongpai_since
      AND (r.occurred_at, r.id) < (COALESCE(:before_at::timestamptz, 'infinity'), COALESCE(:before_id::bigint, 9223372036854775807))
    ORDER BY r.occurred_at DESC, r.id DESC LIMIT :fetch)
),
parts AS (
  (SELECT 'current' AS part, * FROM latest ORDER BY occurred_at DESC, id DESC LIMIT 1)
  UNION ALL
  (SELECT 'history', * FROM page ORDER BY occurred_at DESC, id DESC LIMIT :fetch)
)
SELECT part, id::text AS id, cargo_no, location_code, off_shelf, scanned_at, recorded_at, occurred_at, recorded_by, device_id, via
FROM parts`;
