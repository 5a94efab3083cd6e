import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * Aurora's databases sort text by a language's rules by default (`en_US.UTF-8`), the local
 * runtime's by bytes. Codes are compared and listed byte by byte in both: on PostgreSQL this file
 * runs on a database whose default collation is ICU `en-US`, where `sku-b` sorts before `Sku-c`.
 */
let service: TestService;
beforeAll(async () => {
  service = await startTestService({ linguistic: true });
});
afterAll(async () => service?.close());

/** Item codes whose byte order (upper case first) is not their order in English. */
const ITEMS = { 'sku-b': 1, 'SKU-A': 2, 'Sku-c': 3 };
const BYTE_ORDER = ['SKU-A', 'Sku-c', 'sku-b'];
const codes = (items: { item_code: string }[]) => items.map((i) => i.item_code);

describe('codes in byte order, whatever the database sorts text by', () => {
  it('keeps every code column of the service but the history\'s in the "C" collation', async () => {
    const { rows } = await service.stack.db.query<{ column: string; collation: string | null }>(
      `SELECT (table_name || '.' || column_name)::text AS column, collation_name::text AS collation
       FROM information_schema.columns
       WHERE table_schema = 'cargo' AND column_name IN ('cargo_no', 'location_code', 'box_no', 'zongpai_no', 'item_code')
         AND table_name IN ('location_record', 'location_current', 'box', 'box_item', 'box_event', 'zongpai', 'zongpai_reopening')
       ORDER BY 1`,
      {},
    );
    expect(rows).toEqual(
      [
        'box.box_no',
        'box.zongpai_no',
        'box_event.box_no',
        'box_event.zongpai_no',
        'box_item.box_no',
        'box_item.item_code',
        'location_current.cargo_no',
        'location_current.location_code',
        // Read only by equal codes: no index of a year's history is rebuilt for it (migration 015).
        'location_record.cargo_no',
        'location_record.location_code',
        'zongpai.zongpai_no',
        'zongpai_reopening.zongpai_no',
      ].map((column) => ({ column, collation: column.startsWith('location_record.') ? null : 'C' })),
    );
  });

  it('keeps the location register’s codes (location and zone) in the "C" collation', async () => {
    const { rows } = await service.stack.db.query<{ column: string; collation: string | null }>(
      `SELECT column_name::text AS column, collation_name::text AS collation
       FROM information_schema.columns
       WHERE table_schema = 'cargo' AND table_name = 'location' AND column_name IN ('location_code', 'zone')
       ORDER BY 1`,
      {},
    );
    expect(rows).toEqual([
      { column: 'location_code', collation: 'C' },
      { column: 'zone', collation: 'C' },
    ]);
  });

  it('lists a box’s items by the bytes of their codes in box info, the save, its history, the packing list and the order', async () => {
    await service.plan('BOX-COL1', ITEMS, 'SO-COLLATE');
    const info = await service.call('GET', '/v1/box/info?box_no=BOX-COL1');
    expect(info.status).toBe(200);
    expect(codes(info.body.items)).toEqual(BYTE_ORDER);

    expect((await service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'PLT-COL1' } })).status).toBe(201);
    const saved = await service.saveBox('BOX-COL1', 'PLT-COL1', ITEMS);
    expect(saved.status).toBe(201);
    expect(codes(saved.body.items)).toEqual(BYTE_ORDER);

    const history = await service.call('GET', '/v1/box/BOX-COL1/history');
    expect(history.status).toBe(200);
    expect(codes(history.body.events[0].items)).toEqual(BYTE_ORDER);

    const packing = await service.call('GET', '/v1/zongpai/PLT-COL1/packing-list');
    expect(packing.status).toBe(200);
    expect(codes(packing.body.boxes[0].items)).toEqual(BYTE_ORDER);
    expect(codes(packing.body.totals)).toEqual(BYTE_ORDER);

    const order = await service.call('GET', '/v1/orders/SO-COLLATE');
    expect(order.status).toBe(200);
    expect(codes(order.body.boxes[0].items)).toEqual(BYTE_ORDER);
  });
});
