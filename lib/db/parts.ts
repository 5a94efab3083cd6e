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
