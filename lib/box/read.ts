import { AppError } from '../errors/app-error.ts';
import type { Db } from '../db/types.ts';
import type { BoxEvent, BoxHistoryResponse, BoxInfoResponse } from '../openapi/responses.ts';
import { ignoredLineJson, planCte, type PlanRules } from './sql.ts';

/** Reports the ERP plan lines a read or a write ignored: `warn('ERP plan lines ignored', { box_no, lines })`. */
export type PlanWarning = (message: string, details: { box_no: string; lines: unknown }) => void;

/**
 * The ERP plan of a box beside what is boxed: every planned item with its boxed quantity, plus
 * any boxed item the plan does not list (possible when the plan is not enforced, or changed).
 * The box is known when the view has any line for it, even if every line is ignored.
 */
export const boxInfoSql = (erpView: string, rules: PlanRules) => `
WITH ${planCte(erpView, rules)},
named AS (
  SELECT l.item_code, min(l.item_name) AS item_name, min(l.unit) AS unit FROM plan_lines l WHERE l.ignored_because IS NULL GROUP BY l.item_code
),
boxed AS (SELECT bi.item_code, bi.quantity FROM cargo.box_item bi WHERE bi.box_no = :box_no),
items AS (
  SELECT COALESCE(p.item_code, x.item_code) AS item_code, n.item_name, n.unit,
         COALESCE(p.planned, 0) AS planned_quantity, COALESCE(x.quantity, 0) AS boxed_quantity
  FROM plan p JOIN named n ON n.item_code = p.item_code FULL JOIN boxed x ON x.item_code = p.item_code
)
SELECT 'head' AS part, EXISTS (SELECT 1 FROM plan_lines) OR b.box_no IS NOT NULL AS known,
       (SELECT min(order_no) FROM plan_lines) AS order_no,
       (SELECT min(customer_name) FROM plan_lines) AS customer_name,
       COALESCE(b.status, 'NOT_BOXED') AS status, b.zongpai_no, COALESCE(b.version, 0) AS version,
       EXISTS (SELECT 1 FROM plan) AND NOT EXISTS (SELECT 1 FROM items i WHERE i.planned_quantity <> i.boxed_quantity) AS complete,
       b.saved_at, b.saved_by, NULL::text AS item_code, NULL::json AS data
FROM (SELECT 1) AS one LEFT JOIN cargo.box b ON b.box_no = :box_no
UNION ALL
SELECT 'item', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, i.item_code,
       json_build_object('item_code', i.item_code, 'item_name', i.item_name, 'unit', i.unit,
                         'planned_quantity', i.planned_quantity, 'boxed_quantity', i.boxed_quantity)
FROM items i
UNION ALL
SELECT 'ignored', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, l.item_code, ${ignoredLineJson}
FROM plan_lines l WHERE l.ignored_because IS NOT NULL
ORDER BY part, item_code`;

/** A row of {@link boxInfoSql}: the box (`head`), or one of its items or ignored plan lines (`data`). */
type BoxInfoRow = Omit<BoxInfoResponse, 'box_no' | 'items'> & {
  part: 'head' | 'item' | 'ignored';
  known: boolean;
  item_code: string | null;
  data: unknown;
};

/** Every SAVE, EDIT and UNDO of a box, oldest first; `known` tells an unknown box from a quiet one. */
export const boxHistorySql = (erpView: string, rules: PlanRules) => `
WITH ${planCte(erpView, rules)}
SELECT EXISTS (SELECT 1 FROM plan_lines) OR EXISTS (SELECT 1 FROM cargo.box b WHERE b.box_no = :box_no) AS known,
       e.action, e.version, e.actor, e.at, e.zongpai_no, e.items
FROM (SELECT 1) AS one
LEFT JOIN cargo.box_event e ON e.box_no = :box_no
ORDER BY e.version`;

/**
 * Box info from its rows: the box, then one row per item and per ignored plan line, since an ERP
 * plan of hundreds of lines is more than one Data API result row (64 KB) carries.
 */
export const readBoxInfo = async (db: Db, sql: string, boxNo: string, warn: PlanWarning): Promise<BoxInfoResponse> => {
  const { rows } = await db.query<BoxInfoRow>(sql, { box_no: boxNo });
  const head = rows.find((r) => r.part === 'head');
  if (head === undefined || !head.known) throw new AppError('BOX_NOT_FOUND', { value: boxNo });
  const { part: _part, known: _known, item_code: _item, data: _data, ...info } = head;
  const ignored = rows.filter((r) => r.part === 'ignored').map((r) => r.data);
  if (ignored.length > 0) warn('ERP plan lines ignored', { box_no: boxNo, lines: ignored });
  const items = rows.filter((r) => r.part === 'item').map((r) => r.data as BoxInfoResponse['items'][number]);
  return { box_no: boxNo, ...info, items };
};

export const readBoxHistory = async (db: Db, sql: string, boxNo: string): Promise<BoxHistoryResponse> => {
  const { rows } = await db.query<Partial<BoxEvent> & { known: boolean }>(sql, { box_no: boxNo });
  if (rows[0] === undefined || !rows[0].known) throw new AppError('BOX_NOT_FOUND', { value: boxNo });
  const events = rows.filter((r) => r.action != null).map(({ known: _known, ...event }) => event as BoxEvent);
  return { box_no: boxNo, events };
};
