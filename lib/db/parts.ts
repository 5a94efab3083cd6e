import * as z from 'zod/mini';
import { keyCursor } from '../rules/key-cursor.ts';
import type { Db, SqlParams } from './types.ts';

/**
 * A listing of boxes read as rows, not as one row of JSON: the Data API refuses a result row
 * over 64 KB (https://docs.aws.amazon.com/AmazonRDS/latest/AuroraUserGuide/data-api.limitations.html),
 * and an order's or a full pallet's boxes with their items are more than that. The statement
 * answers one row per part, `head` first, then every `box`, every `item` (with its `box_no`) and
 * every `total` (and, in a listing read a page at a time, a `next` part: {@link listingPartsSql}),
 * each part's `data` one JSON object, in the order the statement gives them ({@link PARTS_ORDER}).
 */
export type PartRow = {
  readonly part: 'head' | 'box' | 'item' | 'total' | 'next';
  readonly box_no: string | null;
  readonly data: Record<string, unknown>;
};

/** The schema of a {@link PartRow}: what a write statement answering its parts declares as its row. */
export const PART_ROW: z.ZodMiniType<PartRow> = /* @__PURE__ */ (() =>
  z.object({
    part: z.enum(['head', 'box', 'item', 'total', 'next']),
    box_no: z.nullable(z.string()),
    data: z.record(z.string(), z.unknown()),
  }))();

/**
 * The columns a listing statement adds to each part, and how it orders them: `part_rank` (head 0,
 * box 1, item 2, total 3, next 4), then the box number, then the item code.
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
    } else if (row.part === 'item') byNumber.get(row.box_no as string)?.items.push(row.data);
  }
  return { head, boxes, totals };
};

/** What a part's row adds on the Data API's wire beyond its text columns: its other columns and their framing. */
const PART_ROW_BYTES = 160;

/**
 * How many bytes of box and item parts a page of a listing holds, and how many of totals: the
 * Data API answers at most 1 MiB (https://docs.aws.amazon.com/AmazonRDS/latest/AuroraUserGuide/data-api.limitations.html),
 * counted on its wire ({@link wireBytesSql}); the two together leave room for the head, and one
 * part is at most tens of KB (an ERP text is at most 1 000 characters), so a page never passes it.
 */
export const PARTS_PAGE_BYTES = 640 * 1024;
export const TOTALS_PAGE_BYTES = 256 * 1024;

/**
 * The bytes a text value takes on the Data API's wire: a JSON string, in which each `"` and `\`
 * is escaped (a JSON text's own control characters are escaped already, as `\n` or `\u0001`).
 */
export const wireBytesSql = (text: string): string =>
  `(2 * octet_length(${text}) - octet_length(replace(replace(${text}, '\\', ''), '"', '')))`;

/** The size on the wire of a part's row of `texts` (SQL text expressions): see {@link wireBytesSql}. */
export const rowBytesSql = (...texts: string[]): string =>
  [String(PART_ROW_BYTES), ...texts.map(wireBytesSql)].join(' + ');

/**
 * Whether the box `boxNo` (an SQL expression) is on the page a request asks for: every box after
 * `:after_box` (all when it is null), and `:after_box` itself when the page before ended inside
 * its items (`:after_item`, its last item shown, is not null).
 */
export const pageStartSql = (boxNo: string): string =>
  `(CAST(:after_box AS text) IS NULL OR ${boxNo} > :after_box OR (${boxNo} = :after_box AND CAST(:after_item AS text) IS NOT NULL))`;

