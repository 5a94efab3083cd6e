import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../../lib/db/types.ts';
import { expectError } from '../support/assertions.ts';
import { startTestService, type TestService } from '../support/service.ts';

/** A box of the ERP plan (5 SKU-A) of `order` for `customer`. */
const planBox = async (service: TestService, box: string, order: string, customer: string | null = 'Test Customer') => {
  await service.stack.db.query(
    `INSERT INTO erp.demo_box_plan (box_no, order_no, customer_name, item_code, item_name, planned_quantity, unit)
     VALUES (:box, :order, :customer, 'SKU-A', 'Item A', 5, 'pcs')`,
    { box, order, customer },
  );
};

const register = async (service: TestService, zongpai: string) => {
  expect((await service.call('POST', '/v1/zongpai', { body: { zongpai_no: zongpai } })).status).toBe(201);
};

const save = (service: TestService, box: string, zongpai: string) => service.saveBox(box, zongpai, { 'SKU-A': 5 });
const saveSimple = (service: TestService, box: string, zongpai: string) =>
  service.call('POST', '/v1/box/simple', { body: { box_no: box, zongpai_no: zongpai } });
const move = (service: TestService, box: string, zongpai: string, version: number) =>
  service.call('PATCH', `/v1/box/${box}`, { body: { zongpai_no: zongpai, version }, token: service.tokens.supervisor });

const boxesOn = async (service: TestService, zongpai: string): Promise<string[]> =>
  ((await service.call('GET', `/v1/zongpai/${zongpai}`)).body.boxes as { box_no: string }[]).map((b) => b.box_no);

describe('ZONGPAI_MIXING=order', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ env: { ZONGPAI_MIXING: 'order' } });
    for (const [box, order] of [
      ['BOX-O1', 'SO-1'],
      ['BOX-O2', 'SO-1'],
      ['BOX-O3', 'SO-2'],
      ['BOX-O4', 'SO-2'],
      ['BOX-O5', 'SO-1'],
    ] as const)
      await planBox(service, box, order);
    await register(service, 'PLT-O1');
    await register(service, 'PLT-O2');
  });
  afterAll(async () => service?.close());

  it('lets boxes of one order share a zongpai, and refuses another order naming both (409 ZONGPAI_MIXES_ORDERS)', async () => {
    expect((await save(service, 'BOX-O1', 'PLT-O1')).status).toBe(201);
    expect((await saveSimple(service, 'BOX-O2', 'PLT-O1')).status).toBe(201);
    const refused = await save(service, 'BOX-O3', 'PLT-O1');
    expectError(refused, 409, 'ZONGPAI_MIXES_ORDERS', 'zongpai');
    expect(refused.body.message).toBe(
      "Zongpai 'PLT-O1' holds boxes of order 'SO-1': box 'BOX-O3' of order 'SO-2' may not join it",
    );
    expectError(await saveSimple(service, 'BOX-O3', 'PLT-O1'), 409, 'ZONGPAI_MIXES_ORDERS');
    const zh = await service.call('POST', '/v1/box/simple', {
      body: { box_no: 'BOX-O3', zongpai_no: 'PLT-O1' },
      headers: { 'accept-language': 'zh' },
    });
    expect(zh.body.message).toContain('SO-1');
    expect(zh.body.message).toContain('SO-2');
    expect(zh.body.message).toMatch(/[\u4e00-\u9fff]/);
    expect(await boxesOn(service, 'PLT-O1')).toEqual(['BOX-O1', 'BOX-O2']);
    // The refused box is not boxed: it can go onto a zongpai of its own order.
    expect((await save(service, 'BOX-O3', 'PLT-O2')).status).toBe(201);
  });

  it('refuses moving a box of another order onto a zongpai (PATCH), and allows moving one of the same order', async () => {
    const refused = await move(service, 'BOX-O3', 'PLT-O1', 1);
    expectError(refused, 409, 'ZONGPAI_MIXES_ORDERS', 'zongpai');
    expect(refused.body.message).toContain("order 'SO-1'");
    expect(await boxesOn(service, 'PLT-O2')).toEqual(['BOX-O3']);
    // Replacing the items of a box (no move) is no join.
    const edited = await service.call('PATCH', '/v1/box/BOX-O3', {
      body: { items: [{ item_code: 'SKU-A', quantity: 4 }], version: 1 },
      token: service.tokens.supervisor,
    });
    expect(edited.status).toBe(200);
    expect((await save(service, 'BOX-O5', 'PLT-O2')).status).toBe(409);
    await register(service, 'PLT-O3');
    expect((await save(service, 'BOX-O5', 'PLT-O3')).status).toBe(201);
    expect((await move(service, 'BOX-O5', 'PLT-O1', 1)).status).toBe(200);
    expect(await boxesOn(service, 'PLT-O1')).toEqual(['BOX-O1', 'BOX-O2', 'BOX-O5']);
  });

  it('takes another order once the zongpai is empty again', async () => {
    await register(service, 'PLT-O4');
    expect((await save(service, 'BOX-O4', 'PLT-O4')).status).toBe(201);
    const undone = await service.call('DELETE', '/v1/box/BOX-O4', {
      body: { version: 1 },
      token: service.tokens.supervisor,
    });
    expect(undone.status).toBe(200);
    await planBox(service, 'BOX-O6', 'SO-3');
    expect((await save(service, 'BOX-O6', 'PLT-O4')).status).toBe(201);
  });

  it('keeps one order on a zongpai when two orders race onto it empty (20 rounds)', async () => {
    for (let round = 1; round <= 20; round += 1) {
      const zongpai = `PLT-RACE-${round}`;
      const [a, b] = [`BOX-RA-${round}`, `BOX-RB-${round}`];
      await planBox(service, a, `SO-RA-${round}`);
      await planBox(service, b, `SO-RB-${round}`);
      await register(service, zongpai);
      const answers = await Promise.all([save(service, a, zongpai), saveSimple(service, b, zongpai)]);
      expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
      expect(answers.find((r) => r.status === 409)?.body.error_code).toBe('ZONGPAI_MIXES_ORDERS');
      expect(await boxesOn(service, zongpai)).toHaveLength(1);
    }
  });
});

