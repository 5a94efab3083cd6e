import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyBoxPage, expectError } from '../support/assertions.ts';
import { startTestService, type TestService } from '../support/service.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.close());

const register = async (zongpaiNo: string) =>
  expect((await service.call('POST', '/v1/zongpai', { body: { zongpai_no: zongpaiNo } })).status).toBe(201);
const close = (zongpaiNo: string) =>
  service.call('POST', `/v1/zongpai/${zongpaiNo}/close`, { token: service.tokens.supervisor });
const reopen = (
  zongpaiNo: string,
  token: string | null = service.tokens.supervisor,
  headers?: Record<string, string>,
) => service.call('POST', `/v1/zongpai/${zongpaiNo}/reopen`, { token, ...(headers === undefined ? {} : { headers }) });
/** GET /v1/zongpai/{zongpai_no}/packing-list, answered 200: the packing list. */
const packingList = async (zongpaiNo: string) => {
  const res = await service.call('GET', `/v1/zongpai/${zongpaiNo}/packing-list`);
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
  return res.body;
};
const save = async (body: unknown) => expect((await service.call('POST', '/v1/box', { body })).status).toBe(201);

describe('GET /v1/zongpai', () => {
  it('lists zongpais newest first, a page at a time, each once, with box count and total quantity', async () => {
    for (const n of [1, 2, 3, 4, 5]) await register(`PLT-L00${n}`);
    await service.plan('BOX-L001', { 'SKU-A': 5 });
    await save({ box_no: 'BOX-L001', zongpai_no: 'PLT-L003', items: [{ item_code: 'SKU-A', quantity: 5 }] });

    const seen: unknown[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: any } = await service.call(
        'GET',
        `/v1/zongpai?limit=2${cursor === null ? '' : `&cursor=${cursor}`}`,
      );
      expect(res.status).toBe(200);
      expect(res.body.zongpais.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.zongpais);
      cursor = res.body.next_cursor;
    } while (cursor !== null);
    expect(seen.map((z: any) => z.zongpai_no)).toEqual(['PLT-L005', 'PLT-L004', 'PLT-L003', 'PLT-L002', 'PLT-L001']);
    expect(seen[2]).toEqual({
      zongpai_no: 'PLT-L003',
      status: 'OPEN',
      version: 1,
      box_count: 1,
      total_quantity: 5,
      registered_at: expect.any(String),
      closed_at: null,
    });
  });

  it('lists only OPEN or only CLOSED zongpais when asked', async () => {
    await register('PLT-S001');
    await register('PLT-S002');
    expect((await close('PLT-S001')).status).toBe(200);
    const closed = await service.call('GET', '/v1/zongpai?status=CLOSED');
    expect(closed.body.zongpais.map((z: any) => z.zongpai_no)).toContain('PLT-S001');
    expect(closed.body.zongpais.every((z: any) => z.status === 'CLOSED' && typeof z.closed_at === 'string')).toBe(true);
    const open = await service.call('GET', '/v1/zongpai?status=OPEN&limit=100');
    expect(open.body.zongpais.map((z: any) => z.zongpai_no)).toContain('PLT-S002');
    expect(open.body.zongpais.some((z: any) => z.status !== 'OPEN')).toBe(false);
  });

  it('refuses an unknown status, a limit outside 1-100 and a cursor it did not issue with 400 VALIDATION_ERROR', async () => {
    expectError(await service.call('GET', '/v1/zongpai?status=SHIPPED'), 400, 'VALIDATION_ERROR');
    expectError(await service.call('GET', '/v1/zongpai?limit=0'), 400, 'VALIDATION_ERROR');
    expectError(await service.call('GET', '/v1/zongpai?limit=101'), 400, 'VALIDATION_ERROR');
    const forged = Buffer.from('2026-02-30T00:00:00.000000Z|PLT-X', 'utf8').toString('base64url');
    expectError(await service.call('GET', `/v1/zongpai?cursor=${forged}`), 400, 'VALIDATION_ERROR');
    expectError(await service.call('GET', '/v1/zongpai?cursor=bm90LWEtY3Vyc29y'), 400, 'VALIDATION_ERROR');
  });
});