/**
 * The end of a listing statement: its parts (lib/db/parts.ts), a page of them. The statement
 * defines, before it, `listed` (`box_no` of every box of the listing), `page` (`box_no` of at most
 * `:limit` boxes in box number order from {@link pageStartSql}), `box_parts` (`box_no`, `data`:
 * each page box's JSON), `item_parts` (`box_no`, `item_code`, `data`: the items of at least the
 * page's boxes) and `total_parts` (`item_code`, `data`); `head` is a query answering the head's
 * JSON (no row: the listing is not known).
 *
 * The page is the boxes and items in order, from the request's cursor, as far as
 * {@link PARTS_PAGE_BYTES} holds (always its first box and first item): a box whose items do not
 * all fit ends the page and goes on, the same box again, at the top of the next. The totals come
 * a page of their own at a time, from `:totals_after`, as far as {@link TOTALS_PAGE_BYTES} holds.
 * The `next` part says where each goes on. One pass over each, the running sums as windows.
 *
 * @example
 * ```ts
 * `WITH listed AS (…), page AS (…), box_parts AS (…), item_parts AS (…), total_parts AS (…),
 * ${listingPartsSql('SELECT json_build_object(…) FROM zongpai z')}`
 * ```
 */
export const listingPartsSql = (head: string): string => `page_items AS (
  SELECT i.box_no, i.item_code, i.data FROM item_parts i JOIN page p ON p.box_no = i.box_no
  WHERE CAST(:after_item AS text) IS NULL OR i.box_no <> :after_box OR i.item_code > :after_item
),
parts_sized AS (
  SELECT q.*, row_number() OVER w AS n, sum(q.bytes) OVER w AS running
  FROM (
    SELECT 1 AS part_rank, b.box_no, NULL::text AS item_code, b.data, ${rowBytesSql('b.box_no', 'b.data::text')} AS bytes
    FROM box_parts b
    UNION ALL
    SELECT 2, i.box_no, i.item_code, i.data, ${rowBytesSql('i.box_no', 'i.item_code', 'i.data::text')}
    FROM page_items i
  ) AS q
  WINDOW w AS (ORDER BY q.box_no, q.part_rank, q.item_code)
),
parts_fitted AS (
  -- A box is shown only with its first item: where that item does not fit, the page ends before the box.
  SELECT s.*, CASE WHEN s.part_rank = 1 AND lead(s.box_no) OVER w = s.box_no THEN lead(s.running) OVER w ELSE s.running END AS fit,
         COALESCE(lead(s.part_rank) OVER w = 2 AND lead(s.box_no) OVER w = s.box_no, false) AS followed_by_item
  FROM parts_sized s WINDOW w AS (ORDER BY s.n)
),
shown_parts AS (
  SELECT f.* FROM parts_fitted f WHERE f.fit <= ${PARTS_PAGE_BYTES} OR f.n = 1 OR (f.n = 2 AND f.part_rank = 2)
),
last_part AS (SELECT s.box_no, s.item_code, s.followed_by_item FROM shown_parts s ORDER BY s.n DESC LIMIT 1),
totals_sized AS (
  SELECT t.item_code, t.data, row_number() OVER w AS n, sum(${rowBytesSql('t.item_code', 't.data::text')}) OVER w AS running
  FROM total_parts t
  WHERE CAST(:totals_after AS text) IS NULL OR t.item_code > :totals_after
  WINDOW w AS (ORDER BY t.item_code)
),
shown_totals AS (SELECT t.item_code, t.data, t.n FROM totals_sized t WHERE t.running <= ${TOTALS_PAGE_BYTES} OR t.n = 1)
SELECT 0 AS part_rank, 'head' AS part, NULL::text AS box_no, NULL::text AS item_code, h.data
FROM (${head}) AS h (data)
UNION ALL
SELECT 1, 'box', s.box_no, NULL, s.data FROM shown_parts s WHERE s.part_rank = 1
UNION ALL
SELECT 2, 'item', s.box_no, s.item_code, s.data FROM shown_parts s WHERE s.part_rank = 2
UNION ALL
SELECT 3, 'total', NULL, t.item_code, t.data FROM shown_totals t
UNION ALL
SELECT 4, 'next', NULL, NULL,
       json_build_object('box_no', (SELECT l.box_no FROM last_part l),
                         'item_code', (SELECT l.item_code FROM last_part l WHERE l.followed_by_item),
                         'more_boxes', EXISTS (SELECT 1 FROM listed x WHERE x.box_no > (SELECT l.box_no FROM last_part l)),
                         'total_item_code', (SELECT t.item_code FROM shown_totals t ORDER BY t.n DESC LIMIT 1),
                         'more_totals', EXISTS (SELECT 1 FROM totals_sized t WHERE t.n > (SELECT max(s.n) FROM shown_totals s)))
${PARTS_ORDER}`;

