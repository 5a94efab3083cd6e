import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { startTestService, type ApiResponse, type TestService } from '../support/service.ts';

/**
 * Every answer about the ERP's plan stays within the Data API's limits (1 MiB a result, 64 KB a
 * row) at any size the ERP view holds: an order's and a packing list's boxes, their items and the
 * totals come in pages, a box whose items do not fit on one page goes on on the next, and a plan
 * too large for one box's answer is refused with 422 ERP_PLAN_INVALID naming the limit.
 */
let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.close());

type Item = { item_code: string; item_name?: string | null; [key: string]: unknown };
type Box = { box_no: string; more_items: boolean; items: Item[]; [key: string]: unknown };

/**
 * Every page of a listing (`path` with `?limit=`), boxes by `cursor` then totals by
 * `totals_cursor`, each answered 200 and checked by `check`: the boxes put back together (a box
 * whose items go on is continued at the top of the next page), the totals, and the page count.
 */
const readListing = async (path: string, limit: number, check: (body: any) => void = () => {}) => {
  const boxes: Box[] = [];
  let pages = 0;
  const read = async (query: string): Promise<any> => {
    const res: ApiResponse = await service.call('GET', `${path}?limit=${limit}${query}`);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    check(res.body);
    pages += 1;
    return res.body;
  };
  let body = await read('');
  const totals: Item[] = [...body.totals];
  let totalsCursor: string | null = body.next_totals_cursor;
  for (;;) {
    for (const box of body.boxes as Box[]) {
      const last = boxes[boxes.length - 1];
      if (last?.box_no === box.box_no) {
        expect(last.more_items).toBe(true);
        boxes[boxes.length - 1] = { ...box, items: [...last.items, ...box.items] };
      } else boxes.push(box);
    }
    if (body.next_cursor === null) break;
    expect(pages).toBeLessThan(100);
    body = await read(`&cursor=${body.next_cursor}`);
  }
  while (totalsCursor !== null) {
    expect(pages).toBeLessThan(200);
    const page = await read(`&totals_cursor=${totalsCursor}`);
    totals.push(...page.totals);
    totalsCursor = page.next_totals_cursor;
  }
  return { boxes, totals, pages };
};

const code = (n: number, k: number) => `SKU-${String(n).padStart(5, '0')}-${k}`;
const boxNo = (prefix: string, n: number) => `${prefix}-${String(n).padStart(5, '0')}`;

describe('an order of 1 000 boxes of 5 items each, every item its own', () => {
  beforeAll(async () => {
    await service.stack.db.query(
      `INSERT INTO erp.demo_box_plan (box_no, order_no, customer_name, item_code, item_name, planned_quantity, unit)
       SELECT 'BOX-S1-' || lpad(n::text, 5, '0'), 'SO-SIZE-1', 'Size Customer', 'SKU-' || lpad(n::text, 5, '0') || '-' || k,
              'Stoneware dinner plate, 27 cm, glazed, box of ' || k, k, 'box'
       FROM generate_series(1, 1000) AS n, generate_series(1, 5) AS k`,
    );
  });

  it('answers its first page of one box, with the counts over the whole order and a part of its totals', async () => {
    const res = await service.call('GET', '/v1/orders/SO-SIZE-1?limit=1');
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body).toMatchObject({ box_count: 1000, boxed_count: 0, status: 'OPEN' });
    expect(res.body.boxes.map((b: Box) => [b.box_no, b.items.length, b.more_items])).toEqual([
      ['BOX-S1-00001', 5, false],
    ]);
    expect(res.body.totals.length).toBeGreaterThan(0);
    expect(res.body.totals.length).toBeLessThan(5000);
    expect(res.body.next_totals_cursor).toEqual(expect.any(String));
  });

  it(
    'answers every page 200, every box with its 5 items and every total once, in order',
    { timeout: 120_000 },
    async () => {
      const { boxes, totals, pages } = await readListing('/v1/orders/SO-SIZE-1', 500, (body) =>
        expect(body).toMatchObject({ box_count: 1000, boxed_count: 0, complete_count: 0 }),
      );
      expect(pages).toBeGreaterThan(2);
      expect(boxes.map((b) => b.box_no)).toEqual(Array.from({ length: 1000 }, (_, i) => boxNo('BOX-S1', i + 1)));
      expect(boxes.every((b) => b.items.length === 5 && b.status === 'NOT_BOXED')).toBe(true);
      expect(boxes[999]?.items[4]).toEqual({
        item_code: code(1000, 5),
        item_name: 'Stoneware dinner plate, 27 cm, glazed, box of 5',
        unit: 'box',
        planned_quantity: 5,
        boxed_quantity: 0,
      });
      expect(totals.map((t) => t.item_code)).toEqual(
        Array.from({ length: 1000 }, (_, n) => [1, 2, 3, 4, 5].map((k) => code(n + 1, k))).flat(),
      );
      expect(totals[4999]).toMatchObject({ item_code: code(1000, 5), planned_quantity: 5, boxed_quantity: 0 });
    },
  );
});

