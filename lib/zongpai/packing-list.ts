import { AppError } from '../errors/app-error.ts';
import type { Db } from '../db/types.ts';
import { erpText, foldedPlanSql, planLineColumns, planRulesOf, type PlanRules, type PlanSettings } from '../box/sql.ts';
import type { PackingListResponse } from '../contract/responses.ts';
import { quoteIdentifier } from '../db/identifier.ts';
import { boxListing, listingPartsSql, pageStartSql, type BoxPage } from '../db/parts.ts';

/**
 * The packing list of a zongpai in one statement: its boxes (through the box index of the
 * zongpai), each box's ERP plan lines (through the ERP view's `box_no`), the items boxed, and
 * the totals per item. Names and units come from the plan's usable lines; a box is complete when
 * it holds every planned item at exactly its planned quantity, and nothing else. The counts are
 * over the whole zongpai; the boxes and their items come a page at a time in box number order
 * from the cursor, and the totals per item a page of their own at a time ({@link listingPartsSql}).
 * One row per part of the answer (lib/db/parts.ts): a full pallet's manifest is more than one row
 * may carry.
 */
export const packingListSql = (erpView: string, rules: PlanRules) => `
WITH zongpai AS (SELECT z.zongpai_no, z.status FROM cargo.zongpai z WHERE z.zongpai_no = :zongpai_no),
boxes AS (SELECT b.box_no, b.total_quantity FROM cargo.box b WHERE b.zongpai_no = :zongpai_no),
plan_lines AS (
  SELECT x.box_no, ${erpText('order_no')}, ${planLineColumns(rules)}
  -- Compared in the database's collation, so that the ERP view's index serves the lookup (CODE_COLLATION).
  FROM boxes x JOIN ${quoteIdentifier(erpView)} v ON v.box_no = x.box_no COLLATE "default"
),
plan AS (
  ${foldedPlanSql(true)}
),
-- Every planned and every boxed item of each box: a full join, which is hashed or merged, never a nested loop over thousands of lines.
joined AS (
  SELECT COALESCE(p.box_no, bi.box_no) AS box_no, COALESCE(p.item_code, bi.item_code) AS item_code, bi.quantity,
         p.item_name, p.unit, p.planned
  FROM plan p
  FULL JOIN (SELECT bi.box_no, bi.item_code, bi.quantity FROM boxes x JOIN cargo.box_item bi ON bi.box_no = x.box_no) AS bi
    ON bi.box_no = p.box_no AND bi.item_code = p.item_code
),
packed AS (SELECT j.box_no, j.item_code, j.quantity, j.item_name, j.unit, j.planned FROM joined j WHERE j.quantity IS NOT NULL),
box_complete AS (
  SELECT j.box_no, bool_or(j.planned IS NOT NULL) AND bool_and(COALESCE(j.quantity = j.planned, false)) AS complete
  FROM joined j GROUP BY j.box_no
),
box_orders AS (
  SELECT l.box_no, min(l.order_no) AS order_no, min(l.customer_name) AS customer_name FROM plan_lines l GROUP BY l.box_no
),
item_parts AS (
  SELECT k.box_no, k.item_code,
         json_build_object('item_code', k.item_code, 'item_name', k.item_name, 'unit', k.unit, 'quantity', k.quantity) AS data
  FROM packed k
),
listed AS (SELECT x.box_no FROM boxes x),
page AS (
  SELECT x.box_no, x.total_quantity FROM boxes x WHERE ${pageStartSql('x.box_no')} ORDER BY x.box_no LIMIT :limit
),
box_rows AS (
  SELECT x.box_no, x.total_quantity, o.order_no, o.customer_name, COALESCE(c.complete, false) AS complete
  FROM page x LEFT JOIN box_complete c ON c.box_no = x.box_no LEFT JOIN box_orders o ON o.box_no = x.box_no
),
box_parts AS (
  SELECT r.box_no,
         json_build_object('box_no', r.box_no, 'order_no', r.order_no, 'customer_name', r.customer_name,
                           'complete', r.complete, 'total_quantity', r.total_quantity) AS data
  FROM box_rows r
),
total_parts AS (
  SELECT k.item_code,
         json_build_object('item_code', k.item_code, 'item_name', min(k.item_name), 'unit', min(k.unit),
                           'quantity', sum(k.quantity)::bigint) AS data
  FROM packed k GROUP BY k.item_code
),
${listingPartsSql(`SELECT json_build_object('zongpai_no', z.zongpai_no, 'status', z.status,
                         'box_count', (SELECT count(*) FROM boxes),
                         'total_quantity', (SELECT COALESCE(sum(x.total_quantity), 0) FROM boxes x))
  FROM zongpai z`)}`;

type PackingListBox = PackingListResponse['boxes'][number];
type PackingListTotal = PackingListResponse['totals'][number];

type PackingListHead = Pick<PackingListResponse, 'zongpai_no' | 'status' | 'box_count' | 'total_quantity'>;

/**
 * What a pallet manifest prints: every box on the zongpai with its order, customer and items, a
 * page at a time (`next_cursor` goes on; a box whose items go on says `more_items`), the totals
 * per item a page at a time (`next_totals_cursor` goes on), and over the whole zongpai its box
 * count and total quantity. One statement.
 *
 * @example
 * ```ts
 * const packingList = makePackingList({ db, config });
 * const list = await packingList('PLT-0001', { limit: 500 });
 * list.totals; // [{ item_code: 'SKU-TEA-250', item_name: 'Green tea 250 g', unit: 'tin', quantity: 72 }]
 * ```
 */
export const makePackingList = ({ db, config }: { db: Db; config: PlanSettings }) => {
  const sql = packingListSql(config.erpBoxView, planRulesOf(config));
  const list = boxListing<PackingListHead, PackingListBox, PackingListTotal>(db, sql);
  return async (zongpaiNo: string, page: BoxPage): Promise<PackingListResponse> => {
    const { head, ...listed } = await list({ zongpai_no: zongpaiNo }, page);
    if (head === undefined) throw new AppError('ZONGPAI_NOT_FOUND', { value: zongpaiNo });
    const { zongpai_no, status, box_count, total_quantity } = head;
    return { zongpai_no, status, box_count, total_quantity, ...listed };
  };
};