/** Where a listing goes on after a page: its `next` part ({@link listingPartsSql}). */
interface NextPart {
  readonly box_no: string | null;
  /** The last item shown of the page's last box, when that box's items go on (else null). */
  readonly item_code: string | null;
  readonly more_boxes: boolean;
  readonly total_item_code: string | null;
  readonly more_totals: boolean;
}

/**
 * The cursor of a listing's page of boxes: the last box shown, and its last item shown where its
 * items go on (after a NUL, which no PostgreSQL text holds). A box number is any text the ERP
 * holds: anything but a NUL. A cursor of a box alone (the only kind issued before a box could go
 * on) still reads as the page after that box; an item after the NUL is never empty (item codes are not).
 */
const BOX_PAGE_CURSOR = keyCursor('b', '[^\\u0000]*(?:\\u0000[^\\u0000]+)?');
/** The cursor of a listing's page of totals: the last item code shown. */
const TOTALS_PAGE_CURSOR = keyCursor('t', '[^\\u0000]*');

/**
 * The page of a listing a request asks for: at most `limit` boxes, after the page its `cursor`
 * came with, and the totals after the page its `totals_cursor` came with (from the first without).
 */
export interface BoxPage {
  readonly limit: number;
  readonly cursor?: string | undefined;
  readonly totals_cursor?: string | undefined;
}

/**
 * A listing statement's page parameters: `after_box` and `after_item` (where the page before
 * ended; null for the first page), `limit`, and `totals_after`. A cursor this service did not
 * issue is a 400.
 */
const pageParams = (page: BoxPage) => {
  const [box = null, item = null] =
    page.cursor === undefined ? [] : BOX_PAGE_CURSOR.decode(page.cursor).split('\u0000');
  const totals = page.totals_cursor === undefined ? null : TOTALS_PAGE_CURSOR.decode(page.totals_cursor);
  return { after_box: box, after_item: item, limit: page.limit, totals_after: totals };
};

/** The cursors of the pages after this one: of its boxes (null after the last) and of its totals. */
const nextPages = (next: NextPart | undefined) => {
  if (next === undefined) return { next_cursor: null, next_totals_cursor: null };
  const { box_no: box, item_code: item } = next;
  const goesOn = box !== null && (item !== null || next.more_boxes);
  return {
    next_cursor: goesOn ? BOX_PAGE_CURSOR.encode(item === null ? box : `${box}\u0000${item}`) : null,
    next_totals_cursor:
      next.more_totals && next.total_item_code !== null ? TOTALS_PAGE_CURSOR.encode(next.total_item_code) : null,
  };
};

/** A page of a listing of boxes put back together, with the cursors of the pages after it (null on the last). */
export interface BoxListingPage<Head, Box, Total> {
  readonly head: Head | undefined;
  readonly boxes: (Box & { more_items: boolean })[];
  readonly totals: Total[];
  readonly next_cursor: string | null;
  readonly next_totals_cursor: string | null;
}

/**
 * A listing statement ({@link listingPartsSql}) run a page at a time: `params` with the page's
 * parameters, its parts put back together ({@link assembleParts}), each box saying whether its
 * items go on on the next page (`more_items`, only ever the page's last), and the cursors of the
 * next pages. `head` is undefined when the statement answered none (the listed order or zongpai
 * is not known).
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
    const { rows } = await db.query<PartRow>(sql, { ...params, ...pageParams(page) });
    const { head, boxes, totals } = assembleParts<Head, Box, Total>(rows);
    const next = rows.find((row) => row.part === 'next')?.data as NextPart | undefined;
    const moreItems = next?.item_code != null;
    const last = boxes.length - 1;
    return {
      head,
      boxes: boxes.map((box, index) => ({ ...box, more_items: moreItems && index === last })),
      totals,
      ...nextPages(next),
    };
  };
