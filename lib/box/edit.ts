import { json } from '../db/types.ts';
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
import type { BoxItem } from './schemas.ts';
import {
  boxStateChecks,
  firstProblemCte,
  mixingCheck,
  planChecks,
  requestedItemsSql,
  zongpaiIsABox,
  zongpaiLock,
  type Mixing,
  type PlanRules,
} from './sql.ts';

/**
 * Edits a saved box in ONE statement: moves it to another zongpai and/or replaces its items.
 * Both zongpai rows (left and entered) are locked against a concurrent close (FOR SHARE, or in
 * turn with other writes onto them when `mixing` is restricted: see `zongpaiLock`), and a box
 * moved in meets the mixing rule. The
 * UPDATE only applies to the expected version, so of racing edits one wins and the others find
 * nothing to update (VERSION_CONFLICT). Items are upserted and the dropped ones deleted (never a
 * delete and insert of the same key in one statement). An edit that changes nothing (same
 * zongpai, same items) writes nothing and answers the box as it is, also on a closed zongpai;
 * any change of a box on a closed zongpai is ZONGPAI_CLOSED.
 */
export const editBoxStatement = (
  erpView: string,
  rules: PlanRules,
  mixing: Mixing = 'any',
): WriteStatement<BoxOutcomeRow> =>
  boxWriteStatement(erpView, rules, {
    action: 'EDIT',
    written: 'edited',
    answered: 'answered',
    ctes: `
current AS (SELECT b.* FROM cargo.box b WHERE b.box_no = :box_no),
requested AS (
  ${requestedItemsSql} WHERE :replace_items
  UNION ALL
  SELECT bi.item_code, bi.quantity, row_number() OVER (ORDER BY bi.item_code) FROM cargo.box_item bi WHERE bi.box_no = :box_no AND NOT :replace_items
),
target AS (
  SELECT COALESCE(:zongpai_no, c.zongpai_no) AS zongpai_no, COALESCE(:zongpai_no, c.zongpai_no) IS DISTINCT FROM c.zongpai_no AS moving FROM current c
),
change AS (
  SELECT t.moving OR (:replace_items AND EXISTS (
           (SELECT r.item_code, r.quantity FROM requested r EXCEPT SELECT bi.item_code, bi.quantity FROM cargo.box_item bi WHERE bi.box_no = :box_no)
           UNION ALL
           (SELECT bi.item_code, bi.quantity FROM cargo.box_item bi WHERE bi.box_no = :box_no EXCEPT SELECT r.item_code, r.quantity FROM requested r)
         )) AS changing
  FROM target t
),
zp AS (
  SELECT z.zongpai_no, z.status FROM cargo.zongpai z
  WHERE z.zongpai_no = :zongpai_no OR z.zongpai_no = (SELECT c.zongpai_no FROM current c)
  ${zongpaiLock(mixing)}
),
${firstProblemCte([
  ...boxStateChecks,
  zongpaiIsABox(erpView, ':zongpai_no IS NOT NULL AND NOT EXISTS (SELECT 1 FROM zp WHERE zp.zongpai_no = :zongpai_no)'),
  {
    rank: 20,
    code: 'ZONGPAI_NOT_FOUND',
    value: ':zongpai_no',
    where: ':zongpai_no IS NOT NULL AND NOT EXISTS (SELECT 1 FROM zp WHERE zp.zongpai_no = :zongpai_no)',
  },
  {
    rank: 30,
    code: 'ZONGPAI_CLOSED',
    value: 'zp.zongpai_no',
    from: 'zp, change ch',
    where: "zp.status <> 'OPEN' AND ch.changing",
  },
  ...mixingCheck(erpView, mixing, 'EXISTS (SELECT 1 FROM target t WHERE t.moving)'),
  ...planChecks,
])},
edited AS (
  UPDATE cargo.box b
     SET zongpai_no = t.zongpai_no,
         zongpai_since = CASE WHEN t.moving THEN now() ELSE b.zongpai_since END,
         version = b.version + 1,
         total_quantity = (SELECT COALESCE(sum(r.quantity), 0) FROM requested r),
         saved_at = now(),
         saved_by = :actor
    FROM target t, change ch
   WHERE b.box_no = :box_no AND b.version = :version AND b.status = 'BOXED' AND ch.changing AND NOT EXISTS (SELECT 1 FROM problem) AND ${PROCEED}
  RETURNING b.*
),
unchanged AS (
  SELECT c.* FROM current c, change ch
  WHERE c.version = :version AND c.status = 'BOXED' AND NOT ch.changing AND NOT EXISTS (SELECT 1 FROM problem) AND ${PROCEED}
),
answered AS (SELECT * FROM edited UNION ALL SELECT * FROM unchanged),
items_upserted AS (
  INSERT INTO cargo.box_item (box_no, item_code, quantity)
  SELECT e.box_no, r.item_code, r.quantity FROM edited e CROSS JOIN requested r WHERE :replace_items
  ON CONFLICT (box_no, item_code) DO UPDATE SET quantity = EXCLUDED.quantity
),
items_dropped AS (
  DELETE FROM cargo.box_item bi USING edited e
  WHERE bi.box_no = e.box_no AND :replace_items AND bi.item_code NOT IN (SELECT r.item_code FROM requested r)
)`,
  });

export interface EditBoxInput extends BoxAtVersion {
  readonly zongpai_no?: string;
  readonly items?: readonly BoxItem[];
}

export const editBox = async (
  call: BoxWriteCall,
  input: EditBoxInput,
  enforcePlan: boolean,
): Promise<BoxSaveResponse> => {
  const replaceItems = input.items !== undefined;
  const row = await runBoxWrite(call, {
    box_no: input.box_no,
    version: input.version,
    zongpai_no: input.zongpai_no ?? null,
    items: json(input.items ?? []),
    replace_items: replaceItems,
    enforce_plan: enforcePlan && replaceItems,
  });
  return boxOutcome(row, 'VERSION_CONFLICT', input.box_no, input.version, input.zongpai_no);
};
