import { createPgliteBackend } from '../../local/data-api/pglite-backend.ts';
import { createPostgresBackend } from '../../local/data-api/postgres-backend.ts';
import type { SqlBackend } from '../../local/data-api/backend.ts';
import { json } from '../../lib/db/types.ts';
import { dropDatabase, recreateDatabase } from '../support/database.ts';
import { startBenchService, type BenchResponse, type BenchService } from '../support/service.ts';
import type { BenchSettings } from '../support/settings.ts';
import { roundTripWalk, WALK_PLAN, type KeyUse } from './scenarios.ts';

export interface RoundTripRow {
  readonly route: string;
  readonly endpoint: string;
  readonly case: string;
  readonly key: KeyUse;
  readonly status: number;
  readonly expectedStatus: number;
  /** Every Data API call the request caused (ExecuteStatement, transactions, batches). */
  readonly calls: number;
  /** What a request of this kind should cost: 1 statement, or 0 when it never reaches the database. */
  readonly expectedCalls: number;
}

export interface RaceResult {
  readonly pairs: number;
  /** Data API calls per racing pair (two identical keyed requests sent at once) → how many pairs. */
  readonly callsPerPair: Record<string, number>;
  /** Both requests of every pair got the same status and body. */
  readonly sameAnswers: boolean;
}

export interface RoundTripResult {
  readonly backend: 'postgres' | 'pglite';
  readonly rows: readonly RoundTripRow[];
  readonly race: RaceResult;
  readonly uncoveredRoutes: readonly string[];
  readonly met: boolean;
}

const dataApiCalls = (service: BenchService): number =>
  Object.values(service.stack.dataApi.counters()).reduce((sum, n) => sum + n, 0);

/** Backend for the walk: a throwaway PostgreSQL database when the server answers (real races), else PGlite. */
const walkBackend = async (
  settings: BenchSettings,
): Promise<{ backend: SqlBackend; kind: 'postgres' | 'pglite'; drop: () => Promise<void> }> => {
  const name = `${settings.database}_rt`;
  try {
    const url = await recreateDatabase(settings.adminUrl, name);
    return {
      backend: await createPostgresBackend({ connectionString: url }),
      kind: 'postgres',
      drop: () => dropDatabase(settings.adminUrl, name),
    };
  } catch (error) {
    process.stderr.write(
      `round trips: PostgreSQL unavailable (${(error as Error).message}); using PGlite, where racing requests cannot overlap\n`,
    );
    return { backend: await createPgliteBackend(), kind: 'pglite', drop: async () => undefined };
  }
};

/** Two identical keyed backlogs at once, `pairs` times, counting the Data API calls of each pair. */
const race = async (service: BenchService, prefix: string, pairs: number): Promise<RaceResult> => {
  const callsPerPair: Record<string, number> = {};
  let sameAnswers = true;
  for (let pair = 0; pair < pairs; pair += 1) {
    const body = {
      records: Array.from({ length: 100 }, (_, i) => ({ cargo_no: `RACE-${pair}-${i % 10}`, location_code: 'R-01' })),
    };
    const request = {
      method: 'POST' as const,
      path: `/v1/${prefix}/location`,
      body,
      headers: { 'idempotency-key': `race-${pair}` },
    };
    service.stack.dataApi.resetCounters();
    const [a, b] = await Promise.all([service.call(request), service.call(request)]);
    const calls = String(dataApiCalls(service));
    callsPerPair[calls] = (callsPerPair[calls] ?? 0) + 1;
    if (a.status !== 201 || a.status !== b.status || JSON.stringify(a.body) !== JSON.stringify(b.body))
      sameAnswers = false;
  }
  return { pairs, callsPerPair, sameAnswers };
};

/**
 * Walks every route through the local stack, one request at a time, and reads the Data API
 * emulator's counters around each request.
 *
 * @example
 * ```ts
 * const result = await runRoundTrips(readBenchSettings());
 * ```
 */
export const runRoundTrips = async (settings: BenchSettings): Promise<RoundTripResult> => {
  const { backend, kind, drop } = await walkBackend(settings);
  const service = await startBenchService(backend);
  try {
    for (const [box, items] of Object.entries(WALK_PLAN)) {
      await service.stack.db.query(
        `INSERT INTO erp.demo_box_plan (box_no, order_no, customer_name, item_code, item_name, planned_quantity, unit)
         SELECT :box_no, 'SO-RT', 'Bench', i.key, 'Item ' || i.key, i.value::integer, 'pcs' FROM json_each_text(:items) AS i`,
        { box_no: box, items: json(items) },
      );
    }
    const endpoints = new Map(service.stack.routes.map((r) => [r.id, `${r.method} ${r.path}`]));
    const rows: RoundTripRow[] = [];
    let previous: BenchResponse | undefined;
    for (const step of roundTripWalk(process.env.SERVICE_PREFIX ?? 'cargo')) {
      const request = typeof step.request === 'function' ? step.request(previous) : step.request;
      service.stack.dataApi.resetCounters();
      const response = await service.call(request);
      const calls = dataApiCalls(service);
      previous = response;
      const reachesDatabase = step.route !== 'OpenApi' && step.status !== 400;
      rows.push({
        route: step.route,
        endpoint: endpoints.get(step.route) ?? step.route,
        case: step.case,
        key: step.key,
        status: response.status,
        expectedStatus: step.status,
        calls,
        expectedCalls: reachesDatabase ? 1 : 0,
      });
    }
    const raced = await race(service, process.env.SERVICE_PREFIX ?? 'cargo', kind === 'postgres' ? 10 : 3);
    const covered = new Set(rows.map((r) => r.route));
    const uncoveredRoutes = service.stack.routes.map((r) => r.id).filter((id) => !covered.has(id));
    const met =
      uncoveredRoutes.length === 0 && rows.every((r) => r.status === r.expectedStatus && r.calls === r.expectedCalls);
    return { backend: kind, rows, race: raced, uncoveredRoutes, met };
  } finally {
    await service.close();
    await drop();
  }
};
