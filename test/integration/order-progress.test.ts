import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyBoxPage, expectError } from '../support/assertions.ts';
import { box1003Lines } from '../support/demo-erp.ts';
import { startTestService, type TestService } from '../support/service.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.close());

const order = (orderNo: string, token?: string, query = '') =>
  service.call('GET', `/v1/orders/${encodeURIComponent(orderNo)}${query}`, token === undefined ? {} : { token });
/** GET /v1/orders/{order_no}, answered 200: the order's progress. */
const progress = async (orderNo: string, query = '') => {
  const res = await order(orderNo, undefined, query);
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
  return res.body;
};
/** A planned box of an order as its progress shows it before anything of it is boxed: not boxed, nowhere, its plan. */
const notBoxed = (boxNo: string, items: unknown[]) => ({
  box_no: boxNo,
  status: 'NOT_BOXED',
  zongpai_no: null,
  version: 0,
  complete: false,
  location: null,
  items,
  more_items: false,
});
const register = async (zongpaiNo: string) =>
  expect((await service.call('POST', '/v1/zongpai', { body: { zongpai_no: zongpaiNo } })).status).toBe(201);
const scan = async (cargoNo: string, locationCode: string, offShelf = false) =>
  expect(
    (
      await service.call('POST', '/v1/cargo/location', {
        body: { cargo_no: cargoNo, location_code: locationCode, off_shelf: offShelf },
      })
    ).status,
  ).toBe(201);

