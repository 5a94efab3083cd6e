import { AppError } from '../errors/app-error.ts';
import type { Db } from '../db/types.ts';
import {
  CODE_COLLATION,
  foldedPlanSql,
  planLineColumns,
  plannedItemJson,
  planRulesOf,
  type PlanRules,
  type PlanSettings,
} from '../box/sql.ts';
import type { OrderResponse } from '../contract/responses.ts';
import { quoteIdentifier } from '../db/identifier.ts';
import { boxListing, listingPartsSql, pageStartSql, type BoxPage } from '../db/parts.ts';

/**
 * The packing progress of an order in one statement, driven by indexes at any scale: the ERP
 * view's lines of the order (its `order_no`, which ops index: see docs/ERP.md), then for each
 * planned box its row and its items (primary keys of `cargo.box` and `cargo.box_item`). The
 * counts are over the whole order; the boxes and their items come a page at a time, in box
 * number order from the cursor, and the totals per item a page of their own at a time
 * ({@link listingPartsSql}). Each box on the page gets its current location: the newer of its own
 * and its zongpai's (`cargo.location_current`, primary key), as
 * `GET /v1/{service_prefix}/location/{cargo_no}` answers it. One row per part of the answer
 * (lib/db/parts.ts): an order of hundreds of boxes is more than one row may carry.
 */
export const orderProgressSql = (erpView: string, rules: PlanRules) => `
WITH plan_lines AS (
  SELECT v.box_no ${CODE_COLLATION} AS box_no, ${planLineColumns(rules)}
  FROM ${quoteIdentifier(erpView)} v
  -- A line with no box number plans no box anyone could scan or box: it is not part of the order's progress.
  WHERE v.order_no = :order_no AND v.box_no IS NOT NULL
),
plan AS (
  ${foldedPlanSql(true)}
),
order_boxes AS (SELECT DISTINCT l.box_no FROM plan_lines l),
boxed AS (
  SELECT bi.box_no, bi.item_code, bi.quantity
  FROM order_boxes o JOIN cargo.box_item bi ON bi.box_no = o.box_no
),
items AS (
  SELECT COALESCE(p.box_no, x.box_no) AS box_no, COALESCE(p.item_code, x.item_code) AS item_code, p.item_name, p.unit,
         COALESCE(p.planned, 0) AS planned_quantity, COALESCE(x.quantity, 0) AS boxed_quantity
  FROM plan p FULL JOIN boxed x ON x.box_no = p.box_no AND x.item_code = p.item_code
),
item_parts AS (
  SELECT i.box_no, i.item_code,
         ${plannedItemJson} AS data
  FROM items i
),
box_complete AS (
  -- In one pass over the items, not a scan of them per box.
  SELECT i.box_no, bool_or(i.planned_quantity > 0) AND bool_and(i.planned_quantity = i.boxed_quantity) AS complete
  FROM items i GROUP BY i.box_no
),
box_state AS (
  SELECT o.box_no, COALESCE(b.status, 'NOT_BOXED') AS status, b.zongpai_no, COALESCE(b.version, 0) AS version,
         COALESCE(c.complete, false) AS complete
  FROM order_boxes o
  LEFT JOIN cargo.box b ON b.box_no = o.box_no
  LEFT JOIN box_complete c ON c.box_no = o.box_no
),
listed AS (SELECT s.box_no FROM box_state s),
page AS (
  SELECT s.* FROM box_state s WHERE ${pageStartSql('s.box_no')} ORDER BY s.box_no LIMIT :limit
),
box_parts AS (
  SELECT s.box_no,
         json_build_object('box_no', s.box_no, 'status', s.status, 'zongpai_no', s.zongpai_no, 'version', s.version,
                           'complete', s.complete, 'location',
         CASE WHEN loc.location_code IS NULL THEN NULL
              ELSE json_build_object('location_code', loc.location_code, 'off_shelf', loc.off_shelf, 'via', loc.via,
                                     'located_at', to_char(loc.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END) AS data
  FROM page s
  LEFT JOIN LATERAL (
    SELECT c.location_code, c.off_shelf, c.occurred_at, CASE WHEN c.cargo_no = s.box_no THEN 'BOX' ELSE 'ZONGPAI' END AS via
    FROM cargo.location_current c
    WHERE c.cargo_no IN (s.box_no, s.zongpai_no)
    ORDER BY c.occurred_at DESC, c.record_id DESC
    LIMIT 1
  ) AS loc ON true
),
total_parts AS (
  SELECT i.item_code,
         json_build_object('item_code', i.item_code, 'item_name', min(i.item_name), 'unit', min(i.unit),
                           'planned_quantity', sum(i.planned_quantity)::bigint, 'boxed_quantity', sum(i.boxed_quantity)::bigint) AS data
  FROM items i GROUP BY i.item_code
),
${listingPartsSql(`SELECT json_build_object('customer_name', (SELECT min(l.customer_name) FROM plan_lines l),
                         'box_count', (SELECT count(*) FROM box_state),
                         'boxed_count', (SELECT count(*) FROM box_state s WHERE s.status = 'BOXED'),
                         'complete_count', (SELECT count(*) FROM box_state s WHERE s.complete))`)}`;

type OrderBox = OrderResponse['boxes'][number];
type OrderTotal = OrderResponse['totals'][number];
type OrderHead = Pick<OrderResponse, 'customer_name' | 'box_count' | 'boxed_count' | 'complete_count'>;

/** OPEN: nothing boxed yet; PARTIAL: some planned boxes boxed; BOXED: all of them. */
const statusOf = (boxCount: number, boxedCount: number): OrderResponse['status'] => {
  if (boxedCount === 0) return 'OPEN';
  return boxedCount < boxCount ? 'PARTIAL' : 'BOXED';
};

/**
 * Packing progress of an ERP order: every box the ERP plans for it with its status, zongpai,
 * current location and planned against boxed quantity per item, a page at a time (`next_cursor`
 * goes on; a box whose items go on says `more_items`), the totals per item a page at a time
 * (`next_totals_cursor` goes on), and over the whole order the counts and whether it is fully
 * boxed (every box boxed and complete). One statement.
 *
 * @example
 * ```ts
 * const progress = makeOrderProgress({ db, config });
 * const order = await progress('SO-24001', { limit: 500 });
 * order.status; // 'PARTIAL'
 * ```
 */
export const makeOrderProgress = ({ db, config }: { db: Db; config: PlanSettings }) => {
  const sql = orderProgressSql(config.erpBoxView, planRulesOf(config));
  const list = boxListing<OrderHead, OrderBox, OrderTotal>(db, sql);
  return async (orderNo: string, page: BoxPage): Promise<OrderResponse> => {
    const { head, ...listed } = await list({ order_no: orderNo }, page);
    if (head === undefined || head.box_count === 0) throw new AppError('ORDER_NOT_FOUND', { value: orderNo });
    const { customer_name, box_count, boxed_count, complete_count } = head;
    const status = statusOf(box_count, boxed_count);
    const complete = complete_count === box_count && boxed_count === box_count;
    return { order_no: orderNo, customer_name, status, box_count, boxed_count, complete_count, complete, ...listed };
  };
};
