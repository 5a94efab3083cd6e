import type { PartRow } from '../db/parts.ts';
import { compileWrite, PROCEED, type WriteStatement } from '../db/write.ts';
import { makeStatusChange, statusChangeStatement } from './zongpai.ts';

/**
 * Reopens a closed zongpai, or answers an open one as it is (nothing changes, nothing is
 * recorded). The reopening is kept in `cargo.zongpai_reopening` with the close it undid, since
 * the zongpai's own `closed_at` and `closed_by` are cleared. The UPDATE takes the zongpai's row
 * lock, so a reopen and a close of the same zongpai run one after the other; an open zongpai is
 * read FOR SHARE, which returns its newest version even when a reopen committed while waiting.
 * A reopening announces `zongpai.reopened`; an open zongpai answered as it is announces nothing.
 */
export const reopenStatement: WriteStatement<PartRow> = /* @__PURE__ */ statusChangeStatement(
  'zongpai.reopened',
  'reopened',
  `
before AS (SELECT z.zongpai_no, z.closed_at, z.closed_by FROM cargo.zongpai z WHERE z.zongpai_no = :zongpai_no),
reopened AS (
  UPDATE cargo.zongpai z SET status = 'OPEN', closed_at = NULL, closed_by = NULL, version = z.version + 1
  FROM before b
  WHERE z.zongpai_no = b.zongpai_no AND z.status = 'CLOSED' AND ${PROCEED}
  RETURNING z.*, b.closed_at AS undone_closed_at, b.closed_by AS undone_closed_by
),
audited AS (
  INSERT INTO cargo.zongpai_reopening (zongpai_no, reopened_by, closed_at, closed_by)
  SELECT r.zongpai_no, :actor, r.undone_closed_at, r.undone_closed_by FROM reopened r
),
unchanged AS (
  SELECT z.*, NULL::timestamptz AS undone_closed_at, NULL::text AS undone_closed_by FROM cargo.zongpai z
  WHERE z.zongpai_no = :zongpai_no AND NOT EXISTS (SELECT 1 FROM reopened) AND ${PROCEED}
  FOR SHARE
)`,
);
const REOPEN = /* @__PURE__ */ compileWrite(reopenStatement);

/**
 * Reopens a closed zongpai so that a supervisor can correct a mistake; reopening an open one
 * answers it as it is and changes nothing. One statement.
 *
 * @example
 * ```ts
 * const reopen = makeZongpaiReopen({ db, config });
 * await reopen('PLT-0001', 'sam'); // { zongpai_no: 'PLT-0001', status: 'OPEN', ... }
 * ```
 */
export const makeZongpaiReopen = /* @__PURE__ */ makeStatusChange(REOPEN);
