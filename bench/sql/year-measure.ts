import pg from 'pg';
import { compileWrite } from '../../lib/db/write.ts';
import { CONTENT_SQL } from '../../lib/location/content.ts';
import { MAINTAIN_SQL, MONTHS_AHEAD, type HistoryMaintenance } from '../../lib/location/history.ts';
import { RECORD, TRAIL_SQL } from '../../lib/location/locations.ts';
import { VOID } from '../../lib/location/void.ts';
import { summarize, type Summary } from '../support/stats.ts';
import type { ExplainOutput } from './plans.ts';
import { indexesUsed, seqScans } from './plans.ts';
import { positional } from './positional.ts';
import { describeSchedule, scheduleOf, type ScheduleProfile } from './schedule.ts';
import { FLAT_RECORD_SQL, FLAT_TRAIL_SQL } from './unpartitioned.ts';
import { backendPid, describeWaits, profileWaits, type WaitProfile } from './waits.ts';
import { random } from './workload.ts';
import { cargoOf, locationOf, type Shape } from './year-seed.ts';
import { log, type Design } from './year-settings.ts';

/** One statement's figures in a run of the year benchmark. */
export interface StatementResult {
  readonly name: string;
  readonly samples: number;
  readonly ms: Summary;
  /** Of one EXPLAIN ANALYZE: buffers found in shared_buffers and read from outside it. */
  readonly sharedHit: number | null;
  readonly sharedRead: number | null;
  /** Of the same EXPLAIN ANALYZE: planning (it grows with the number of partitions) and execution. */
  readonly planningMs: number | null;
  readonly executionMs: number | null;
  readonly indexes: readonly string[];
  readonly seqScans: readonly string[];
  /** What the slowest samples of a second, watched pass waited for. */
  readonly waits?: WaitProfile;
  /** The timed samples' time on and off the CPU, as the kernel counted it (bench/sql/schedule.ts). */
  readonly schedule?: ScheduleProfile;
  /** Backlogs: records stored per second at the median. */
  readonly recordsPerSecond?: number;
}

interface Statement {
  name: string;
  sql: string;
  params: (i: number) => Record<string, unknown>;
  rate?: number;
}

/**
 * The time between a request's scans, its last one just now. Every scan is then newer than the
 * current location the run's earlier samples left for its cargo, as a warehouse's scan nearly
 * always is, so each backlog updates 500 current locations. With 30 s (a backlog four hours
 * long, until runs AT-AW), a sample's scans fell hours before those an earlier sample had stored
 * for the same cargo, and a growing share of each backlog skipped that update (docs/PERFORMANCE.md §4).
 */
const SCAN_SPACING_MS = 10;

export const statements = (
  design: Design,
  d: Shape,
  toVoid: readonly { cargo: string; id: string }[],
  stream: number,
): Statement[] => {
  const rnd = random(7 + stream);
  const anyCargo = () => cargoOf(rnd.int(1, d.cargo), d);
  const scans = (n: number, i: number) =>
    JSON.stringify(
      Array.from({ length: n }, (_, k) => ({
        cargo_no: anyCargo(),
        location_code: locationOf(i * n + k, d),
        off_shelf: false,
        scanned_at: new Date(Date.now() - (n - k) * SCAN_SPACING_MS).toISOString(),
        device_id: 'PDA-07',
      })),
    );
  const record = design === 'partitioned' ? compileWrite(RECORD).plain : FLAT_RECORD_SQL;
  const trail = design === 'partitioned' ? TRAIL_SQL : FLAT_TRAIL_SQL;
  const list: Statement[] = [
    { name: 'scan (one record)', sql: record, params: (i) => ({ scans: scans(1, i), recorded_by: 'bench' }) },
    {
      name: 'backlog of 500',
      sql: record,
      // As many samples as every other statement: with 1 000, its p99 is the 11th slowest, not the 3rd of 200.
      rate: 500,
      params: (i) => ({ scans: scans(500, i), recorded_by: 'bench' }),
    },
    {
      name: 'current location + first history page (box)',
      sql: trail,
      params: () => ({ cargo_no: cargoOf(rnd.int(1, d.boxes), d), before_at: null, before_id: null, fetch: 21 }),
    },
    {
      name: 'history page (cursor)',
      sql: trail,
      // A page further back in a box's history, from a point in the seeded year: the cursor's
      // cost is the same as the one a first page returns, and no query beforehand reads (and
      // caches) the pages it will read.
      params: () => ({
        cargo_no: cargoOf(rnd.int(1, d.boxes), d),
        before_at: new Date(Date.now() - rnd.int(30, 330) * 86_400_000).toISOString(),
        before_id: '9223372036854775807',
        fetch: 21,
      }),
    },
  ];
  if (design === 'partitioned') {
    list.push(
      {
        name: 'location content (first page of 20)',
        sql: CONTENT_SQL,
        params: () => ({ location_code: locationOf(rnd.int(0, d.locations - 1), d), after: '', window: 81 }),
      },
      {
        name: 'void a scan',
        sql: compileWrite(VOID).plain,
        // Each sample voids another cargo's current scan: a record voided before would be
        // refused (its version is 2), which is not what is measured.
        params: (i) => {
          const r = toVoid[i];
          if (r === undefined) throw new Error(`no scan picked for void sample ${i}`);
          return { cargo_no: r.cargo, id: r.id, version: 1, voided_by: 'bench' };
        },
      },
    );
  }
  return list;
};

