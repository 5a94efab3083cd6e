import { AppError } from '../errors/app-error.ts';
import { PART_ROW, type PartRow } from '../db/parts.ts';
import { compileWrite, PROCEED, runWrite, type Idempotency, type WriteStatement } from '../db/write.ts';
import type { ZongpaiResponse } from '../contract/responses.ts';
import { boxesReadAfterLock, zongpaiFromParts, zongpaiOutbox, zongpaiParts, type Capability } from './zongpai.ts';

/**
 * Closes a zongpai, or answers a closed one as it is. The UPDATE waits for appends in flight
 * (they hold the row FOR SHARE) and every later append finds it CLOSED; the boxes are read by
 * `cargo.zongpai_boxes` only once the row is locked, with a snapshot of their own, so the
 * answer lists exactly the boxes on the zongpai when it closed. An already closed zongpai is
 * read FOR SHARE, which returns its newest version even when a close committed while waiting.
 */
const closeStatementOf = (): WriteStatement<PartRow> => ({
  ctes: `
closed AS (
  UPDATE cargo.zongpai z SET status = 'CLOSED', closed_at = now(), closed_by = :actor, version = z.version + 1
  WHERE z.zongpai_no = :zongpai_no AND z.status = 'OPEN' AND ${PROCEED}
  RETURNING z.*
),
unchanged AS (
  SELECT z.* FROM cargo.zongpai z
  WHERE z.zongpai_no = :zongpai_no AND NOT EXISTS (SELECT 1 FROM closed) AND ${PROCEED}
  FOR SHARE
),
state AS (SELECT * FROM closed UNION ALL SELECT * FROM unchanged),
${zongpaiOutbox('zongpai.closed', 'closed')}`,
  select: zongpaiParts('state s', boxesReadAfterLock('state')),
  row: PART_ROW,
});
export const closeStatement: WriteStatement<PartRow> = /* @__PURE__ */ closeStatementOf();
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
export const makeZongpaiClose =
  ({ db }: Capability) =>
  async (zongpaiNo: string, actor: string, idempotency?: Idempotency): Promise<ZongpaiResponse> => {
    const zongpai = zongpaiFromParts(await runWrite(db, CLOSE, { zongpai_no: zongpaiNo, actor }, idempotency));
    if (zongpai === undefined) throw new AppError('ZONGPAI_NOT_FOUND', { value: zongpaiNo });
    return zongpai;
  };