describe('a zongpai of 10 boxes of 500 items each, every item its own', () => {
  const ZONGPAI = 'PLT-SIZE-10';
  beforeAll(async () => {
    expect((await service.call('POST', '/v1/zongpai', { body: { zongpai_no: ZONGPAI } })).status).toBe(201);
    await service.stack.db.query(
      `INSERT INTO cargo.box (box_no, status, zongpai_no, zongpai_since, version, total_quantity, saved_at, saved_by)
       SELECT 'BOX-S2-' || lpad(n::text, 5, '0'), 'BOXED', :zongpai, now(), 1, 500, now(), 'olga' FROM generate_series(1, 10) n`,
      { zongpai: ZONGPAI },
    );
    await service.stack.db.query(
      `INSERT INTO cargo.box_item (box_no, item_code, quantity)
       SELECT 'BOX-S2-' || lpad(n::text, 5, '0'), 'SKU-' || lpad(n::text, 5, '0') || '-' || k, 1
       FROM generate_series(1, 10) n, generate_series(1, 500) k`,
    );
    await service.stack.db.query(
      `INSERT INTO erp.demo_box_plan (box_no, order_no, customer_name, item_code, item_name, planned_quantity, unit)
       SELECT 'BOX-S2-' || lpad(n::text, 5, '0'), 'SO-SIZE-2', 'Size Customer', 'SKU-' || lpad(n::text, 5, '0') || '-' || k,
              'Porcelain tea cup number ' || k, 1, 'pcs'
       FROM generate_series(1, 10) n, generate_series(1, 500) k`,
    );
  });

  it(
    'answers its packing list 200 on every page, limit=1 too, each box complete and every total once',
    { timeout: 120_000 },
    async () => {
      const { boxes, totals } = await readListing(`/v1/zongpai/${ZONGPAI}/packing-list`, 1, (body) =>
        expect(body).toMatchObject({ zongpai_no: ZONGPAI, box_count: 10, total_quantity: 5000 }),
      );
      expect(boxes.map((b) => b.box_no)).toEqual(Array.from({ length: 10 }, (_, i) => boxNo('BOX-S2', i + 1)));
      expect(boxes.every((b) => b.complete === true && b.items.length === 500)).toBe(true);
      expect(boxes[9]?.items[0]).toEqual({
        item_code: 'SKU-00010-1',
        item_name: 'Porcelain tea cup number 1',
        unit: 'pcs',
        quantity: 1,
      });
      expect(totals).toHaveLength(5000);
      expect(new Set(totals.map((t) => t.item_code)).size).toBe(5000);
      expect(totals.every((t) => t.quantity === 1)).toBe(true);
    },
  );
});