describe('GET /v1/zongpai/{zongpai_no}/packing-list', () => {
  it('lists every box with its order, customer, completeness and items, and the totals per item', async () => {
    await service.plan('BOX-P001', { 'SKU-A': 4, 'SKU-B': 2 }, 'SO-P1');
    await service.plan('BOX-P002', { 'SKU-A': 6 }, 'SO-P2');
    await register('PLT-P001');
    await save({
      box_no: 'BOX-P001',
      zongpai_no: 'PLT-P001',
      items: [
        { item_code: 'SKU-B', quantity: 2 },
        { item_code: 'SKU-A', quantity: 4 },
      ],
    });
    await save({ box_no: 'BOX-P002', zongpai_no: 'PLT-P001', items: [{ item_code: 'SKU-A', quantity: 5 }] });

    expect(await packingList('plt-p001')).toEqual({
      zongpai_no: 'PLT-P001',
      status: 'OPEN',
      box_count: 2,
      total_quantity: 11,
      boxes: [
        {
          box_no: 'BOX-P001',
          order_no: 'SO-P1',
          customer_name: 'Test Customer',
          complete: true,
          total_quantity: 6,
          items: [
            { item_code: 'SKU-A', item_name: 'Item SKU-A', unit: 'pcs', quantity: 4 },
            { item_code: 'SKU-B', item_name: 'Item SKU-B', unit: 'pcs', quantity: 2 },
          ],
          more_items: false,
        },
        {
          box_no: 'BOX-P002',
          order_no: 'SO-P2',
          customer_name: 'Test Customer',
          complete: false,
          total_quantity: 5,
          items: [{ item_code: 'SKU-A', item_name: 'Item SKU-A', unit: 'pcs', quantity: 5 }],
          more_items: false,
        },
      ],
      totals: [
        { item_code: 'SKU-A', item_name: 'Item SKU-A', unit: 'pcs', quantity: 9 },
        { item_code: 'SKU-B', item_name: 'Item SKU-B', unit: 'pcs', quantity: 2 },
      ],
      next_cursor: null,
      next_totals_cursor: null,
    });
  });

  // The manifest of a full pallet is larger than the 64 KB the Data API allows in one result row.
  it('lists a pallet of 15 boxes of 60 items each, about 90 KB of manifest', async () => {
    await register('PLT-BIG1');
    const items = Object.fromEntries(
      Array.from({ length: 60 }, (_, k) => [`SKU-BIG-${String(k).padStart(2, '0')}`, 3]),
    );
    for (let n = 1; n <= 15; n += 1) {
      const box = `BOX-BIG-${String(n).padStart(2, '0')}`;
      await service.plan(box, items, 'SO-BIG-PALLET');
      await save({
        box_no: box,
        zongpai_no: 'PLT-BIG1',
        items: Object.entries(items).map(([item_code, quantity]) => ({ item_code, quantity })),
      });
    }
    const list = await packingList('PLT-BIG1');
    expect(list).toMatchObject({ zongpai_no: 'PLT-BIG1', status: 'OPEN', box_count: 15, total_quantity: 15 * 60 * 3 });
    expect(list.boxes.map((b: { box_no: string }) => b.box_no)).toEqual(
      Array.from({ length: 15 }, (_, i) => `BOX-BIG-${String(i + 1).padStart(2, '0')}`),
    );
    const last = list.boxes[14];
    expect(last).toMatchObject({ order_no: 'SO-BIG-PALLET', complete: true, total_quantity: 180 });
    expect(last.items).toHaveLength(60);
    expect(last.items[59]).toEqual({ item_code: 'SKU-BIG-59', item_name: 'Item SKU-BIG-59', unit: 'pcs', quantity: 3 });
    const { totals } = list;
    expect(totals).toHaveLength(60);
    expect(totals[0]).toEqual({ item_code: 'SKU-BIG-00', item_name: 'Item SKU-BIG-00', unit: 'pcs', quantity: 45 });
  });

  it('answers an empty zongpai with no boxes and no totals, and an unknown one with 404 ZONGPAI_NOT_FOUND', async () => {
    await register('PLT-P002');
    expect(await packingList('PLT-P002')).toEqual({
      zongpai_no: 'PLT-P002',
      status: 'OPEN',
      box_count: 0,
      total_quantity: 0,
      boxes: [],
      totals: [],
      next_cursor: null,
      next_totals_cursor: null,
    });
    expectError(await service.call('GET', '/v1/zongpai/PLT-NONE/packing-list'), 404, 'ZONGPAI_NOT_FOUND', 'zongpai');
    expectError(await service.call('GET', '/v1/zongpai/P!/packing-list'), 400, 'INVALID_ZONGPAI', 'zongpai');
  });
});

