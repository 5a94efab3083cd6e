import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { startTestService, type TestService } from '../support/service.ts';

/** ENFORCE_ERP_PLAN=false: the plan describes the box, but what was really boxed is saved as it is. */
let service: TestService;
beforeAll(async () => {
  service = await startTestService({ env: { ENFORCE_ERP_PLAN: 'false' } });
  await service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'PLT-FREE' } });
});
afterAll(async () => service?.close());

describe('with the ERP plan not enforced', () => {
  it('saves unplanned items and quantities above the plan, and shows them beside the plan', async () => {
    const res = await service.saveBox('BOX-1004', 'PLT-FREE', { 'SKU-LAMP-01': 9, 'SKU-EXTRA': 1 });
    expect(res.status).toBe(201);
    const info = await service.call('GET', '/v1/box/info?box_no=BOX-1004');
    expect(
      info.body.items.map((i: Record<string, unknown>) => [i.item_code, i.planned_quantity, i.boxed_quantity]),
    ).toEqual([
      ['SKU-EXTRA', 0, 1],
      ['SKU-LAMP-01', 4, 9],
    ]);
  });

  it('still refuses a box the ERP does not know', async () => {
    expectError(await service.saveBox('BOX-UNKNOWN', 'PLT-FREE', { 'SKU-A': 1 }), 404, 'BOX_NOT_FOUND');
  });
});
