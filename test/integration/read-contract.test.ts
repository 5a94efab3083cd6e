import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minutesAgo, startTestService, type TestService } from '../support/service.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.close());

const ok = async (res: Promise<{ status: number }>, status: number) => expect((await res).status).toBe(status);

describe('the read contract in the database', () => {
  it('cargo.box_content has one row per item of every boxed box, with its order, customer and zongpai', async () => {
    await ok(service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'PLT-V001' } }), 201);
    await ok(service.saveBox('BOX-1001', 'PLT-V001', { 'SKU-TEA-250': 24, 'SKU-CUP-06': 5 }), 201);
    const { rows } = await service.stack.db.query(
      `SELECT box_no, order_no, customer_name, zongpai_no, zongpai_status, version, item_code, item_name, unit, quantity, saved_by
       FROM cargo.box_content WHERE box_no = 'BOX-1001' ORDER BY item_code`,
    );
    const box = {
      box_no: 'BOX-1001',
      order_no: 'SO-24001',
      customer_name: 'Shanghai Lianhua Trading',
      zongpai_no: 'PLT-V001',
      zongpai_status: 'OPEN',
      version: 1,
      saved_by: 'olga',
    };
    expect(rows).toEqual([
      { ...box, item_code: 'SKU-CUP-06', item_name: 'Porcelain cup set (6)', unit: 'set', quantity: 5 },
      { ...box, item_code: 'SKU-TEA-250', item_name: 'Green tea 250 g', unit: 'tin', quantity: 24 },
    ]);
    const undone = await service.call('DELETE', '/v1/box/BOX-1001', {
      token: service.tokens.supervisor,
      body: { version: 1 },
    });
    expect(undone.status).toBe(200);
    expect(
      (await service.stack.db.query("SELECT 1 AS one FROM cargo.box_content WHERE box_no = 'BOX-1001'")).rows,
    ).toEqual([]);
  });

  it("cargo.cargo_location says where every cargo is now, a box on a zongpai by the newer of its own and its zongpai's scan", async () => {
    await ok(service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'PLT-V002' } }), 201);
    await ok(service.call('POST', '/v1/box/simple', { body: { box_no: 'BOX-1004', zongpai_no: 'PLT-V002' } }), 201);
    await ok(
      service.call('POST', '/v1/cargo/location', {
        body: { cargo_no: 'BOX-1004', location_code: 'A-01', scanned_at: minutesAgo(1) },
      }),
      201,
    );
    await ok(
      service.call('POST', '/v1/cargo/location', {
        body: { cargo_no: 'PLT-V002', location_code: 'DOCK-2', off_shelf: true },
      }),
      201,
    );
    const read = async (cargoNo: string) =>
      (
        await service.stack.db.query(
          'SELECT cargo_no, location_code, off_shelf, via, zongpai_no FROM cargo.cargo_location WHERE cargo_no = :c',
          { c: cargoNo },
        )
      ).rows;
    expect(await read('BOX-1004')).toEqual([
      { cargo_no: 'BOX-1004', location_code: 'DOCK-2', off_shelf: true, via: 'ZONGPAI', zongpai_no: 'PLT-V002' },
    ]);
    expect(await read('PLT-V002')).toEqual([
      { cargo_no: 'PLT-V002', location_code: 'DOCK-2', off_shelf: true, via: 'ZONGPAI', zongpai_no: 'PLT-V002' },
    ]);
    await ok(
      service.call('POST', '/v1/cargo/location', { body: { cargo_no: 'BOX-1004', location_code: 'B-07' } }),
      201,
    );
    expect(await read('BOX-1004')).toEqual([
      { cargo_no: 'BOX-1004', location_code: 'B-07', off_shelf: false, via: 'BOX', zongpai_no: null },
    ]);
    const api = await service.call('GET', '/v1/cargo/location/BOX-1004');
    expect(api.body.current).toEqual(expect.objectContaining({ location_code: 'B-07', via: 'BOX' }));
  });
});