// A zongpai may be a container load: thousands of boxes, more than one Data API result row (64 KB) carries as a list.
describe('a zongpai of 2 000 boxes', () => {
  const CONTAINER = 'CTR-2000';
  const boxNo = (n: number) => `BOX-CTR-${String(n).padStart(4, '0')}`;
  beforeAll(async () => {
    await register(CONTAINER);
    await service.stack.db.query(
      `INSERT INTO cargo.box (box_no, status, zongpai_no, zongpai_since, version, total_quantity, saved_at, saved_by)
       SELECT 'BOX-CTR-' || lpad(n::text, 4, '0'), 'BOXED', :zongpai, now(), 1, 12, now(), 'olga' FROM generate_series(1, 2000) n`,
      { zongpai: CONTAINER },
    );
  });
  const expectAll = (body: { box_count: number; total_quantity: number; boxes: unknown[] }, status: string) => {
    expect(body).toMatchObject({ zongpai_no: CONTAINER, status, box_count: 2000, total_quantity: 24_000 });
    expect(body.boxes).toHaveLength(2000);
    expect(body.boxes[0]).toEqual({ box_no: boxNo(1), total_quantity: 12 });
    expect(body.boxes[1999]).toEqual({ box_no: boxNo(2000), total_quantity: 12 });
  };

  it('answers GET with every box and the totals', async () => {
    const res = await service.call('GET', `/v1/zongpai/${CONTAINER}`);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expectAll(res.body, 'OPEN');
  });

  it('closes it, and replays the keyed close, with every box', async () => {
    const headers = { 'idempotency-key': 'close-ctr-2000' };
    const first = await service.call('POST', `/v1/zongpai/${CONTAINER}/close`, {
      token: service.tokens.supervisor,
      headers,
    });
    expect(first.status, JSON.stringify(first.body).slice(0, 300)).toBe(200);
    expectAll(first.body, 'CLOSED');
    const replay = await service.call('POST', `/v1/zongpai/${CONTAINER}/close`, {
      token: service.tokens.supervisor,
      headers,
    });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
  });

  it('reopens it with every box', async () => {
    const res = await reopen(CONTAINER);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expectAll(res.body, 'OPEN');
  });

  // Its packing list, 5 items a box, is more than the Data API's 1 MiB result: its boxes come in pages.
  // About a dozen pages of half a megabyte each: 14 s on embedded PGlite on an idle machine, so
  // it is given room for a busy one (the statement's own latency is measured by the benchmark).
  it(
    'pages its packing list, the counts and totals over the whole zongpai on every page',
    { timeout: 120_000 },
    async () => {
      await service.stack.db.query(
        `INSERT INTO cargo.box_item (box_no, item_code, quantity)
       SELECT 'BOX-CTR-' || lpad(n::text, 4, '0'), 'SKU-' || k, 2 FROM generate_series(1, 2000) n, generate_series(1, 5) k`,
      );
      await service.stack.db.query(
        `INSERT INTO erp.demo_box_plan (box_no, order_no, customer_name, item_code, item_name, planned_quantity, unit)
       SELECT 'BOX-CTR-' || lpad(n::text, 4, '0'), 'SO-CTR', 'Container Customer', 'SKU-' || k,
              'Stoneware dinner plate, 27 cm, glazed, box of ' || k, 2, 'box'
       FROM generate_series(1, 2000) n, generate_series(1, 5) k`,
      );
      const { boxes, pages } = await everyBoxPage<{
        box_no: string;
        order_no: string;
        complete: boolean;
        items: unknown[];
      }>(
        (cursor) =>
          service.call('GET', `/v1/zongpai/${CONTAINER}/packing-list${cursor === null ? '' : `?cursor=${cursor}`}`),
        (body) => {
          expect(body).toMatchObject({
            zongpai_no: CONTAINER,
            status: 'OPEN',
            box_count: 2000,
            total_quantity: 24_000,
          });
          expect(body.totals).toHaveLength(5);
          expect(body.totals[0]).toMatchObject({ item_code: 'SKU-1', quantity: 4000 });
        },
      );
      expect(pages).toBeGreaterThan(1);
      expect(boxes.every((box) => box.order_no === 'SO-CTR' && box.complete && box.items.length === 5)).toBe(true);
      expect(boxes.map((box) => box.box_no)).toEqual(Array.from({ length: 2000 }, (_, i) => boxNo(i + 1)));
      const small = await service.call('GET', `/v1/zongpai/${CONTAINER}/packing-list?limit=2`);
      expect(small.body.boxes.map((b: { box_no: string }) => b.box_no)).toEqual([boxNo(1), boxNo(2)]);
      expectError(
        await service.call('GET', `/v1/zongpai/${CONTAINER}/packing-list?cursor=bm90LWEtY3Vyc29y`),
        400,
        'VALIDATION_ERROR',
        'request',
      );
    },
  );
});

