import pg from 'pg';
import { createPostgresBackend } from '../../local/data-api/postgres-backend.ts';
import type { QueryValues } from '../../local/data-api/backend.ts';
import { encodeCursor } from '../../lib/location/cursor.ts';
import { dropDatabase, recreateDatabase, serverFacts } from '../support/database.ts';
import { startBenchService } from '../support/service.ts';
import type { BenchSettings } from '../support/settings.ts';
import { summarize, type Summary } from '../support/stats.ts';
import { timedBackend, type TimedStatement } from '../support/timed-backend.ts';
import { commitFloor } from './commit-floor.ts';
import { cargoNo, dataset, type Dataset } from './dataset.ts';
import { measureOutboxCost, type OutboxCost } from './outbox-cost.ts';
import {
  measureRegisterCost,
  measureRegisterCpu,
  registerCostMet,
  type RegisterCost,
  type RegisterCpu,
} from './register-cost.ts';
import { indexesUsed, renderPlan, seqScans, type ExplainOutput } from './plans.ts';
import { seed, type SeedReport } from './seed.ts';
import { scenarios, TARGET_MS, WARMUP, workPlans, type ScenarioClass } from './workload.ts';

export interface ScenarioResult {
  readonly name: string;
  readonly route: string;
  readonly class: ScenarioClass;
  readonly targetMs: number;
  /** Through the emulated gateway: HTTP, handler, SDK, Data API emulator, PostgreSQL. */
  readonly endToEnd: Summary;
  /** The request's SQL statement where it meets PostgreSQL (server work plus a loopback round trip). */
  readonly statement: Summary;
  /** The five slowest statement times, to tell one stall from a slow statement. */
  readonly slowest: readonly number[];
  /** Service statements per request (1 by design). */
  readonly statementsPerRequest: number;
  readonly explain: {
    planningMs: number;
    executionMs: number;
    plan: string[];
    indexes: string[];
    seqScans: string[];
    sql: string;
  } | null;
  readonly unexpectedStatuses: readonly string[];
  readonly met: boolean;
}

export interface SqlResult {
  readonly server: Record<string, string>;
  readonly dataset: Dataset;
  readonly seed: SeedReport;
  /** Tables a sequential scan on counts as a finding (at least BIG_TABLE_ROWS rows). */
  readonly bigTables: readonly string[];
  /**
   * The cheapest durable write on this server: a one-row INSERT committed on its own, timed
   * like the statements, before and after the scenarios. Every write's time includes this.
   */
  readonly commitFloor: { readonly before: Summary; readonly after: Summary };
  readonly scenarios: readonly ScenarioResult[];
  /** The 500-record backlog and the 500-item save with their outbox CTEs and without, in turns, after the scenarios. */
  readonly outboxCost: readonly OutboxCost[];
  /** A scan and a backlog of 500 with the location register's checks and without, in turns, after the outbox's cost. */
  readonly registerCost: readonly RegisterCost[];
  /** The same by the server backend's CPU time per statement, over a direct connection (none for a server elsewhere). */
  readonly registerCpu?: readonly RegisterCpu[];
  readonly met: boolean;
}

const log = (line: string) => process.stderr.write(`sql: ${line}\n`);

/** EXPLAIN (ANALYZE, BUFFERS) of a statement on its own connection, rolled back: its effects never happen. */
const explain = async (client: pg.Client, text: string, values: QueryValues): Promise<ExplainOutput> => {
  await client.query('BEGIN');
  try {
    const { rows } = await client.query<{ 'QUERY PLAN': ExplainOutput[] }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`,
      [...values],
    );
    return rows[0]?.['QUERY PLAN'][0] as ExplainOutput;
  } finally {
    await client.query('ROLLBACK');
  }
};

/** A table this big is never to be read sequentially by a request. */
const BIG_TABLE_ROWS = 10_000;

const tablesOver = async (client: pg.Client, rows: number): Promise<string[]> =>
  (
    await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname IN ('cargo', 'erp') AND c.relkind = 'r' AND c.reltuples >= $1 ORDER BY 1`,
      [rows],
    )
  ).rows.map((r) => r.name);