describe('ZONGPAI_MIXING=customer', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ env: { ZONGPAI_MIXING: 'customer' } });
    await planBox(service, 'BOX-C1', 'SO-10', 'Acme');
    await planBox(service, 'BOX-C2', 'SO-11', 'Acme');
    await planBox(service, 'BOX-C3', 'SO-12', 'Globex');
    await register(service, 'PLT-C1');
    await register(service, 'PLT-C2');
  });
  afterAll(async () => service?.close());

  it("lets one customer's orders share a zongpai and refuses another customer (409 ZONGPAI_MIXES_CUSTOMERS)", async () => {
    expect((await save(service, 'BOX-C1', 'PLT-C1')).status).toBe(201);
    expect((await saveSimple(service, 'BOX-C2', 'PLT-C1')).status).toBe(201);
    const refused = await save(service, 'BOX-C3', 'PLT-C1');
    expectError(refused, 409, 'ZONGPAI_MIXES_CUSTOMERS', 'zongpai');
    expect(refused.body.message).toBe(
      "Zongpai 'PLT-C1' holds boxes of customer 'Acme': box 'BOX-C3' of customer 'Globex' may not join it",
    );
    expect((await save(service, 'BOX-C3', 'PLT-C2')).status).toBe(201);
    expectError(await move(service, 'BOX-C3', 'PLT-C1', 1), 409, 'ZONGPAI_MIXES_CUSTOMERS');
    expect(await boxesOn(service, 'PLT-C1')).toEqual(['BOX-C1', 'BOX-C2']);
  });

  it('says "no customer" for a box or a zongpai whose boxes have none, in English and Chinese', async () => {
    await planBox(service, 'BOX-CN1', 'SO-20', null);
    await planBox(service, 'BOX-CN2', 'SO-21', 'Acme');
    await register(service, 'PLT-CN1');
    await register(service, 'PLT-CN2');
    expect((await save(service, 'BOX-CN2', 'PLT-CN1')).status).toBe(201);
    const joining = await save(service, 'BOX-CN1', 'PLT-CN1');
    expectError(joining, 409, 'ZONGPAI_MIXES_CUSTOMERS', 'zongpai');
    expect(joining.body.message).toBe(
      "Zongpai 'PLT-CN1' holds boxes of customer 'Acme': box 'BOX-CN1' with no customer may not join it",
    );
    expect((await save(service, 'BOX-CN1', 'PLT-CN2')).status).toBe(201);
    await planBox(service, 'BOX-CN3', 'SO-22', 'Globex');
    const onto = await service.call('POST', '/v1/box/simple', {
      body: { box_no: 'BOX-CN3', zongpai_no: 'PLT-CN2' },
      headers: { 'accept-language': 'zh-CN' },
    });
    expectError(onto, 409, 'ZONGPAI_MIXES_CUSTOMERS', 'zongpai');
    expect(onto.body.message).toBe("总牌 'PLT-CN2'装有无客户的箱：客户 'Globex'的箱 'BOX-CN3'不能加入");
  });

  it('keeps one customer on a zongpai when two customers race onto it empty (20 rounds)', async () => {
    for (let round = 1; round <= 20; round += 1) {
      const zongpai = `PLT-CR-${round}`;
      await planBox(service, `BOX-CA-${round}`, `SO-CA-${round}`, `Customer A ${round}`);
      await planBox(service, `BOX-CB-${round}`, `SO-CB-${round}`, `Customer B ${round}`);
      await register(service, zongpai);
      const answers = await Promise.all([
        save(service, `BOX-CA-${round}`, zongpai),
        save(service, `BOX-CB-${round}`, zongpai),
      ]);
      expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
      expect(await boxesOn(service, zongpai)).toHaveLength(1);
    }
  });
});

describe('ZONGPAI_MIXING=any (the default)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ env: { ZONGPAI_MIXING: '' } });
    await service.stack.db.query(
      `INSERT INTO erp.demo_box_plan (box_no, order_no, customer_name, item_code, item_name, planned_quantity, unit)
       SELECT b.box, b.order_no, b.customer, 'SKU-A', 'Item A', 5, 'pcs' FROM json_to_recordset(:boxes) AS b (box text, order_no text, customer text)`,
      {
        boxes: json([
          { box: 'BOX-A1', order_no: 'SO-20', customer: 'Acme' },
          { box: 'BOX-A2', order_no: 'SO-21', customer: 'Globex' },
          { box: 'BOX-A3', order_no: 'SO-22', customer: 'Initech' },
        ]),
      },
    );
    await register(service, 'PLT-A1');
    await register(service, 'PLT-A2');
  });
  afterAll(async () => service?.close());

  it('mixes orders and customers on one zongpai, by save, one-scan save and move', async () => {
    expect((await save(service, 'BOX-A1', 'PLT-A1')).status).toBe(201);
    expect((await saveSimple(service, 'BOX-A2', 'PLT-A1')).status).toBe(201);
    expect((await save(service, 'BOX-A3', 'PLT-A2')).status).toBe(201);
    expect((await move(service, 'BOX-A3', 'PLT-A1', 1)).status).toBe(200);
    expect(await boxesOn(service, 'PLT-A1')).toEqual(['BOX-A1', 'BOX-A2', 'BOX-A3']);
  });
});
