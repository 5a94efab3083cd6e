import type pg from 'pg';
import { compileWrite } from '../../lib/db/write.ts';
import { CONTENT_SQL } from '../../lib/location/content.ts';
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
import { LONG_AGO_DAYS } from './year-long-ago.ts';
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
  /**
   * Shared-buffer misses of each timed sample (pg_stat_statements' shared_blks_read, the
   * statement's own and its functions'): what a 1-ACU instance reads from Aurora's storage, one
   * read after another, whatever this machine's page cache holds. Absent without pg_stat_statements.
   */
  readonly misses?: Summary;
  /**
   * The same over the last two thirds of the samples: the run restarts the cluster, so its
   * shared_buffers start empty, and the first samples of a statement also read what a running
   * instance keeps cached (a week's part of the trail index fills in a few dozen backlogs).
   */
  readonly missesWarm?: Summary;
  /** The timed samples' misses per sample by relation (pg_statio deltas), the largest first. */
  readonly missesByRelation?: Readonly<Record<string, number>>;
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

/**
 * The SQL that reads a design's trail and the one that records scans: the service's own, or their
 * forms with the trail keyed by cargo (bench/sql/trail-by-cargo.ts).
 */
export interface TrailStatements {
  readonly trail: string;
  readonly record: string;
}

