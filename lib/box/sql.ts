import { isoTime } from '../db/write.ts';

/**
 * SQL fragments shared by the boxing statements. The ERP view's name comes from configuration
 * (validated as `schema.name` identifiers at cold start) and is quoted here; every value from a
 * request travels as a named parameter.
 */
export const quoteIdentifier = (qualified: string): string =>
  qualified
    .split('.')
    .map((part) => `"${part.replaceAll('"', '""')}"`)
    .join('.');

/** The ERP plan of `:box_no`, one row per item code (an item planned on two lines is summed). */
export const planCte = (erpView: string) => `
plan AS (
  SELECT v.item_code, sum(v.planned_quantity)::integer AS planned
  FROM ${quoteIdentifier(erpView)} v
  WHERE v.box_no = :box_no
  GROUP BY v.item_code
)`;

/** `:items` (a JSON list) in request order. */
export const requestedItemsSql = `
  SELECT i.item_code, i.quantity, i.ord
  FROM ROWS FROM (json_to_recordset(:items) AS (item_code text, quantity integer)) WITH ORDINALITY AS i (item_code, quantity, ord)`;

/** Plan violations, checked only when the plan is enforced. */
export const planProblemsSql = `
  SELECT 40, 'ITEM_NOT_IN_PLAN', r.item_code, NULL::integer FROM requested r LEFT JOIN plan p ON p.item_code = r.item_code
   WHERE :enforce_plan AND p.item_code IS NULL
  UNION ALL
  SELECT 50, 'QUANTITY_EXCEEDS_PLAN', r.item_code, p.planned FROM requested r JOIN plan p ON p.item_code = r.item_code
   WHERE :enforce_plan AND r.quantity > p.planned`;

/** The items of the written box, as JSON in request order. */
const itemsJsonSql = `(SELECT COALESCE(json_agg(json_build_object('item_code', r.item_code, 'quantity', r.quantity) ORDER BY r.ord), '[]'::json) FROM requested r)`;

/**
 * The first problem (lowest rank) decides the answer; the rank follows the order a supervisor
 * would fix things in: the box, the version, the zongpai, then the items.
 */
export const firstProblemCte = (ranked: string) => `
problem AS (
  SELECT x.rank, x.code, x.subject, x.lim FROM (${ranked}) AS x (rank, code, subject, lim)
  ORDER BY x.rank LIMIT 1
)`;

/** The columns every box write answers with. */
export const boxOutcomeSelect = (written: string) => `
SELECT p.code AS error_code, p.subject AS error_subject, p.lim AS error_limit,
       w.box_no, w.zongpai_no, w.status, w.version, w.total_quantity, ${isoTime('w.saved_at')} AS saved_at, w.saved_by,
       ${itemsJsonSql} AS items
FROM (SELECT 1) AS one
LEFT JOIN problem p ON true
LEFT JOIN ${written} w ON true`;

/**
 * The audit event of a box write: the state the box is left in (its zongpai and items) at its
 * new version, by the caller. An undo leaves no zongpai and no items.
 */
export const boxEventCte = (written: string, action: 'SAVE' | 'EDIT' | 'UNDO') => `
event AS (
  INSERT INTO cargo.box_event (box_no, version, action, actor, zongpai_no, items)
  SELECT w.box_no, w.version, '${action}', :actor, w.zongpai_no,
         (SELECT COALESCE(jsonb_agg(jsonb_build_object('item_code', r.item_code, 'quantity', r.quantity) ORDER BY r.ord), '[]'::jsonb) FROM requested r)
  FROM ${written} w
)`;
