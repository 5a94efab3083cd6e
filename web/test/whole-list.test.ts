import { describe, expect, it } from 'vitest';
import type { Outcome } from '../src/api.ts';
import type { PackingList } from '../src/api-types.ts';
import { wholePackingList, type ListPageQuery } from '../src/print/whole-list.ts';

type Box = PackingList['boxes'][number];
type Item = PackingList['totals'][number];

const item = (item_code: string, quantity: number): Item => ({ item_code, item_name: null, unit: 'PCS', quantity });
const box = (box_no: string, items: Item[], more_items = false): Box => ({
  box_no,
  order_no: 'SO-24001',
  customer_name: '杭州西湖食品',
  complete: true,
  total_quantity: items.reduce((sum, i) => sum + i.quantity, 0),
  items,
  more_items,
});
const page = (
  boxes: Box[],
  totals: Item[],
  next_cursor: string | null,
  next_totals_cursor: string | null,
): Outcome<PackingList> => ({
  ok: true,
  status: 200,
  data: {
    zongpai_no: 'PLT-0001',
    status: 'OPEN',
    box_count: 3,
    total_quantity: 9,
    boxes,
    totals,
    next_cursor,
    next_totals_cursor,
  },
});

/** A service answering from a table of pages by their query, and what it was asked. */
const service = (pages: Record<string, Outcome<PackingList>>) => {
  const asked: ListPageQuery[] = [];
  const answer = (query: ListPageQuery) => {
    asked.push(query);
    const found = pages[JSON.stringify(query)];
    if (found === undefined) throw new Error(`not a page of this list: ${JSON.stringify(query)}`);
    return Promise.resolve(found);
  };
  return { asked, answer };
};

describe('the packing list printed whole', () => {
  it('follows every page of boxes and of totals, a box split across pages shown once with all its items', async () => {
    const { asked, answer } = service({
      '{}': page([box('BOX-1001', [item('A', 1)]), box('BOX-1002', [item('A', 2)], true)], [item('A', 3)], 'b1', 't1'),
      '{"cursor":"b1","totals_cursor":"t1"}': page(
        [box('BOX-1002', [item('B', 2)]), box('BOX-1003', [item('C', 4)])],
        [item('B', 2)],
        null,
        't2',
      ),
      '{"limit":1,"totals_cursor":"t2"}': page([box('BOX-1001', [item('A', 1)])], [item('C', 4)], 'b9', null),
    });
    const outcome = await wholePackingList(answer);
    expect(asked).toHaveLength(3);
    expect(outcome.ok && outcome.data).toMatchObject({
      boxes: [
        { box_no: 'BOX-1001', items: [item('A', 1)] },
        { box_no: 'BOX-1002', items: [item('A', 2), item('B', 2)] },
        { box_no: 'BOX-1003', items: [item('C', 4)] },
      ],
      totals: [item('A', 3), item('B', 2), item('C', 4)],
      next_cursor: null,
      next_totals_cursor: null,
    });
  });

  it('answers with the refusal of a later page, never with a part of the list', async () => {
    const refusal: Outcome<PackingList> = { ok: false, status: 0, offline: true };
    const { answer } = service({
      '{}': page([box('BOX-1001', [item('A', 1)])], [item('A', 1)], 'b1', null),
      '{"cursor":"b1"}': refusal,
    });
    expect(await wholePackingList(answer)).toEqual(refusal);
  });
});
