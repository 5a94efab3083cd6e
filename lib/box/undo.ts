import { PROCEED, type WriteStatement } from '../db/write.ts';
import {
  boxOutcome,
  boxWriteStatement,
  runBoxWrite,
  type BoxAtVersion,
  type BoxOutcomeRow,
  type BoxSaveResponse,
  type BoxWriteCall,
} from './outcome.ts';
import { boxStateChecks, firstProblemCte, type PlanRules } from './sql.ts';

/**
 * Undoes a boxing in ONE statement: the box is NOT_BOXED again, leaves its zongpai (which must
 * be open) and loses its items; the version moves on so the trail stays ordered.
 */
export const undoBoxStatement = (erpView: string, rules: PlanRules): WriteStatement<BoxOutcomeRow> =>
  boxWriteStatement(erpView, rules, {
    action: 'UNDO',
    written: 'undone',
    ctes: `
current AS (SELECT b.* FROM cargo.box b WHERE b.box_no = :box_no),
requested AS (SELECT NULL::text AS item_code, NULL::integer AS quantity, NULL::bigint AS ord WHERE false),
zp AS (
  SELECT z.zongpai_no, z.status FROM cargo.zongpai z WHERE z.zongpai_no = (SELECT c.zongpai_no FROM current c) FOR SHARE
),
${firstProblemCte([
  ...boxStateChecks,
  { rank: 30, code: 'ZONGPAI_CLOSED', value: 'zp.zongpai_no', from: 'zp', where: "zp.status <> 'OPEN'" },
])},
undone AS (
  UPDATE cargo.box b
     SET status = 'NOT_BOXED', zongpai_no = NULL, zongpai_since = NULL, version = b.version + 1, total_quantity = 0, saved_at = now(), saved_by = :actor
   WHERE b.box_no = :box_no AND b.version = :version AND b.status = 'BOXED' AND NOT EXISTS (SELECT 1 FROM problem) AND ${PROCEED}
  RETURNING b.*
),
items_removed AS (
  DELETE FROM cargo.box_item bi USING undone u WHERE bi.box_no = u.box_no
)`,
  });

export const undoBox = async (call: BoxWriteCall, input: BoxAtVersion): Promise<BoxSaveResponse> => {
  const row = await runBoxWrite(call, { box_no: input.box_no, version: input.version });
  return boxOutcome(row, 'VERSION_CONFLICT', input.box_no, input.version);
};
