import { keyCursor } from '../rules/key-cursor.ts';
import type { Db, SqlParams } from './types.ts';

/**
 * A listing of boxes read as rows, not as one row of JSON: the Data API refuses a result row
 * over 64 KB (https://docs.aws.amazon.com/AmazonRDS/latest/AuroraUserGuide/data-api.limitations.html),
 * and an order's or a full pallet's boxes with their items are more than that. The statement
 * answers one row per part, `head` first, then every `box`, every `item` (with its `box_no`) and
 * every `total`, each part's `data` one JSON object, in the order the statement gives them
 * ({@link PARTS_ORDER}).
 */
export type PartRow = {
  readonly part: 'head' | 'box' | 'item' | 'total';
  readonly box_no: string | null;
  readonly data: Record<string, unknown>;
};

/**
 * The columns a listing statement adds to each part, and how it orders them: `part_rank` (head 0,
 * box 1, item 2, total 3), then the box number, then the item code.
 */
export const PARTS_ORDER = 'ORDER BY part_rank, box_no, item_code';

/**
 * The listing put back together: the head's fields, the boxes in the statement's order each with
 * its `items` (last), and the totals.
 *
 * @example
 * ```ts
 * const { head, boxes, totals } = assembleParts<{ customer_name: string }, OrderBox, OrderTotal>(rows);
 * ```
 */
export const assembleParts = <Head, Box extends { items: unknown[] }, Total>(
  rows: readonly PartRow[],
): { head: Head | undefined; boxes: Box[]; totals: Total[] } => {
  let head: Head | undefined;
  const boxes: Box[] = [];
  const byNumber = new Map<string, Box>();
  const totals: Total[] = [];
  for (const row of rows) {
    if (row.part === 'head') head = row.data as Head;
    else if (row.part === 'total') totals.push(row.data as Total);
    else if (row.part === 'box') {
      const box = { ...row.data, items: [] } as unknown as Box;
      boxes.push(box);
      byNumber.set(row.box_no as string, box);
    } else byNumber.get(row.box_no as string)?.items.push(row.data);
  }
  return { head, boxes, totals };
};

/**
 * How many bytes of box and item parts a page of a listing holds past its first box: the Data
 * API answers at most 1 MiB (https://docs.aws.amazon.com/AmazonRDS/latest/AuroraUserGuide/data-api.limitations.html),
 * counted on its wire, where each part's JSON is a quoted string beside the row's other columns;
 * an order or a container's zongpai of a few thousand boxes is more than that.
 */
export const PARTS_PAGE_BYTES = 512 * 1024;

/** What a part's row adds on the Data API's wire beyond its JSON: its other columns and their framing. */
const PART_ROW_BYTES = 160;

/**
 * The CTEs that cut a page of boxes where its parts would pass {@link PARTS_PAGE_BYTES}: from
 * `page` (boxes in `box_no` order, with `columns`) and `item_parts` (`box_no`, `data`: each item
 * part's JSON), `shown` is the page's first box plus as many after it as fit, with `columns`.
 * One pass: the page, each box's size and the running total together, so that no plan repeats
 * the window per box.
 *
 * @example
 * ```ts
 * `WITH page AS (…), item_parts AS (…), ${pageCutSql(['box_no', 'status'])} SELECT … FROM shown`
 * ```
 */
export const pageCutSql = (columns: readonly string[]): string => {
  const of = (alias: string) => columns.map((column) => `${alias}.${column}`).join(', ');
  return `sized AS (
  SELECT b.*, min(b.box_no) OVER () AS first_box_no, sum(b.bytes) OVER (ORDER BY b.box_no) AS running
  FROM (
    SELECT ${of('p')},
           ${PART_ROW_BYTES} * 2 + octet_length(p.box_no) * 2 + COALESCE(sum(${PART_ROW_BYTES} + octet_length(ip.data::text)), 0) AS bytes
    FROM page p LEFT JOIN item_parts ip ON ip.box_no = p.box_no
    GROUP BY ${of('p')}
  ) AS b
),
shown AS (
  SELECT ${of('z')} FROM sized z WHERE z.running <= ${PARTS_PAGE_BYTES} OR z.box_no = z.first_box_no
)`;
};

