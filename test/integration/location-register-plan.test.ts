import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, type SqlParams } from '../../lib/db/types.ts';
import { compileWrite } from '../../lib/db/write.ts';
import { importStatement } from '../../lib/location-register/register.ts';
import { recordStatement } from '../../lib/location/locations.ts';
import { transferStatement } from '../../lib/location/transfer.ts';
import { registerStatement } from '../../lib/zongpai/register.ts';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * The location register's cross-checks of a scan, an import, a transfer and a zongpai's
 * registration (its number neither a box of the plan nor a location) are index probes:
 * with a warehouse's register, zongpais, boxes, current locations and ERP plan (20 000 each,
 * their statistics taken), no statement reads any of them whole.
 */
let service: TestService;
const N = 20_000;
const VIEW = 'erp.v_box_info';

beforeAll(async () => {
  service = await startTestService();
  const db = service.stack.owner;
  await db.query(
    `INSERT INTO cargo.location (location_code, kind, registered_by, changed_by)
     SELECT 'PL-' || lpad(n::text, 5, '0'), 'SHELF', 'planner', 'planner' FROM generate_series(1, :n) n`,
    { n: N },
  );
  await db.query(
    `INSERT INTO cargo.zongpai (zongpai_no, created_by) SELECT 'PLT-PL' || lpad(n::text, 5, '0'), 'planner' FROM generate_series(1, :n) n`,
    { n: N },
  );
  await db.query(
    `INSERT INTO cargo.box (box_no, status, zongpai_no, zongpai_since, version, total_quantity, saved_at, saved_by)
     SELECT 'BOX-PL' || lpad(n::text, 5, '0'), 'BOXED', 'PLT-PL00001', now(), 1, 1, now(), 'planner' FROM generate_series(1, :n) n`,
    { n: N },
  );
  await service.stack.db.query(
    `INSERT INTO erp.demo_box_plan (box_no, order_no, customer_name, item_code, item_name, planned_quantity, unit)
     SELECT 'BOX-ERP' || lpad(n::text, 5, '0'), 'SO-PL', 'Planner', 'SKU-A', 'A', 1, 'pcs' FROM generate_series(1, :n) n`,
    { n: N },
  );
  await db.query(
    `INSERT INTO cargo.location_current (cargo_no, record_id, location_code, off_shelf, scanned_at, recorded_at, occurred_at, recorded_by, device_id)
     SELECT 'BOX-PL' || lpad(n::text, 5, '0'), n, 'PL-' || lpad((n % 2000)::text, 5, '0'), false, NULL, now(), now(), 'planner', NULL
     FROM generate_series(1, :n) n`,
    { n: N },
  );
  for (const table of ['cargo.location', 'cargo.zongpai', 'cargo.box', 'cargo.location_current'])
    await db.query(`ANALYZE ${table}`);
  await service.stack.db.query('ANALYZE erp.demo_box_plan');
}, 120_000);
afterAll(async () => service?.close());

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

const READ_WHOLE = new Set(['location', 'zongpai', 'box', 'demo_box_plan', 'location_current']);

/** The tables of the register's checks a statement's plan reads whole (a sequential scan). */
const readWhole = async (sql: string, params: SqlParams): Promise<string[]> => {
  const { rows } = await service.stack.db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  const raw = rows[0]?.['QUERY PLAN'];
  const [root] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
  const whole: string[] = [];
  const walk = (node: PlanNode) => {
    if (node['Node Type'] === 'Seq Scan' && READ_WHOLE.has(node['Relation Name'] ?? ''))
      whole.push(node['Relation Name'] ?? '');
    node.Plans?.forEach(walk);
  };
  walk(root.Plan);
  return whole;
};

const codes = (prefix: string) => Array.from({ length: 500 }, (_, i) => `${prefix}-${String(i).padStart(3, '0')}`);

describe('the location register’s checks', () => {
  it('probe the register, the zongpais, the boxes and the ERP plan by index for a backlog of 500 scans', async () => {
    const scans = codes('TOTE').map((cargo_no, i) => ({
      cargo_no,
      location_code: `PL-${String(i + 1).padStart(5, '0')}`,
      off_shelf: null,
      scanned_at: null,
      device_id: null,
    }));
    expect(
      await readWhole(compileWrite(recordStatement(VIEW)).plain, {
        scans: json(scans),
        recorded_by: 'planner',
        registered_only: true,
      }),
    ).toEqual([]);
  });

  it('probe them by index for an import of 500 locations', async () => {
    const locations = codes('IMPORT').map((location_code) => ({
      location_code,
      kind: 'SHELF',
      zone: null,
      description: null,
      blocked: false,
    }));
    expect(
      await readWhole(compileWrite(importStatement(VIEW)).plain, { locations: json(locations), actor: 'planner' }),
    ).toEqual([]);
  });

  it('probe them by index for a transfer', async () => {
    expect(
      await readWhole(compileWrite(transferStatement(VIEW)).plain, {
        from_location_code: 'PL-00001',
        to_location_code: 'PL-00002',
        recorded_by: 'planner',
        registered_only: true,
      }),
    ).toEqual([]);
  });

  it('probe the ERP plan and the register by index for a zongpai registration, by its number or the next SSCC', async () => {
    for (const sscc of [false, true])
      expect(
        await readWhole(compileWrite(registerStatement(VIEW)).plain, {
          sscc,
          zongpai_no: 'PLT-NEW-1',
          sscc_extension: '0',
          sscc_prefix: '0614141',
          serial_max: 999_999_999,
          actor: 'planner',
        }),
      ).toEqual([]);
  });
});