/** Cursors to the second page (limit 5) of some boxes' history, as the service would hand them out. */
const cursorsFor = async (
  client: pg.Client,
  d: Dataset,
  count: number,
): Promise<{ cargo: string; cursor: string }[]> => {
  const cargos = Array.from({ length: count }, (_, i) => cargoNo(d, 1 + ((i * 104_729) % d.cargo)));
  const { rows } = await client.query<{ cargo_no: string; at: string; id: string }>(
    `SELECT c.cargo_no, to_char(p.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at, p.id::text AS id
     FROM unnest($1::text[]) AS c (cargo_no)
     CROSS JOIN LATERAL (SELECT r.occurred_at, r.id FROM cargo.location_record r WHERE r.cargo_no = c.cargo_no
                         ORDER BY r.occurred_at DESC, r.id DESC OFFSET 4 LIMIT 1) p`,
    [cargos],
  );
  return rows.map((r) => ({ cargo: r.cargo_no, cursor: encodeCursor({ at: r.at, id: r.id }) }));
};

/**
 * The SQL-at-scale section: a fresh database migrated by the local stack, seeded with the
 * issue's volumes through a direct connection, then every scenario through the emulated
 * gateway with each statement timed where it meets PostgreSQL and explained once.
 *
 * @example
 * ```ts
 * const result = await runSql(readBenchSettings({ BENCH_SCALE: '0.01' }));
 * ```
 */