describe('GET /v1/orders/{order_no}', () => {
  it('answers a demo order that nothing is boxed of yet as OPEN, every planned box NOT_BOXED with its plan', async () => {
    expect(await progress('SO-24002')).toEqual({
      order_no: 'SO-24002',
      customer_name: 'Hangzhou West Lake Foods',
      status: 'OPEN',
      box_count: 1,
      boxed_count: 0,
      complete_count: 0,
      complete: false,
      boxes: [notBoxed('BOX-1003', box1003Lines)],
      totals: box1003Lines,
      next_cursor: null,
      next_totals_cursor: null,
    });
  });

  it('shows each box boxed or not, complete or short, on which zongpai and where it is; PARTIAL until every box is boxed', async () => {
    await service.plan('BOX-O101', { 'SKU-A': 4, 'SKU-B': 2 }, 'SO-PROGRESS');
    await service.plan('BOX-O102', { 'SKU-A': 6 }, 'SO-PROGRESS');
    await register('PLT-O100');
    await scan('PLT-O100', 'DOCK-1', true);
    expect(
      (
        await service.call('POST', '/v1/box', {
          body: { box_no: 'BOX-O101', zongpai_no: 'PLT-O100', items: [{ item_code: 'SKU-A', quantity: 3 }] },
        })
      ).status,
    ).toBe(201);

    const partial = await order('SO-PROGRESS');
    expect(partial.body).toEqual(
      expect.objectContaining({ status: 'PARTIAL', box_count: 2, boxed_count: 1, complete_count: 0, complete: false }),
    );
    expect(partial.body.boxes[0]).toEqual({
      box_no: 'BOX-O101',
      status: 'BOXED',
      zongpai_no: 'PLT-O100',
      version: 1,
      complete: false,
      location: {
        location_code: 'DOCK-1',
        off_shelf: true,
        via: 'ZONGPAI',
        located_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
      items: [
        { item_code: 'SKU-A', item_name: 'Item SKU-A', unit: 'pcs', planned_quantity: 4, boxed_quantity: 3 },
        { item_code: 'SKU-B', item_name: 'Item SKU-B', unit: 'pcs', planned_quantity: 2, boxed_quantity: 0 },
      ],
      more_items: false,
    });
    expect(partial.body.boxes[1]).toEqual(
      expect.objectContaining({ box_no: 'BOX-O102', status: 'NOT_BOXED', zongpai_no: null, location: null }),
    );
    expect(partial.body.totals).toEqual([
      { item_code: 'SKU-A', item_name: 'Item SKU-A', unit: 'pcs', planned_quantity: 10, boxed_quantity: 3 },
      { item_code: 'SKU-B', item_name: 'Item SKU-B', unit: 'pcs', planned_quantity: 2, boxed_quantity: 0 },
    ]);

    // The box's own newer scan is where it is now.
    await scan('BOX-O101', 'A-01-02');
    const moved = await order('SO-PROGRESS');
    expect(moved.body.boxes[0].location).toEqual(
      expect.objectContaining({ location_code: 'A-01-02', off_shelf: false, via: 'BOX' }),
    );
  });

  it('is BOXED and complete once every planned box holds exactly its plan', async () => {
    await service.plan('BOX-O201', { 'SKU-A': 4 }, 'SO-DONE');
    await service.plan('BOX-O202', { 'SKU-B': 1 }, 'SO-DONE');
    await register('PLT-O200');
    for (const box of ['BOX-O201', 'BOX-O202']) {
      expect(
        (await service.call('POST', '/v1/box/simple', { body: { box_no: box, zongpai_no: 'PLT-O200' } })).status,
      ).toBe(201);
    }
    const res = await order('SO-DONE');
    expect(res.body).toEqual(
      expect.objectContaining({ status: 'BOXED', box_count: 2, boxed_count: 2, complete_count: 2, complete: true }),
    );
    expect(res.body.boxes.map((b: { complete: boolean }) => b.complete)).toEqual([true, true]);
  });

  it('matches the order number exactly as the ERP holds it, after trimming: another case is another order', async () => {
    expect((await order(' SO-24001 ')).body.order_no).toBe('SO-24001');
    expectError(await order('so-24001'), 404, 'ORDER_NOT_FOUND', 'order');
  });

  // An order's progress is larger than the 64 KB the Data API allows in one result row.
  it('answers an order of 400 boxes, each with its items, and the totals', async () => {
    await service.stack.db.query(
      `INSERT INTO erp.demo_box_plan (box_no, order_no, customer_name, item_code, item_name, planned_quantity, unit)
       SELECT 'BOX-BIG-' || lpad(n::text, 4, '0'), 'SO-BIG', 'Big Customer', 'SKU-' || k, 'Item number ' || k, 2, 'pcs'
       FROM generate_series(1, 400) AS n, generate_series(1, 2) AS k`,
    );
    const big = await progress('SO-BIG');
    expect(big).toMatchObject({ order_no: 'SO-BIG', customer_name: 'Big Customer', status: 'OPEN', box_count: 400 });
    expect(big.boxes[399]).toEqual(
      notBoxed('BOX-BIG-0400', [
        { item_code: 'SKU-1', item_name: 'Item number 1', unit: 'pcs', planned_quantity: 2, boxed_quantity: 0 },
        { item_code: 'SKU-2', item_name: 'Item number 2', unit: 'pcs', planned_quantity: 2, boxed_quantity: 0 },
      ]),
    );
    expect(big.totals).toEqual([
      { item_code: 'SKU-1', item_name: 'Item number 1', unit: 'pcs', planned_quantity: 800, boxed_quantity: 0 },
      { item_code: 'SKU-2', item_name: 'Item number 2', unit: 'pcs', planned_quantity: 800, boxed_quantity: 0 },
    ]);
  });

  // A whole container's order is more than the Data API's 1 MiB result: its boxes come in pages.
  it('pages the boxes of an order of 3 000 boxes, its counts and its 5 totals over the whole order on every page', async () => {
    await service.stack.db.query(
      `INSERT INTO erp.demo_box_plan (box_no, order_no, customer_name, item_code, item_name, planned_quantity, unit)
       SELECT 'BOX-CTR-' || lpad(n::text, 4, '0'), 'SO-CONTAINER', 'Container Customer', 'SKU-' || k,
              'Stoneware dinner plate, 27 cm, glazed, box of ' || k, 1, 'box'
       FROM generate_series(1, 3000) AS n, generate_series(1, 5) AS k`,
    );
    const { boxes, pages } = await everyBoxPage<{ box_no: string; items: unknown[] }>(
      (cursor) => order('SO-CONTAINER', undefined, cursor === null ? '' : `?cursor=${cursor}`),
      (body) => {
        expect(body).toMatchObject({ status: 'OPEN', box_count: 3000, boxed_count: 0, complete_count: 0 });
        expect(body.totals).toHaveLength(5);
        expect(body.totals[0]).toMatchObject({ item_code: 'SKU-1', planned_quantity: 3000, boxed_quantity: 0 });
      },
    );
    expect(pages).toBeGreaterThan(1);
    expect(boxes.every((box) => box.items.length === 5)).toBe(true);
    expect(boxes.map((box) => box.box_no)).toEqual(
      Array.from({ length: 3000 }, (_, i) => `BOX-CTR-${String(i + 1).padStart(4, '0')}`),
    );
  });

  it('answers a page of `limit` boxes and a cursor to the next, null after the last', async () => {
    const first = await order('SO-24001', undefined, '?limit=1');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ box_count: 2 });
    expect(first.body.boxes.map((b: { box_no: string }) => b.box_no)).toEqual(['BOX-1001']);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await order('SO-24001', undefined, `?limit=1&cursor=${first.body.next_cursor}`);
    expect(second.body.boxes.map((b: { box_no: string }) => b.box_no)).toEqual(['BOX-1002']);
    expect(second.body.next_cursor).toBeNull();
    expect(second.body.totals).toEqual(first.body.totals);
    expect((await order('SO-24001')).body.next_cursor).toBeNull();
  });

  // The ERP's box numbers are its own: whatever text they are, every box is on a page once.
  it('pages box numbers of any text the ERP holds, an empty one included, each box once', async () => {
    await service.stack.db.query(
      `INSERT INTO erp.demo_box_plan (box_no, order_no, customer_name, item_code, item_name, planned_quantity, unit)
       VALUES ('', 'SO-ODD', NULL, 'SKU-1', NULL, 1, NULL), ('b|2 ü', 'SO-ODD', NULL, 'SKU-1', NULL, 1, NULL),
              ('Z', 'SO-ODD', NULL, 'SKU-1', NULL, 1, NULL)`,
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 5; pages += 1) {
      const res = await order('SO-ODD', undefined, `?limit=1${cursor === null ? '' : `&cursor=${cursor}`}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.boxes.map((b: { box_no: string }) => b.box_no));
      cursor = res.body.next_cursor as string | null;
      if (cursor === null) break;
    }
    // In the database's collation order, whichever it is.
    expect(seen).toHaveLength(3);
    expect([...seen].sort()).toEqual(['', 'Z', 'b|2 ü']);
  });

  it('refuses a cursor it did not issue and a limit out of range with 400 VALIDATION_ERROR', async () => {
    expectError(await order('SO-24001', undefined, '?cursor=bm90LWEtY3Vyc29y'), 400, 'VALIDATION_ERROR', 'request');
    expectError(await order('SO-24001', undefined, '?limit=0'), 400, 'VALIDATION_ERROR', 'request');
    expectError(await order('SO-24001', undefined, '?limit=501'), 400, 'VALIDATION_ERROR', 'request');
  });

  it('answers 404 ORDER_NOT_FOUND for an order with no row in the ERP view', async () => {
    expectError(await order('SO-NONE'), 404, 'ORDER_NOT_FOUND', 'order');
  });

  it('refuses an order number of unprintable or too many characters with 400 INVALID_ORDER_NO', async () => {
    expectError(await order('SO\u0007X'), 400, 'INVALID_ORDER_NO', 'order');
    expectError(await order('S'.repeat(65)), 400, 'INVALID_ORDER_NO', 'order');
  });

  it('lets an ERP integration user read it', async () => {
    const token = await service.token('erp', ['integration']);
    expect((await order('SO-24003', token)).status).toBe(200);
  });
});
