import { AppError } from '../errors/app-error.ts';
import type { Db } from '../db/types.ts';
import type { BoxEvent, BoxHistoryResponse, BoxInfoResponse } from '../contract/responses.ts';
import { PARTS_PAGE_BYTES, TOTALS_PAGE_BYTES, rowBytesSql } from '../db/parts.ts';
import { foldedPlanSql, ignoredLinesSql, planCte, plannedItemJson, type PlanRules } from './sql.ts';

/** Reports the ERP plan lines a read or a write ignored: `warn('ERP plan lines ignored', { box_no, lines })`. */
export type PlanWarning = (message: string, details: { box_no: string; lines: unknown }) => void;

/**
 * How many bytes on the Data API's wire box info's items may come to: the Data API answers at
 * most 1 MiB (https://docs.aws.amazon.com/AmazonRDS/latest/AuroraUserGuide/data-api.limitations.html),
 * and the box's own row beside them is a few KB at most.
 */
export const BOX_INFO_ITEMS_BYTES = PARTS_PAGE_BYTES + TOTALS_PAGE_BYTES;

/**
 * The ERP plan of a box beside what is boxed: every planned item with its boxed quantity, plus
 * any boxed item the plan does not list (possible when the plan is not enforced, or changed).
 * The box is known when the view has any line for it, even if every line is ignored. The head
 * says how many items there are and what they come to on the wire; their rows follow only when
 * they fit in {@link BOX_INFO_ITEMS_BYTES}. The ignored lines are summed up in the head for the log.
 */
export const boxInfoSql = (erpView: string, rules: PlanRules) => `
WITH ${planCte(erpView, rules)},
-- The plan with its names in one pass: a join of two aggregates of thousands of lines would be planned as a nested loop.
named AS (
  ${foldedPlanSql(false)}
),
boxed AS (SELECT bi.item_code, bi.quantity FROM cargo.box_item bi WHERE bi.box_no = :box_no),
items AS (
  SELECT COALESCE(n.item_code, x.item_code) AS item_code, n.item_name, n.unit,
         COALESCE(n.planned, 0) AS planned_quantity, COALESCE(x.quantity, 0) AS boxed_quantity
  FROM named n FULL JOIN boxed x ON x.item_code = n.item_code
),
item_parts AS (
  SELECT i.item_code,
         ${plannedItemJson} AS data
  FROM items i
),
size AS (
  SELECT count(*) AS item_count, COALESCE(sum(${rowBytesSql('i.item_code', 'i.data::text')}), 0) AS item_bytes FROM item_parts i
)
SELECT 'head' AS part, EXISTS (SELECT 1 FROM plan_lines) OR b.box_no IS NOT NULL AS known,
       (SELECT min(order_no) FROM plan_lines) AS order_no,
       (SELECT min(customer_name) FROM plan_lines) AS customer_name,
       COALESCE(b.status, 'NOT_BOXED') AS status, b.zongpai_no, COALESCE(b.version, 0) AS version,
       EXISTS (SELECT 1 FROM named) AND NOT EXISTS (SELECT 1 FROM items i WHERE i.planned_quantity <> i.boxed_quantity) AS complete,
       b.saved_at, b.saved_by, s.item_count, s.item_bytes, ${ignoredLinesSql} AS ignored_lines, NULL::text AS item_code, NULL::json AS data
FROM (SELECT 1) AS one CROSS JOIN size s LEFT JOIN cargo.box b ON b.box_no = :box_no
UNION ALL
SELECT 'item', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, i.item_code, i.data
FROM item_parts i WHERE (SELECT s.item_bytes FROM size s) <= ${BOX_INFO_ITEMS_BYTES}
ORDER BY part, item_code`;

/** A row of {@link boxInfoSql}: the box (`head`), or one of its items (`data`). */
type BoxInfoRow = Omit<BoxInfoResponse, 'box_no' | 'items'> & {
  part: 'head' | 'item';
  known: boolean;
  item_count: number;
  item_bytes: number;
  ignored_lines: unknown;
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
 * Box info from its rows: the box, then one row per item, since an ERP plan of hundreds of lines
 * is more than one Data API result row (64 KB) carries. A plan whose items come to more than one
 * answer carries ({@link BOX_INFO_ITEMS_BYTES}) is ERP_PLAN_INVALID naming its size and the limit,
 * never a part of it.
 */
export const readBoxInfo = async (db: Db, sql: string, boxNo: string, warn: PlanWarning): Promise<BoxInfoResponse> => {
  const { rows } = await db.query<BoxInfoRow>(sql, { box_no: boxNo });
  const head = rows.find((r) => r.part === 'head');
  if (head === undefined || !head.known) throw new AppError('BOX_NOT_FOUND', { value: boxNo });
  const {
    part: _part,
    known: _known,
    item_count,
    item_bytes,
    ignored_lines,
    item_code: _item,
    data: _data,
    ...info
  } = head;
  if (ignored_lines != null) warn('ERP plan lines ignored', { box_no: boxNo, lines: ignored_lines });
  if (item_bytes > BOX_INFO_ITEMS_BYTES)
    throw new AppError('ERP_PLAN_INVALID', {
      value: boxNo,
      reason: 'too_large',
      count: item_count,
      size: Math.ceil(item_bytes / 1024),
      limit: BOX_INFO_ITEMS_BYTES / 1024,
    });
  const items = rows.filter((r) => r.part === 'item').map((r) => r.data as BoxInfoResponse['items'][number]);
  return { box_no: boxNo, ...info, items };
};

export const readBoxHistory = async (db: Db, sql: string, boxNo: string): Promise<BoxHistoryResponse> => {
  const { rows } = await db.query<Partial<BoxEvent> & { known: boolean }>(sql, { box_no: boxNo });
  if (rows[0] === undefined || !rows[0].known) throw new AppError('BOX_NOT_FOUND', { value: boxNo });
  const events = rows.filter((r) => r.action != null).map(({ known: _known, ...event }) => event as BoxEvent);
  return { box_no: boxNo, events };
};
