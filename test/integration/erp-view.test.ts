import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBoxContentView } from '../../lib/db/read-contract.ts';
import { ROLE_NAMES } from '../../lib/db/roles.ts';
import { setUpSchema } from '../../lib/db/setup.ts';
import { expectError } from '../support/assertions.ts';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * The ERP view belongs to ops: while it is missing or unreadable, the routes that read it answer
 * 503 ERP_VIEW_UNAVAILABLE (an operations problem), never 500.
 */
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
  await service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'PLT-ERP-1' } });
});
afterAll(async () => service?.close());

const VIEW = 'erp.v_box_info';
const COLUMNS = 'box_no, order_no, customer_name, item_code, item_name, planned_quantity, unit';
/** Ops drop their view as PostgreSQL makes them: with the service's read-contract view that reads it. */
const dropView = () => service.stack.db.query(`DROP VIEW ${VIEW} CASCADE`);
/** What the next deployment does: grants the service's users the ERP view and recreates the read-contract view over it. */
const deploy = () =>
  setUpSchema({ master: service.stack.db, owner: service.stack.owner, names: ROLE_NAMES, erpBoxView: VIEW });
/** The view back, as ops make it, and the next deployment. */
const restoreView = async () => {
  await service.stack.db.query(`CREATE OR REPLACE VIEW ${VIEW} AS SELECT ${COLUMNS} FROM erp.demo_box_plan`);
  await deploy();
};

describe('the ERP view missing or unreadable', () => {
  beforeAll(async () => {
    for (const statement of [
      `CREATE OR REPLACE FUNCTION erp.qa_raise(n integer) RETURNS integer LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'ERP plan offline'; END $$`,
      `CREATE OR REPLACE FUNCTION erp.qa_assert(n integer) RETURNS integer LANGUAGE plpgsql AS $$ BEGIN ASSERT n < 0, 'no plan'; RETURN n; END $$`,
      `CREATE OR REPLACE FUNCTION erp.qa_recurse(n integer) RETURNS integer LANGUAGE plpgsql AS $$ BEGIN RETURN erp.qa_recurse(n + 1); END $$`,
    ])
      await service.stack.db.query(statement);
  });

  it('answers box info with 503 ERP_VIEW_UNAVAILABLE and a Retry-After while the view is missing, in English and Chinese', async () => {
    await dropView();
    try {
      const en = await service.call('GET', '/v1/box/info?box_no=BOX-1001');
      const zh = await service.call('GET', '/v1/box/info?box_no=BOX-1001', { headers: { 'accept-language': 'zh-CN' } });
      expectError(en, 503, 'ERP_VIEW_UNAVAILABLE', 'system');
      expect(en.headers.get('retry-after'), 'every 503 carries Retry-After').toBe('60');
      expect(en.body.message).toBe('The ERP view of box plans is missing or unreadable; ask operations to check it');
      expect(en.body.message).not.toContain('v_box_info');
      expect(zh.body.message).toBe('ERP 装箱计划视图缺失或不可读，请联系运维检查');
    } finally {
      await restoreView();
    }
  });

  it('answers a simplified save with 503 ERP_VIEW_UNAVAILABLE and stores nothing while the view is missing', async () => {
    await dropView();
    try {
      const res = await service.call('POST', '/v1/box/simple', {
        body: { box_no: 'BOX-1004', zongpai_no: 'PLT-ERP-1' },
      });
      expectError(res, 503, 'ERP_VIEW_UNAVAILABLE', 'system');
    } finally {
      await restoreView();
    }
    const zongpai = await service.call('GET', '/v1/zongpai/PLT-ERP-1');
    expect(zongpai.body.box_count).toBe(0);
  });

  it('answers 503 ERP_VIEW_UNAVAILABLE when the view lacks a column the service reads', async () => {
    await dropView();
    await service.stack.db.query(
      `CREATE VIEW ${VIEW} AS SELECT box_no, order_no, customer_name, item_code, item_name, planned_quantity FROM erp.demo_box_plan`,
    );
    try {
      const res = await service.call('GET', '/v1/box/info?box_no=BOX-1001');
      expectError(res, 503, 'ERP_VIEW_UNAVAILABLE', 'system');
    } finally {
      await dropView();
      await restoreView();
    }
  });

  it.each([
    ['divides by zero when read', 'planned_quantity / (planned_quantity - planned_quantity) AS planned_quantity'],
    ['casts a text column that does not hold numbers', "(item_code || 'x')::integer AS planned_quantity"],
    ['holds a boolean planned_quantity', 'planned_quantity > 0 AS planned_quantity'],
    // An ERP's own functions in the view: one that raises (P0001), one that asserts (P0004).
    ['raises an error in a function of the ERP', 'erp.qa_raise(planned_quantity) AS planned_quantity'],
    ['fails an assertion in a function of the ERP', 'erp.qa_assert(planned_quantity) AS planned_quantity'],
    ...(process.env.TEST_BACKEND === 'postgres'
      ? [['recurses without end', 'erp.qa_recurse(planned_quantity) AS planned_quantity']]
      : []),
  ])(
    'answers 503 ERP_VIEW_UNAVAILABLE, never 500, for a view that %s: box info, a simple save, an order',
    async (_what, plannedQuantity) => {
      await dropView();
      await service.stack.db.query(
        `CREATE VIEW ${VIEW} AS SELECT box_no, order_no, customer_name, item_code, item_name, ${plannedQuantity}, unit FROM erp.demo_box_plan`,
      );
      await deploy();
      try {
        expectError(await service.call('GET', '/v1/box/info?box_no=BOX-1001'), 503, 'ERP_VIEW_UNAVAILABLE', 'system');
        expectError(
          await service.call('POST', '/v1/box/simple', { body: { box_no: 'BOX-1001', zongpai_no: 'PLT-ERP-1' } }),
          503,
          'ERP_VIEW_UNAVAILABLE',
        );
        expectError(await service.call('GET', '/v1/orders/SO-24001'), 503, 'ERP_VIEW_UNAVAILABLE');
      } finally {
        await dropView();
        await restoreView();
      }
    },
  );

  it('leaves the read-contract view out, without failing, while the ERP view lacks a column (a start or deployment goes on)', async () => {
    await dropView();
    await service.stack.db.query(
      `CREATE VIEW ${VIEW} AS SELECT box_no, order_no, customer_name, item_code, item_name, planned_quantity FROM erp.demo_box_plan`,
    );
    try {
      expect((await deploy()).boxContent).toBe('view unreadable');
      expectError(await service.call('GET', '/v1/box/info?box_no=BOX-1001'), 503, 'ERP_VIEW_UNAVAILABLE');
      // The location routes never read the ERP view: they go on answering.
      expect(
        (await service.call('POST', '/v1/cargo/location', { body: { cargo_no: 'BOX-1001', location_code: 'A-01' } }))
          .status,
      ).toBe(201);
    } finally {
      await dropView();
      await restoreView();
    }
    expect((await deploy()).boxContent).toBe('created');
    expect(await ensureBoxContentView(service.stack.owner, 'erp.v_missing_for_test')).toBe('view missing');
  });

  it('answers box info again once the view is back', async () => {
    const res = await service.call('GET', '/v1/box/info?box_no=BOX-1001');
    expect(res.status).toBe(200);
    expect(res.body.box_no).toBe('BOX-1001');
  });
});
