import type { PartRow } from '../db/parts.ts';
import { compileWrite, PROCEED, type WriteStatement } from '../db/write.ts';
import { makeStatusChange, statusChangeStatement } from './zongpai.ts';

/**
 * Closes a zongpai, or answers a closed one as it is. The UPDATE waits for appends in flight
 * (they hold the row FOR SHARE) and every later append finds it CLOSED; the boxes are read by
 * `cargo.zongpai_boxes` only once the row is locked, with a snapshot of their own, so the
 * answer lists exactly the boxes on the zongpai when it closed. An already closed zongpai is
 * read FOR SHARE, which returns its newest version even when a close committed while waiting.
 */
export const closeStatement: WriteStatement<PartRow> = /* @__PURE__ */ statusChangeStatement(
  'zongpai.closed',
  'closed',
  `
closed AS (
  UPDATE cargo.zongpai z SET status = 'CLOSED', closed_at = now(), closed_by = :actor, version = z.version + 1
  WHERE z.zongpai_no = :zongpai_no AND z.status = 'OPEN' AND ${PROCEED}
  RETURNING z.*
),
unchanged AS (
  SELECT z.* FROM cargo.zongpai z
  WHERE z.zongpai_no = :zongpai_no AND NOT EXISTS (SELECT 1 FROM closed) AND ${PROCEED}
  FOR SHARE
)`,
);
const CLOSE = /* @__PURE__ */ compileWrite(closeStatement);

/**
 * Closes a zongpai so that nothing more is appended to it; closing a closed one answers it as it
 * is. One statement ({@link closeStatement}).
 *
 * @example
 * ```ts
 * await makeZongpaiClose({ db, config })('PLT-0001', 'sam'); // { zongpai_no: 'PLT-0001', status: 'CLOSED', ... }
 * ```
 */
export const makeZongpaiClose = /* @__PURE__ */ makeStatusChange(CLOSE);