export const statements = (
  design: Design,
  d: Shape,
  toVoid: readonly { cargo: string; id: string }[],
  /** Boxes scanned a few times long ago and never since (bench/sql/year-long-ago.ts), one a sample; the partitioned design's. */
  longAgo: readonly string[],
  stream: number,
  /** The time a scan made now has: the seeded year's end (BENCH_YEAR_END) and as much as the run has taken since. */
  now: () => number,
  sql: TrailStatements = { trail: TRAIL_SQL, record: compileWrite(RECORD).plain },
): Statement[] => {
  const rnd = random(7 + stream);
  const anyCargo = () => cargoOf(rnd.int(1, d.cargo), d);
  const scans = (n: number, i: number) =>
    JSON.stringify(
      Array.from({ length: n }, (_, k) => ({
        cargo_no: anyCargo(),
        location_code: locationOf(i * n + k, d),
        off_shelf: false,
        scanned_at: new Date(now() - (n - k) * SCAN_SPACING_MS).toISOString(),
        device_id: 'PDA-07',
      })),
    );
  const record = design === 'partitioned' ? sql.record : FLAT_RECORD_SQL;
  const trail = design === 'partitioned' ? sql.trail : FLAT_TRAIL_SQL;
  const longAgoPage: Statement = {
    // A box scanned 3 times over two and a half days about six months ago, never since: its whole
    // history is one short page, read back from its last scan (its span, migration 024) or from now.
    name: `current location + first history page (box scanned 3 times, ${LONG_AGO_DAYS} days ago)`,
    sql: trail,
    // Each sample another box: none reads the pages the one before it read.
    params: (i) => {
      const cargo = longAgo[i];
      if (cargo === undefined) throw new Error(`no box scanned long ago for sample ${i}`);
      return { cargo_no: cargo, before_at: null, before_id: null, fetch: 21 };
    },
  };
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
      // A cargo never scanned (a number mistyped, a label not yet scanned): keyed by cargo, the read
      // descends once into each month's index; keyed by week, it walked every week of the history
      // down to its oldest until migration 024, from which a cargo with no current location and no
      // forgotten span has no week to walk.
      name: 'current location + first history page (no scans)',
      sql: trail,
      params: () => ({
        // Beside a seeded box in the index (its number and a suffix), so each sample reads other pages.
        cargo_no: `${cargoOf(rnd.int(1, d.boxes), d)}-A`,
        before_at: null,
        before_id: null,
        fetch: 21,
      }),
    },
    // The partitioned design's alone: the unpartitioned one reads the history's heap, where the
    // boxes' few records share a handful of pages that every sample after the first finds cached.
    ...(design === 'partitioned' ? [longAgoPage] : []),
    {
      name: 'history page (cursor)',
      sql: trail,
      // A page further back in a box's history, from a point in the seeded year: the cursor's
      // cost is the same as the one a first page returns, and no query beforehand reads (and
      // caches) the pages it will read.
      params: () => ({
        cargo_no: cargoOf(rnd.int(1, d.boxes), d),
        before_at: new Date(now() - rnd.int(30, 330) * 86_400_000).toISOString(),
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

/** The shared blocks read so far by this database's statements (pg_stat_statements), or null without it. */
const sharedReadSoFar = async (watcher: pg.Client): Promise<number | null> => {
  const { rows } = await watcher
    .query<{ read: string }>(
      `SELECT COALESCE(sum(shared_blks_read), 0)::text AS read FROM pg_stat_statements
       WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT LIKE '%pg_stat%'`,
    )
    .catch(() => ({ rows: [] }));
  return rows[0] === undefined ? null : Number(rows[0].read);
};

/** Blocks read from outside shared_buffers so far, by relation (pg_statio), once `client` has flushed its counts. */
const readsByRelation = async (client: pg.Client, watcher: pg.Client): Promise<Map<string, number>> => {
  await client.query('SELECT pg_stat_force_next_flush()');
  await client.query('SELECT 1');
  const { rows } = await watcher.query<{ name: string; read: string }>(
    `SELECT indexrelname AS name, idx_blks_read::text AS read FROM pg_statio_user_indexes WHERE schemaname = 'cargo'
     UNION ALL
     SELECT relname || ' (heap)', (heap_blks_read + COALESCE(toast_blks_read, 0))::text FROM pg_statio_user_tables WHERE schemaname = 'cargo'`,
  );
  return new Map(rows.map((r) => [r.name, Number(r.read)]));
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
  const misses: number[] = [];
  let readBefore = await sharedReadSoFar(watcher);
  let relationsBefore = new Map<string, number>();
  for (let i = 0; i < n + 3; i += 1) {
    if (i === 3) relationsBefore = await readsByRelation(client, watcher);
    // The request is made before the clock starts: a backlog's 500 scans are the client's work.
    const send = prepare(i);
    const sample = i >= 3 ? schedule?.start() : undefined;
    const t = performance.now();
    await send();
    const elapsed = performance.now() - t;
    if (i >= 3) times.push(elapsed);
    await sample?.(elapsed);
    if (readBefore !== null) {
      const read = await sharedReadSoFar(watcher);
      if (i >= 3 && read !== null) misses.push(read - readBefore);
      readBefore = read;
    }
  }
  const relationsAfter = await readsByRelation(client, watcher);
  const missesByRelation = Object.fromEntries(
    [...relationsAfter]
      .map(([name, read]) => [name, (read - (relationsBefore.get(name) ?? 0)) / n] as const)
      .filter(([, read]) => read >= 0.05)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([name, read]) => [name, Number(read.toFixed(1))]),
  );
  const missed = misses.length === n ? summarize(misses) : undefined;
  const warm = misses.length === n ? summarize(misses.slice(Math.floor(n / 3))) : undefined;
  // After the samples, as a pooled connection plans: its catalog caches are warm. Another
  // sample's parameters, so that its pages are as likely to be cached as a sample's were.
  const last = request(n + 10);
  const plan = await explain(client, last.text, last.values);
  const ms = summarize(times);
  log(
    `  ${s.name}: p50 ${ms.p50.toFixed(2)} / p99 ${ms.p99.toFixed(2)} ms, plan ${plan['Planning Time'].toFixed(2)} + exec ${plan['Execution Time'].toFixed(2)} ms, shared read ${plan.Plan['Shared Read Blocks'] ?? '?'}`,
  );
  if (missed !== undefined)
    log(
      `    shared-buffer misses per sample: mean ${missed.mean.toFixed(1)} / p99 ${missed.p99.toFixed(0)}, the last two thirds ${warm?.mean.toFixed(1)} / ${warm?.p99.toFixed(0)}, the first ten ${misses.slice(0, 10).join(' ')}; by relation ${JSON.stringify(missesByRelation)}`,
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
    ...(missed === undefined || warm === undefined ? {} : { misses: missed, missesWarm: warm, missesByRelation }),
  };
};