describe('500 plan lines with long Chinese item names', () => {
  const ZONGPAI = 'PLT-SIZE-NAMES';
  const name = (characters: number, k: number) => `${String(k).padStart(3, '0')}${'茶'.repeat(characters - 3)}`;
  beforeAll(async () => {
    for (const [box, characters] of [
      ['BOX-S3-300', 300],
      ['BOX-S3-1000', 1000],
    ] as const)
      await service.stack.db.query(
        `INSERT INTO erp.demo_box_plan (box_no, order_no, customer_name, item_code, item_name, planned_quantity, unit)
         SELECT :box, 'SO-SIZE-3', '杭州西湖食品', 'SKU-' || lpad(k::text, 3, '0'),
                lpad(k::text, 3, '0') || repeat('茶', CAST(:characters AS integer) - 3), 2, '件'
         FROM generate_series(1, 500) k`,
        { box, characters },
      );
    expect((await service.call('POST', '/v1/zongpai', { body: { zongpai_no: ZONGPAI } })).status).toBe(201);
  });

  it('box info answers 500 items with 300-character names whole', async () => {
    const res = await service.call('GET', '/v1/box/info?box_no=BOX-S3-300');
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body.items).toHaveLength(500);
    expect(res.body.items.every((i: Item, k: number) => i.item_name === name(300, k + 1))).toBe(true);
  });

  it('box info refuses 500 items with 1 000-character names with ERP_PLAN_INVALID naming the size and the limit', async () => {
    const res = await service.call('GET', '/v1/box/info?box_no=BOX-S3-1000');
    expectError(res, 422, 'ERP_PLAN_INVALID', 'box');
    expect(res.body.message).toMatch(
      /^The ERP plan of box 'BOX-S3-1000' has 500 items coming to \d+ KB, more than one answer carries \(\d+ KB\); have the ERP plan corrected$/,
    );
  });

  it(
    'boxes both in one scan each, and answers the order and the packing list page by page with every name whole',
    { timeout: 120_000 },
    async () => {
      for (const box of ['BOX-S3-300', 'BOX-S3-1000']) {
        const saved = await service.call('POST', '/v1/box/simple', { body: { box_no: box, zongpai_no: ZONGPAI } });
        expect(saved.status, JSON.stringify(saved.body).slice(0, 300)).toBe(201);
        expect(saved.body.items).toHaveLength(500);
      }
      const expected = (box: string) => (box === 'BOX-S3-300' ? 300 : 1000);
      const order = await readListing('/v1/orders/SO-SIZE-3', 500, (body) =>
        expect(body).toMatchObject({ box_count: 2, boxed_count: 2, complete_count: 2, status: 'BOXED' }),
      );
      expect(order.pages).toBeGreaterThan(2);
      expect(order.boxes.map((b) => b.box_no)).toEqual(['BOX-S3-1000', 'BOX-S3-300']);
      for (const box of order.boxes) {
        expect(box.items.map((i) => i.item_code)).toEqual(
          Array.from({ length: 500 }, (_, k) => `SKU-${String(k + 1).padStart(3, '0')}`),
        );
        expect(
          box.items.every((i, k) => i.item_name === name(expected(box.box_no), k + 1) && i.boxed_quantity === 2),
        ).toBe(true);
      }
      expect(order.totals).toHaveLength(500);
      expect(order.totals.every((t) => t.planned_quantity === 4 && t.boxed_quantity === 4)).toBe(true);

      const packing = await readListing(`/v1/zongpai/${ZONGPAI}/packing-list`, 500);
      expect(packing.boxes.map((b) => b.box_no)).toEqual(['BOX-S3-1000', 'BOX-S3-300']);
      for (const box of packing.boxes) {
        expect(box.complete).toBe(true);
        expect(box.items.every((i, k) => i.item_name === name(expected(box.box_no), k + 1) && i.quantity === 2)).toBe(
          true,
        );
      }
      expect(packing.totals).toHaveLength(500);
      expect(packing.totals.every((t) => t.quantity === 4)).toBe(true);
    },
  );
});

