import type { Outcome } from '../api.ts';
import type { PackingList } from '../api-types.ts';
import { joinPages } from '../screens/lines.tsx';

/** The query of one page of a packing list: the page of boxes and the page of totals asked for. */
export interface ListPageQuery {
  readonly limit?: number;
  readonly cursor?: string;
  readonly totals_cursor?: string;
}

/**
 * A zongpai's whole packing list, every page of it: the boxes followed by `next_cursor` (a box
 * whose items go on to the next page shown once with all of them) and the totals followed by
 * `next_totals_cursor`, each page asking for the next boxes and the next totals at once. Once the
 * boxes are all there, a page asked for its totals alone asks for one box (whose boxes are not
 * used): the answer's room goes to the totals. The counts and status are the last page's. The
 * first refusal or lost connection is the answer.
 *
 * @example
 * ```ts
 * const list = await wholePackingList((query) =>
 *   api.run(api.client.GET('/v1/zongpai/{zongpai_no}/packing-list', { params: { path: { zongpai_no }, query } })),
 * );
 * ```
 */
export const wholePackingList = async (
  page: (query: ListPageQuery) => Promise<Outcome<PackingList>>,
): Promise<Outcome<PackingList>> => {
  const first = await page({});
  if (!first.ok) return first;
  let list = first.data;
  let { boxes, totals } = list;
  let cursor = list.next_cursor;
  let totalsCursor = list.next_totals_cursor;
  while (cursor !== null || totalsCursor !== null) {
    const next = await page({
      ...(cursor === null ? { limit: 1 } : { cursor }),
      ...(totalsCursor === null ? {} : { totals_cursor: totalsCursor }),
    });
    if (!next.ok) return next;
    list = next.data;
    if (cursor !== null) boxes = joinPages(boxes, list.boxes);
    if (totalsCursor !== null) totals = [...totals, ...list.totals];
    cursor = cursor === null ? null : list.next_cursor;
    totalsCursor = totalsCursor === null ? null : list.next_totals_cursor;
  }
  return { ...first, data: { ...list, boxes, totals, next_cursor: null, next_totals_cursor: null } };
};
