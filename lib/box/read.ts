import { AppError } from '../errors/app-error.ts';
import type { Db } from '../db/types.ts';
import { planCte, quoteIdentifier } from './sql.ts';

/** The SPEC's `BoxInfoResponse`. */
export interface BoxInfoResponse {
  box_no: string;
  order_no: string | null;
  customer_name: string | null;
  status: 'BOXED' | 'NOT_BOXED';
  zongpai_no: string | null;
  version: number;
  items: { item_code: string; item_name: string | null; unit: string | null; planned_quantity: number; boxed_quantity: number }[];
  saved_at: string | null;
  saved_by: string | null;
}

export interface BoxEvent {
  action: 'SAVE' | 'EDIT' | 'UNDO';
  version: number;
  actor: string;
  at: string;
  zongpai_no: string | null;
  items: { item_code: string; quantity: number }[];
}

/**
 * The ERP plan of a box beside what is boxed: every planned item with its boxed quantity, plus
 * any boxed item the plan does not list (possible when the plan is not enforced, or changed).
 */
export const boxInfoSql = (erpView: string) => `
WITH plan_rows AS (
  SELECT v.order_no, v.customer_name, v.item_code, v.item_name, v.unit, v.planned_quantity
  FROM ${quoteIdentifier(erpView)} v WHERE v.box_no = :box_no
),
plan AS (
  SELECT item_code, min(item_name) AS item_name, min(unit) AS unit, sum(planned_quantity)::integer AS planned
  FROM plan_rows GROUP BY item_code
),
boxed AS (SELECT bi.item_code, bi.quantity FROM cargo.box_item bi WHERE bi.box_no = :box_no),
items AS (
  SELECT COALESCE(p.item_code, x.item_code) AS item_code, p.item_name, p.unit,
         COALESCE(p.planned, 0) AS planned_quantity, COALESCE(x.quantity, 0) AS boxed_quantity
  FROM plan p FULL JOIN boxed x ON x.item_code = p.item_code
)
SELECT EXISTS (SELECT 1 FROM plan_rows) OR b.box_no IS NOT NULL AS known,
       (SELECT min(order_no) FROM plan_rows) AS order_no,
       (SELECT min(customer_name) FROM plan_rows) AS customer_name,
       COALESCE(b.status, 'NOT_BOXED') AS status, b.zongpai_no, COALESCE(b.version, 0) AS version, b.saved_at, b.saved_by,
       (SELECT COALESCE(json_agg(json_build_object('item_code', i.item_code, 'item_name', i.item_name, 'unit', i.unit,
                                                   'planned_quantity', i.planned_quantity, 'boxed_quantity', i.boxed_quantity)
                                 ORDER BY i.item_code), '[]'::json) FROM items i) AS items
FROM (SELECT 1) AS one LEFT JOIN cargo.box b ON b.box_no = :box_no`;

/** Every SAVE, EDIT and UNDO of a box, oldest first; `known` tells an unknown box from a quiet one. */
export const boxHistorySql = (erpView: string) => `
WITH ${planCte(erpView)}
SELECT EXISTS (SELECT 1 FROM plan) OR EXISTS (SELECT 1 FROM cargo.box b WHERE b.box_no = :box_no) AS known,
       e.action, e.version, e.actor, e.at, e.zongpai_no, e.items
FROM (SELECT 1) AS one
LEFT JOIN cargo.box_event e ON e.box_no = :box_no
ORDER BY e.version`;

export const readBoxInfo = async (db: Db, sql: string, boxNo: string): Promise<BoxInfoResponse> => {
  const { rows } = await db.query<Omit<BoxInfoResponse, 'box_no'> & { known: boolean }>(sql, { box_no: boxNo });
  const row = rows[0];
  if (row === undefined || !row.known) throw new AppError('BOX_NOT_FOUND', { value: boxNo });
  const { known: _known, ...info } = row;
  return { box_no: boxNo, ...info };
};

export const readBoxHistory = async (db: Db, sql: string, boxNo: string): Promise<{ box_no: string; events: BoxEvent[] }> => {
  const { rows } = await db.query<Partial<BoxEvent> & { known: boolean }>(sql, { box_no: boxNo });
  if (rows[0] === undefined || !rows[0].known) throw new AppError('BOX_NOT_FOUND', { value: boxNo });
  const events = rows.filter((r) => r.action != null).map(({ known: _known, ...event }) => event as BoxEvent);
  return { box_no: boxNo, events };
};
