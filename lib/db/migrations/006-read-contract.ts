import type { Migration } from '../migration.ts';

/**
 * The read contract's view of every cargo's current location. Exported so that a migration
 * that changes the columns it reads (015) creates it again exactly.
 */
export const CARGO_LOCATION_VIEW = `CREATE VIEW cargo.cargo_location AS
 SELECT DISTINCT ON (l.cargo_no) l.cargo_no, l.location_code, l.off_shelf, l.via, l.zongpai_no, l.located_at, l.scanned_at, l.recorded_at, l.recorded_by, l.record_id
 FROM (
   SELECT c.cargo_no, c.location_code, c.off_shelf,
          CASE WHEN z.zongpai_no IS NULL THEN 'BOX' ELSE 'ZONGPAI' END AS via, z.zongpai_no,
          c.occurred_at AS located_at, c.scanned_at, c.recorded_at, c.recorded_by, c.record_id
   FROM cargo.location_current c LEFT JOIN cargo.zongpai z ON z.zongpai_no = c.cargo_no
   UNION ALL
   SELECT b.box_no, c.location_code, c.off_shelf, 'ZONGPAI', b.zongpai_no, c.occurred_at, c.scanned_at, c.recorded_at, c.recorded_by, c.record_id
   FROM cargo.box b JOIN cargo.location_current c ON c.cargo_no = b.zongpai_no
   WHERE b.status = 'BOXED'
 ) AS l
 ORDER BY l.cargo_no, l.located_at DESC, l.record_id DESC`;

/**
 * What supervisors and ERPs read about zongpais and cargo, and the audit of reopened zongpais.
 *
 * - The zongpai list is read newest first, by status or not, through an index range scan that
 *   stops at the page's LIMIT.
 * - `cargo.zongpai_reopening` keeps every reopening: who reopened which zongpai when, and the
 *   close it undid (`closed_at`, `closed_by` are cleared on the zongpai itself).
 * - `cargo.cargo_location`, part of the documented read contract (README, "Reading from the
 *   database"): the current location of every cargo, a box on a zongpai taking the newer of its
 *   own and its zongpai's, as `GET /v1/{service_prefix}/location/{cargo_no}` answers it. A lookup
 *   by `cargo_no` is pushed down to primary-key reads of `location_current` and `box`.
 */
export const readContract: Migration = {
  id: 6,
  name: 'read-contract',
  statements: [
    'CREATE INDEX zongpai_newest_idx ON cargo.zongpai (created_at DESC, zongpai_no DESC)',
    'CREATE INDEX zongpai_status_newest_idx ON cargo.zongpai (status, created_at DESC, zongpai_no DESC)',
    `CREATE TABLE cargo.zongpai_reopening (
       zongpai_no  text        NOT NULL REFERENCES cargo.zongpai (zongpai_no),
       reopened_at timestamptz NOT NULL DEFAULT now(),
       reopened_by text        NOT NULL,
       closed_at   timestamptz NOT NULL,
       closed_by   text        NOT NULL,
       CONSTRAINT zongpai_reopening_pkey PRIMARY KEY (zongpai_no, reopened_at)
     )`,
    CARGO_LOCATION_VIEW,
  ],
};