/**
 * A listing's parts after its head, in order: a `box` part per row of `box_rows r` (`boxJson`, a
 * JSON expression over `r`), the item parts of the boxes {@link pageCutSql} shows, and a `total`
 * part per row of `totals t` (`totalJson` over `t`).
 *
 * @example
 * ```ts
 * `WITH … SELECT 0 AS part_rank, 'head' AS part, … UNION ALL ${listedPartsSql(boxJson, totalJson)}`
 * ```
 */
export const listedPartsSql = (boxJson: string, totalJson: string): string => `SELECT 1, 'box', r.box_no, NULL,
       ${boxJson}
FROM box_rows r
UNION ALL
SELECT 2, 'item', ip.box_no, ip.item_code, ip.data FROM item_parts ip JOIN shown s ON s.box_no = ip.box_no
UNION ALL
SELECT 3, 'total', NULL, t.item_code,
       ${totalJson}
FROM totals t
${PARTS_ORDER}`;

/**
 * The cursor of a listing's page of boxes: the last box number shown, any text PostgreSQL holds
 * (an ERP's box numbers are its own), so anything but a NUL.
 */
const BOX_PAGE_CURSOR = keyCursor('b', '[^\\u0000]*');

/** The page of boxes a request asks for: at most `limit`, after the page its `cursor` came with. */
export interface BoxPage {
  readonly limit: number;
  readonly cursor?: string | undefined;
}

/**
 * A listing statement's page parameters: `after`, the last box number of the page before (null
 * for the first page), and `limit`. A cursor this service did not issue is a 400.
 */
const boxPageParams = (page: BoxPage): { after: string | null; limit: number } => ({
  after: page.cursor === undefined ? null : BOX_PAGE_CURSOR.decode(page.cursor),
  limit: page.limit,
});

/** The cursor of the next page: after the last box shown, when the statement's head says more follow. */
const nextBoxPage = (more: boolean, boxes: readonly { box_no: string }[]): string | null => {
  const last = boxes[boxes.length - 1];
  return more && last !== undefined ? BOX_PAGE_CURSOR.encode(last.box_no) : null;
};

/** A page of a listing of boxes put back together, with the cursor of the page after it (null on the last). */
export interface BoxListingPage<Head, Box, Total> {
  readonly head: Head | undefined;
  readonly boxes: Box[];
  readonly totals: Total[];
  readonly next_cursor: string | null;
}

/**
 * A listing statement run a page of boxes at a time: `params` with the page's `after` and `limit`
 * ({@link boxPageParams}), its parts put back together ({@link assembleParts}), and the next
 * page's cursor when the head's `more` says boxes follow the page. `head` is undefined when the
 * statement answered none (the listed order or zongpai is not known).
 *
 * @example
 * ```ts
 * const list = boxListing<OrderHead, OrderBox, OrderTotal>(db, orderProgressSql(view, rules));
 * const { head, boxes, totals, next_cursor } = await list({ order_no: 'SO-24001' }, { limit: 500 });
 * ```
 */
export const boxListing =
  <Head, Box extends { box_no: string; items: unknown[] }, Total>(db: Db, sql: string) =>
  async (params: SqlParams, page: BoxPage): Promise<BoxListingPage<Head, Box, Total>> => {
    const { rows } = await db.query<PartRow>(sql, { ...params, ...boxPageParams(page) });
    const { head, boxes, totals } = assembleParts<Head & { readonly more: boolean }, Box, Total>(rows);
    return { head, boxes, totals, next_cursor: nextBoxPage(head?.more === true, boxes) };
  };