const explain = async (client: pg.Client, text: string, values: unknown[]): Promise<ExplainOutput> => {
  await client.query('BEGIN');
  try {
    const { rows } = await client.query<{ 'QUERY PLAN': ExplainOutput[] }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`,
      values,
    );
    return rows[0]?.['QUERY PLAN'][0] as ExplainOutput;
  } finally {
    await client.query('ROLLBACK');
  }
};

export const measure = async (
  client: pg.Client,
  watcher: pg.Client,
  s: Statement,
  n: number,
): Promise<StatementResult> => {
  const request = (i: number) => positional(s.sql, s.params(i));
  const prepare = (i: number) => {
    const { text, values } = request(i);
    return () => client.query(text, values);
  };
  const pid = await backendPid(client);
  // A fiftieth of the CPU reference (bench/sql/commit-floor.ts) after each sample, on the same backend.
  const schedule = scheduleOf(pid, () => client.query('SELECT count(*) FROM generate_series(1, 20000)'));
  const times: number[] = [];
  for (let i = 0; i < n + 3; i += 1) {
    // The request is made before the clock starts: a backlog's 500 scans are the client's work.
    const send = prepare(i);
    const sample = i >= 3 ? schedule?.start() : undefined;
    const t = performance.now();
    await send();
    const elapsed = performance.now() - t;
    if (i >= 3) times.push(elapsed);
    await sample?.(elapsed);
  }
  // After the samples, as a pooled connection plans: its catalog caches are warm. Another
  // sample's parameters, so that its pages are as likely to be cached as a sample's were.
  const last = request(n + 10);
  const plan = await explain(client, last.text, last.values);
  const ms = summarize(times);
  log(
    `  ${s.name}: p50 ${ms.p50.toFixed(2)} / p99 ${ms.p99.toFixed(2)} ms, plan ${plan['Planning Time'].toFixed(2)} + exec ${plan['Execution Time'].toFixed(2)} ms, shared read ${plan.Plan['Shared Read Blocks'] ?? '?'}`,
  );
  const scheduled = schedule?.profile();
  if (scheduled !== undefined) log(`    ${describeSchedule(scheduled)}`);
  // A second pass as long as the timed one, with other parameters, watched (bench/sql/waits.ts).
  const waits = await profileWaits(pid, watcher, n, (i) => prepare(n + 20 + i));
  log(`    ${describeWaits(waits)}`);
  return {
    name: s.name,
    samples: n,
    ms,
    sharedHit: plan.Plan['Shared Hit Blocks'] ?? null,
    sharedRead: plan.Plan['Shared Read Blocks'] ?? null,
    planningMs: plan['Planning Time'],
    executionMs: plan['Execution Time'],
    waits,
    ...(scheduled === undefined ? {} : { schedule: scheduled }),
    indexes: indexesUsed(plan.Plan),
    seqScans: seqScans(plan.Plan, ['location_record', 'location_current', 'box', 'zongpai']),
    ...(s.rate === undefined ? {} : { recordsPerSecond: Math.round((s.rate * 1000) / ms.p50) }),
  };
};

/**
 * Dropping a whole month of history: the maintenance itself (migration 010), run twice with the
 * retention that puts the oldest full month past it, each run in a transaction timed with its
 * commit. The first run takes the month out of the history (detached; scans and history reads
 * wait for it); the second drops its table, whose commit removes the files, while a box's history
 * is read on another connection: it waits on nothing. The month is the oldest full one (the
 * seeded year's first month is partial, and goes in the same run if it is still there; a kept
 * database may also still have empty months before it).
 */
export const dropMonth = async (client: pg.Client, url: string, d: Shape): Promise<StatementResult> => {
  const { rows: months } = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'cargo.location_record'::regclass AND c.relname ~ '^location_record_p[0-9]{6}$' ORDER BY 1`,
  );
  const filled: { name: string; rows: string; size: string }[] = [];
  for (const { name } of months) {
    const { rows } = await client.query<{ rows: string; size: string }>(
      `SELECT count(*)::text AS rows, pg_size_pretty(pg_total_relation_size($1::regclass)) AS size FROM cargo.${name}`,
      [`cargo.${name}`],
    );
    if (rows[0] !== undefined && rows[0].rows !== '0') filled.push({ name, ...rows[0] });
    if (filled.length === 2) break;
  }
  const month = filled.at(-1);
  if (month === undefined) throw new Error('no month of history holds a scan');
  // The whole months from the end of that month to now: a retention of that many puts it past.
  const now = new Date();
  const endMonths = Number(month.name.slice(17, 21)) * 12 + Number(month.name.slice(21, 23));
  const maintain = positional(MAINTAIN_SQL, {
    months_kept: now.getUTCFullYear() * 12 + now.getUTCMonth() - endMonths,
    months_ahead: MONTHS_AHEAD,
  });
  const run = async (during?: () => Promise<number>) => {
    const t = performance.now();
    await client.query('BEGIN');
    const { rows } = await client.query<{ summary: HistoryMaintenance }>(maintain.text, maintain.values);
    const statement = performance.now() - t;
    const commit = client.query('COMMIT');
    const readMs = await during?.();
    await commit;
    return { total: performance.now() - t, statement, readMs, summary: rows[0]?.summary };
  };
  const first = await run();
  if (!first.summary?.dropped.includes(month.name)) throw new Error(`the maintenance kept ${month.name}`);
  const reader = new pg.Client({ connectionString: url });
  await reader.connect();
  const read = async (cargo: number) => {
    const { text, values } = positional(TRAIL_SQL, {
      cargo_no: cargoOf(cargo, d),
      before_at: null,
      before_id: null,
      fetch: 21,
    });
    const t = performance.now();
    await reader.query(text, values);
    return performance.now() - t;
  };
  try {
    // A first read on the new connection fills its catalog caches, as a pooled connection has them.
    await read(2);
    const next = await run(() => read(1));
    if (!next.summary?.removed.includes(`${month.name}_retired`))
      throw new Error(`the next run kept ${month.name}_retired`);
    const ms = summarize([first.total]);
    const split = `${first.summary.dropped.join(', ')} out of the history in ${ms.p50.toFixed(1)} ms with its commit; the next run ${next.statement.toFixed(1)} ms, its commit removing the files ${(next.total - next.statement).toFixed(1)} ms, a history read meanwhile ${next.readMs?.toFixed(1)} ms`;
    log(`  drop the oldest full month (${month.name}, ${month.rows} records, ${month.size}): ${split}`);
    return {
      name: `drop a month of history (${month.name}: ${month.rows} records, ${month.size}; ${split})`,
      samples: 1,
      ms,
      sharedHit: null,
      sharedRead: null,
      planningMs: null,
      executionMs: null,
      indexes: [],
      seqScans: [],
    };
  } finally {
    await reader.end();
  }
};