export const runSql = async (settings: BenchSettings): Promise<SqlResult> => {
  const d = dataset(settings);
  const url = await recreateDatabase(settings.adminUrl, settings.database).catch((error: Error) => {
    throw new Error(
      `the SQL section needs a PostgreSQL server at BENCH_DATABASE_URL (${settings.adminUrl}): ${error.message}`,
    );
  });
  const direct = new pg.Client({ connectionString: url, options: '-c TimeZone=UTC -c DateStyle=ISO,MDY' });
  await direct.connect();
  let statements: TimedStatement[] = [];
  let explainNext = false;
  // Filled by the backend hook; a holder, since TypeScript cannot see assignments made in a callback.
  const probe: { explained?: { output: ExplainOutput; sql: string } } = {};
  const backend = timedBackend(
    await createPostgresBackend({ connectionString: url }),
    (s) => statements.push(s),
    async (text, values) => {
      if (!explainNext) return;
      explainNext = false;
      probe.explained = { output: await explain(direct, text, values), sql: text };
    },
  );
  const service = await startBenchService(backend);
  try {
    const server = await serverFacts(url);
    log(
      `seeding ${settings.database}: ${d.locations} location records, ${d.boxes} boxes × ${d.itemsPerBox} items, ${d.planBoxes * 2 * d.itemsPerBox} plan rows...`,
    );
    const seeded = await seed(direct, d, workPlans(settings.samples), log);
    const cursors = await cursorsFor(direct, d, 200);
    const bigTables = await tablesOver(direct, BIG_TABLE_ROWS);
    const commitBefore = await commitFloor(direct, Math.max(100, settings.samples));
    const results: ScenarioResult[] = [];
    for (const scenario of scenarios(d, settings.samples, process.env.SERVICE_PREFIX ?? 'cargo', cursors)) {
      const endToEnd: number[] = [];
      const statementMs: number[] = [];
      const perRequest = new Set<number>();
      const unexpected: string[] = [];
      probe.explained = undefined;
      for (let i = 0; i < WARMUP + scenario.samples; i += 1) {
        explainNext = i === WARMUP - 1;
        statements = [];
        const response = await service.call(scenario.request(i));
        if (response.status !== scenario.status && unexpected.length < 5)
          unexpected.push(`${response.status} ${JSON.stringify(response.body).slice(0, 200)}`);
        if (i < WARMUP) continue;
        const own = statements.filter((s) => s.service);
        perRequest.add(own.length);
        endToEnd.push(response.ms);
        statementMs.push(own.reduce((sum, s) => sum + s.ms, 0));
      }
      const statement = summarize(statementMs);
      const targetMs = TARGET_MS[scenario.class];
      const explained = probe.explained as { output: ExplainOutput; sql: string } | undefined;
      const plan =
        explained === undefined
          ? null
          : {
              planningMs: explained.output['Planning Time'],
              executionMs: explained.output['Execution Time'],
              plan: renderPlan(explained.output.Plan),
              indexes: indexesUsed(explained.output.Plan),
              seqScans: seqScans(explained.output.Plan, bigTables),
              sql: explained.sql,
            };
      const result: ScenarioResult = {
        name: scenario.name,
        route: scenario.route,
        class: scenario.class,
        targetMs,
        endToEnd: summarize(endToEnd),
        statement,
        slowest: [...statementMs]
          .sort((a, b) => b - a)
          .slice(0, 5)
          .map((v) => Number(v.toFixed(2))),
        statementsPerRequest: Math.max(...perRequest),
        explain: plan,
        unexpectedStatuses: unexpected,
        met: unexpected.length === 0 && statement.p99 < targetMs && (plan?.seqScans.length ?? 0) === 0,
      };
      results.push(result);
      log(
        `${scenario.name}: statement p50 ${statement.p50.toFixed(2)} / p99 ${statement.p99.toFixed(2)} ms, end to end p99 ${result.endToEnd.p99.toFixed(1)} ms${unexpected.length > 0 ? `, UNEXPECTED ${unexpected[0]}` : ''}`,
      );
    }
    const commitAfter = await commitFloor(direct, Math.max(100, settings.samples));
    const timeStatement = async (work: () => Promise<unknown>): Promise<number> => {
      statements = [];
      await work();
      return statements.filter((s) => s.service).reduce((sum, s) => sum + s.ms, 0);
    };
    const outboxCost = await measureOutboxCost(
      service.stack.db,
      service.stack.config,
      d,
      workPlans(settings.samples).L - WARMUP,
      timeStatement,
    );
    for (const c of outboxCost) {
      log(
        `${c.name}: statement p50 ${c.withOutbox.p50.toFixed(2)} / p99 ${c.withOutbox.p99.toFixed(2)} ms with its ${c.events} event(s), ${c.withoutOutbox.p50.toFixed(2)} / ${c.withoutOutbox.p99.toFixed(2)} ms without`,
      );
    }
    const explainOnce = async (work: () => Promise<unknown>): Promise<ExplainOutput | undefined> => {
      probe.explained = undefined;
      explainNext = true;
      await work();
      explainNext = false;
      return (probe.explained as { output: ExplainOutput } | undefined)?.output;
    };
    const registerCost = await measureRegisterCost(
      service.stack.db,
      service.stack.config,
      d,
      { single: settings.samples, backlog: workPlans(settings.samples).L - WARMUP },
      timeStatement,
      explainOnce,
      bigTables,
    );
    for (const c of registerCost) {
      log(
        `${c.name}: ${c.variants.map((v) => `${v.name} p50 ${v.statement.p50.toFixed(2)} / p99 ${v.statement.p99.toFixed(2)} ms`).join('; ')}`,
      );
    }
    const registerCpu = await measureRegisterCpu(direct, service.stack.config, d, {
      single: settings.samples,
      backlog: workPlans(settings.samples).L - WARMUP,
    });
    for (const c of registerCpu ?? []) {
      log(
        `${c.name}, CPU: ${c.variants.map((v) => `${v.name} p50 ${v.cpu.p50.toFixed(2)} ms (clock ${v.wall.p50.toFixed(2)})`).join('; ')}`,
      );
    }
    return {
      server,
      dataset: d,
      seed: seeded,
      bigTables,
      commitFloor: { before: commitBefore, after: commitAfter },
      scenarios: results,
      outboxCost,
      registerCost,
      ...(registerCpu === undefined ? {} : { registerCpu }),
      met: results.every((r) => r.met) && registerCost.every(registerCostMet),
    };
  } finally {
    await service.close();
    await direct.end();
    if (!settings.keepDatabase) await dropDatabase(settings.adminUrl, settings.database);
  }
};