describe('a box planned with 10 000 lines', () => {
  beforeAll(async () => {
    await service.stack.db.query(
      `INSERT INTO erp.demo_box_plan (box_no, order_no, customer_name, item_code, item_name, planned_quantity, unit)
       SELECT 'BOX-S4-HUGE', 'SO-SIZE-4', 'Size Customer', 'SKU-' || lpad(k::text, 5, '0'),
              'Stainless steel tablespoon, polished, item ' || k, 1, 'pcs'
       FROM generate_series(1, 10000) k`,
    );
    expect((await service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'PLT-SIZE-HUGE' } })).status).toBe(201);
  });

  it('box info refuses it with ERP_PLAN_INVALID naming the size and the limit, in Chinese too', async () => {
    const res = await service.call('GET', '/v1/box/info?box_no=BOX-S4-HUGE');
    expectError(res, 422, 'ERP_PLAN_INVALID', 'box');
    expect(res.body.message).toMatch(
      /^The ERP plan of box 'BOX-S4-HUGE' has 10000 items coming to \d+ KB, more than one answer carries/,
    );
    const zh = await service.call('GET', '/v1/box/info?box_no=BOX-S4-HUGE', {
      headers: { 'accept-language': 'zh-CN' },
    });
    expectError(zh, 422, 'ERP_PLAN_INVALID', 'box');
    expect(zh.body.message).toMatch(/BOX-S4-HUGE.*10000.*[\u4e00-\u9fff]/);
  });

  it('the simple save refuses it with ERP_PLAN_INVALID naming the 10 000 items, storing nothing', async () => {
    const res = await service.call('POST', '/v1/box/simple', {
      body: { box_no: 'BOX-S4-HUGE', zongpai_no: 'PLT-SIZE-HUGE' },
    });
    expectError(res, 422, 'ERP_PLAN_INVALID', 'box');
    expect(res.body.message).toBe(
      "The ERP plan of box 'BOX-S4-HUGE' has 10000 items, more than one box save holds; have the ERP plan corrected",
    );
    const stored = await service.stack.db.query('SELECT 1 FROM cargo.box WHERE box_no = :box', { box: 'BOX-S4-HUGE' });
    expect(stored.rows).toEqual([]);
  });

  it(
    'a save with items boxes part of it, and its order answers every one of its lines page by page',
    { timeout: 120_000 },
    async () => {
      const saved = await service.call('POST', '/v1/box', {
        body: {
          box_no: 'BOX-S4-HUGE',
          zongpai_no: 'PLT-SIZE-HUGE',
          items: [
            { item_code: 'SKU-00001', quantity: 1 },
            { item_code: 'SKU-10000', quantity: 1 },
          ],
        },
      });
      expect(saved.status, JSON.stringify(saved.body).slice(0, 300)).toBe(201);
      expect(saved.body).toMatchObject({ complete: false, total_quantity: 2 });
      const { boxes, totals, pages } = await readListing('/v1/orders/SO-SIZE-4', 500, (body) =>
        expect(body).toMatchObject({ box_count: 1, boxed_count: 1, status: 'BOXED' }),
      );
      expect(pages).toBeGreaterThan(1);
      expect(boxes).toHaveLength(1);
      expect(boxes[0]?.more_items).toBe(false);
      expect(boxes[0]?.items.map((i) => i.item_code)).toEqual(
        Array.from({ length: 10000 }, (_, k) => `SKU-${String(k + 1).padStart(5, '0')}`),
      );
      expect(boxes[0]?.items.filter((i) => i.boxed_quantity === 1).map((i) => i.item_code)).toEqual([
        'SKU-00001',
        'SKU-10000',
      ]);
      expect(totals).toHaveLength(10000);
    },
  );
});

// 500 items with 64-character Chinese codes are about 110 KB as one JSON record: more than the
// answer's, the audit row's and the event's one Data API row (64 KB) carries.
describe('a box whose items come to more than one row carries', () => {
  const longCode = (k: number) => `${String(k).padStart(3, '0')}${'码'.repeat(61)}`;
  beforeAll(async () => {
    await service.stack.db.query(
      `INSERT INTO erp.demo_box_plan (box_no, order_no, customer_name, item_code, item_name, planned_quantity, unit)
       SELECT 'BOX-S5-CODES', 'SO-SIZE-5', 'Size Customer', lpad(k::text, 3, '0') || repeat('码', 61), 'Item', 1, 'pcs'
       FROM generate_series(1, 500) k`,
    );
    expect((await service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'PLT-SIZE-CODES' } })).status).toBe(201);
  });

  it('the simple save refuses such a plan with ERP_PLAN_INVALID naming its size and the limit', async () => {
    const res = await service.call('POST', '/v1/box/simple', {
      body: { box_no: 'BOX-S5-CODES', zongpai_no: 'PLT-SIZE-CODES' },
    });
    expectError(res, 422, 'ERP_PLAN_INVALID', 'box');
    expect(res.body.message).toMatch(
      /^The ERP plan of box 'BOX-S5-CODES' has item codes coming to \d{6} bytes, more than one box's record carries \(57344\); have the ERP plan corrected$/,
    );
  });

  it('a save of such items is refused with 400 VALIDATION_ERROR on items, in Chinese too', async () => {
    const items = Array.from({ length: 500 }, (_, k) => ({ item_code: longCode(k + 1), quantity: 1 }));
    const res = await service.call('POST', '/v1/box', {
      body: { box_no: 'BOX-S5-CODES', zongpai_no: 'PLT-SIZE-CODES', items },
    });
    expectError(res, 400, 'VALIDATION_ERROR', 'request');
    expect(res.body.message).toBe(
      "items must come to at most 57344 bytes as the box's record: fewer items or shorter item codes",
    );
    const zh = await service.call('POST', '/v1/box', {
      body: { box_no: 'BOX-S5-CODES', zongpai_no: 'PLT-SIZE-CODES', items },
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(zh.body.message).toContain('57344 字节');
    const half = await service.call('POST', '/v1/box', {
      body: { box_no: 'BOX-S5-CODES', zongpai_no: 'PLT-SIZE-CODES', items: items.slice(0, 200) },
    });
    expect(half.status, JSON.stringify(half.body).slice(0, 300)).toBe(201);
    expect(half.body.items).toHaveLength(200);
  });
});