describe('POST /v1/zongpai/{zongpai_no}/reopen', () => {
  it('reopens a closed zongpai so that boxes may be appended again, and keeps who reopened it and the close it undid', async () => {
    await register('PLT-R001');
    await service.plan('BOX-R001', { 'SKU-A': 1 });
    expect((await close('PLT-R001')).status).toBe(200);
    expectError(
      await service.call('POST', '/v1/box', {
        body: { box_no: 'BOX-R001', zongpai_no: 'PLT-R001', items: [{ item_code: 'SKU-A', quantity: 1 }] },
      }),
      409,
      'ZONGPAI_CLOSED',
    );

    const res = await reopen('PLT-R001');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      expect.objectContaining({
        zongpai_no: 'PLT-R001',
        status: 'OPEN',
        box_count: 0,
        total_quantity: 0,
        boxes: [],
        closed_at: null,
        closed_by: null,
      }),
    );
    await save({ box_no: 'BOX-R001', zongpai_no: 'PLT-R001', items: [{ item_code: 'SKU-A', quantity: 1 }] });

    const { rows } = await service.stack.db.query<{ reopened_by: string; closed_by: string }>(
      "SELECT reopened_by, closed_by FROM cargo.zongpai_reopening WHERE zongpai_no = 'PLT-R001'",
    );
    expect(rows).toEqual([{ reopened_by: 'sam', closed_by: 'sam' }]);
  });

  it('announces zongpai.reopened with the zongpai as it is after the reopening', async () => {
    await register('PLT-R005');
    await close('PLT-R005');
    await reopen('PLT-R005');
    const { rows } = await service.stack.db.query<{ type: string; actor: string; data: unknown }>(
      "SELECT type, actor, data FROM cargo.event WHERE data->>'zongpai_no' = 'PLT-R005' ORDER BY sequence",
    );
    expect(rows).toEqual([
      expect.objectContaining({ type: 'zongpai.registered' }),
      expect.objectContaining({ type: 'zongpai.closed' }),
      {
        type: 'zongpai.reopened',
        actor: 'sam',
        data: { zongpai_no: 'PLT-R005', status: 'OPEN', version: 3, box_count: 0, total_quantity: 0 },
      },
    ]);
  });

  it('answers each write with the version it wrote: 1 registered, one more per close and reopening, none for a repeat', async () => {
    const versionOf = (res: { body: { version: number } }) => res.body.version;
    expect(versionOf(await service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'PLT-R006' } }))).toBe(1);
    expect(versionOf(await close('PLT-R006'))).toBe(2);
    expect(versionOf(await close('PLT-R006'))).toBe(2);
    expect(versionOf(await reopen('PLT-R006'))).toBe(3);
    expect(versionOf(await reopen('PLT-R006'))).toBe(3);
    expect(versionOf(await service.call('GET', '/v1/zongpai/PLT-R006'))).toBe(3);
  });

  it('answers an open zongpai with 200 as it is and records nothing', async () => {
    await register('PLT-R002');
    const res = await reopen('PLT-R002');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expect.objectContaining({ zongpai_no: 'PLT-R002', status: 'OPEN' }));
    const { rows } = await service.stack.db.query(
      "SELECT 1 AS one FROM cargo.zongpai_reopening WHERE zongpai_no = 'PLT-R002'",
    );
    expect(rows).toEqual([]);
    const events = await service.stack.db.query(
      "SELECT type FROM cargo.event WHERE type = 'zongpai.reopened' AND data->>'zongpai_no' = 'PLT-R002'",
    );
    expect(events.rows).toEqual([]);
  });

  it('replays a keyed reopen without reopening again', async () => {
    await register('PLT-R003');
    await close('PLT-R003');
    const headers = { 'idempotency-key': 'reopen-r003' };
    const first = await reopen('PLT-R003', service.tokens.supervisor, headers);
    await close('PLT-R003');
    const again = await reopen('PLT-R003', service.tokens.supervisor, headers);
    expect(again.body).toEqual(first.body);
    expect((await service.call('GET', '/v1/zongpai/PLT-R003')).body.status).toBe('CLOSED');
  });

  it('is for supervisors: an operator gets 403 FORBIDDEN and the zongpai stays closed; an unknown zongpai is 404', async () => {
    await register('PLT-R004');
    await close('PLT-R004');
    expectError(await reopen('PLT-R004', service.tokens.operator), 403, 'FORBIDDEN', 'auth');
    expect((await service.call('GET', '/v1/zongpai/PLT-R004')).body.status).toBe('CLOSED');
    expectError(await reopen('PLT-NONE'), 404, 'ZONGPAI_NOT_FOUND', 'zongpai');
  });
});
