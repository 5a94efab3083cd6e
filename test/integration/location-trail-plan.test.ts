import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlParams } from '../../lib/db/types.ts';
import { TRAIL_SQL } from '../../lib/location/locations.ts';
import { historyLayout, keepCurrentLocations, monthsAgo, partitionOf } from '../support/history.ts';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * A page of a cargo's history reads its newest months and stops once the page is full: at a
 * year's scale each month it reads is an index descent outside the cache (docs/PERFORMANCE.md §4).
 * The history here: twelve past months, this one and two ahead (empty), 8 scans a month for each
 * of 500 cargo, the statistics taken, as the maintenance leaves a warehouse's.
 */
let service: TestService;
const MONTHS = 12;

beforeAll(async () => {
  service = await startTestService();
  await historyLayout(service.stack.owner, MONTHS);
  await service.stack.owner.query(
    `INSERT INTO cargo.location_record (cargo_no, location_code, off_shelf, scanned_at, occurred_at, recorded_by, device_id)
     SELECT 'BOX-P' || lpad((n % 500)::text, 4, '0'), 'LOC-' || (n % 40), false, at, at, 'planner', 'PDA-01'
     FROM generate_series(1, :n) AS n, LATERAL (SELECT now() - (n * interval '1 second' * (86400 * 30 * :months / :n))) AS t (at)`,
    { n: 500 * 8 * MONTHS, months: MONTHS },
  );
  await keepCurrentLocations(service.stack.owner);
  await service.stack.owner.query('ANALYZE cargo.location_record');
}, 120_000);
afterAll(async () => service?.close());

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

/** The history partitions a statement's EXPLAIN ANALYZE shows as scanned (not "never executed"), with how. */
const scansRun = async (params: SqlParams): Promise<PlanNode[]> => {
  const { rows } = await service.stack.owner.query<{ 'QUERY PLAN': unknown }>(
    // Without costs and timings: the week walk's plan lists every partition's probe, and the
    // Data API answers a row of at most 64 KB.
    `EXPLAIN (ANALYZE, BUFFERS OFF, COSTS OFF, TIMING OFF, FORMAT JSON) ${TRAIL_SQL}`,
    params,
  );
  const raw = rows[0]?.['QUERY PLAN'];
  const [root] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
  const read: PlanNode[] = [];
  const walk = (node: PlanNode) => {
    if (node['Relation Name']?.startsWith('location_record_') === true && (node['Actual Loops'] ?? 0) > 0)
      read.push(node);
    node.Plans?.forEach(walk);
  };
  walk(root.Plan);
  return read;
};

/** The history partitions a statement's EXPLAIN ANALYZE shows as scanned. */
const monthsRead = async (params: SqlParams): Promise<string[]> =>
  (await scansRun(params)).map((node) => node['Relation Name'] as string);

describe("a cargo's history page", () => {
  it('reads the newest months only, as many as hold its page, not all twelve', async () => {
    const read = new Set(await monthsRead({ cargo_no: 'BOX-P0007', before_at: null, before_id: null, fetch: 21 }));
    // 21 scans at 8 a month: three months, and the empty ones ahead, which are newer.
    expect(read.size).toBeGreaterThanOrEqual(3);
    expect(read.size).toBeLessThanOrEqual(7);
  });

  it('answers the page from those months, newest first', async () => {
    const res = await service.call('GET', '/v1/cargo/location/BOX-P0007?limit=20');
    expect(res.status).toBe(200);
    expect(res.body.history).toHaveLength(20);
    const times = (res.body.history as { scanned_at: string }[]).map((h) => h.scanned_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('reads the late scans older than every month by the cargo, not all of them', async () => {
    // 20 000 late scans of 2 000 other cargo from before the oldest month (location_record_before),
    // and two of one box, whose months hold nothing: its page is what that table holds of it.
    await service.stack.owner.query(
      `INSERT INTO cargo.location_record (cargo_no, location_code, off_shelf, scanned_at, occurred_at, recorded_by, device_id)
       SELECT CASE WHEN n <= 2 THEN 'BOX-LATE' ELSE 'BOX-L' || lpad((n % 2000)::text, 4, '0') END, 'LOC-' || (n % 40), false, at, at, 'planner', 'PDA-01'
       FROM generate_series(1, 20000) AS n, LATERAL (SELECT (:oldest)::timestamptz - interval '1 day' - n * interval '1 minute') AS t (at)`,
      { oldest: monthsAgo(MONTHS, 1) },
    );
    await keepCurrentLocations(service.stack.owner);
    await service.stack.owner.query('ANALYZE cargo.location_record_before');
    const scans = await scansRun({ cargo_no: 'BOX-LATE', before_at: null, before_id: null, fetch: 21 });
    const late = scans.filter((node) => node['Relation Name'] === 'location_record_before');
    // By its own index keyed by cargo: the trail index, keyed by week first, is read whole without
    // a skip scan (PostgreSQL before 18, Aurora's), one search per week with it.
    expect(late.map((node) => [node['Node Type'], node['Index Name']])).toEqual([
      [expect.stringMatching(/^Index (Only )?Scan$/), 'location_record_before_cargo_idx'],
    ]);
    const res = await service.call('GET', '/v1/cargo/location/BOX-LATE?limit=20');
    expect(res.status).toBe(200);
    expect(res.body.history).toHaveLength(2);
  });

  it('walks no week for a cargo never scanned', async () => {
    expect(await scansRun({ cargo_no: 'BOX-NEVER', before_at: null, before_id: null, fetch: 21 })).toEqual([]);
  });

  it('walks only the weeks of a box scanned for a few days long ago, not every week since', async () => {
    // Three scans over two days, six months ago (a box that left long since).
    await service.call('POST', '/v1/cargo/location', {
      body: {
        records: [10, 11, 12].map((day, i) => ({
          cargo_no: 'BOX-SHORT',
          location_code: `LOC-${i}`,
          scanned_at: monthsAgo(6, day),
        })),
      },
    });
    const scans = await scansRun({ cargo_no: 'BOX-SHORT', before_at: null, before_id: null, fetch: 21 });
    // One index descent a week: the scans' one or two weeks, not the 26 down from now.
    const descents = scans.reduce((n, node) => n + (node['Actual Loops'] ?? 0), 0);
    expect(descents).toBeGreaterThanOrEqual(1);
    expect(descents).toBeLessThanOrEqual(2);
    expect(new Set(scans.map((node) => node['Relation Name']))).toEqual(new Set([partitionOf(monthsAgo(6, 10))]));
    const res = await service.call('GET', '/v1/cargo/location/BOX-SHORT?limit=20');
    expect(res.body.history.map((h: { location_code: string }) => h.location_code)).toEqual([
      'LOC-2',
      'LOC-1',
      'LOC-0',
    ]);
  });
});
