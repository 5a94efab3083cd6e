import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { compileWrite } from '../../lib/db/write.ts';
import { stepStatements } from '../../lib/db/migrate.ts';
import { migrations } from '../../lib/db/migrations/index.ts';
import { TRAIL_INDEX_BYTE_ORDER } from '../../lib/db/migrations/017-history-codes-byte-order.ts';
import { CONTENT_SQL } from '../../lib/location/content.ts';
import { MAINTAIN_SQL, MONTHS_AHEAD, type HistoryMaintenance } from '../../lib/location/history.ts';
import { loadConfig } from '../../lib/config.ts';
import { locatedData, RECORD, TRAIL_SQL } from '../../lib/location/locations.ts';
import { VOID } from '../../lib/location/void.ts';
import { summarize, type Summary } from '../support/stats.ts';
import { commitFloor, cpuReference } from './commit-floor.ts';
import type { ExplainOutput } from './plans.ts';
import { indexesUsed, seqScans } from './plans.ts';
import { FLAT_RECORD_SQL, FLAT_TRAIL_SQL } from './unpartitioned.ts';
import { describeSchedule, scheduleOf, type ScheduleProfile } from './schedule.ts';
import { describeWaits, profileWaits, type WaitProfile } from './waits.ts';
import { random } from './workload.ts';

/**
 * The year-scale location benchmark (`npm run bench -- --only=year`): a year of a large
 * warehouse's scans (BENCH_YEAR_RECORDS, default 100 M, over 12 months) for BENCH_YEAR_BOXES boxes
 * (default 1 M, 20 to a zongpai), the partitioned design with a week of their events in the
 * outbox, on a PostgreSQL cluster of its own whose shared_buffers is the cache share of a 1-ACU
 * Aurora Serverless v2 instance (BENCH_YEAR_SHARED_BUFFERS, default 1GB),
 * measured twice: the partitioned design (every migration) and the unpartitioned one (001-004
 * with the statements before migration 005, bench/sql/unpartitioned.ts), one after the other in
 * the same database name, each dropped before the next is built.
 *
 * Each location statement is timed directly on a connection of its own (no gateway: the figures
 * are the statements' server time plus a loopback round trip), with one EXPLAIN (ANALYZE, BUFFERS)
 * per statement in a rolled-back transaction for its plan and its cache misses (shared reads).
 */
export interface YearSettings {
  readonly records: number;
  readonly boxes: number;
  readonly locations: number;
  readonly samples: number;
  readonly sharedBuffers: string;
  readonly port: number;
  readonly dir: string;
  /** An existing server instead of a cluster of its own (then its settings are its own). */
  readonly url?: string;
  readonly designs: readonly Design[];
  /**
   * Keep the cluster and each design's database (`cargo_bench_year_<design>`) after the run, and
   * measure an existing one again without seeding it (BENCH_YEAR_KEEP=1): seeding takes minutes.
   */
  readonly keep: boolean;
  /**
   * Time dropping a month of history (BENCH_YEAR_DROP_MONTH=1; always without BENCH_YEAR_KEEP):
   * a kept database loses that month (scans of its dates then have no partition to go to), and
   * its statements are measured before the drop.
   */
  readonly dropMonth: boolean;
  /**
   * More settings for the cluster of its own, as `name=value` separated by spaces
   * (BENCH_YEAR_PG_OPTIONS, e.g. `bgwriter_delay=10ms`): one change measured against a run without it.
   */
  readonly serverOptions: readonly string[];
  /**
   * The databases' locale (BENCH_YEAR_LOCALE, default `en_US.UTF-8`, the one Aurora PostgreSQL
   * creates databases in): the history's codes compare in it (migration 015 leaves them in the
   * database's collation), and comparing text in a locale costs more than byte by byte.
   */
  readonly locale: string;
}

export type Design = 'partitioned' | 'unpartitioned';

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

export interface DesignResult {
  readonly design: Design;
  readonly seedSeconds: Record<string, number>;
  readonly sizes: Record<string, string>;
  readonly statements: readonly StatementResult[];
  /** A one-row INSERT committed alone, after the statements: the part of every write's time that is the WAL flush. */
  readonly commitFloor: Summary;
  /** The machine's speed before and after the statements (bench/sql/commit-floor.ts); absent in runs before it existed. */
  readonly cpuReference?: { readonly before: Summary; readonly after: Summary };
}

export interface YearResult {
  readonly settings: YearSettings;
  readonly server: Record<string, string>;
  readonly designs: readonly DesignResult[];
}

const log = (line: string) => process.stderr.write(`year: ${line}\n`);
const positive = (env: NodeJS.ProcessEnv, name: string, fallback: number) => {
  const value = Number(env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${name} must be a positive whole number, got '${env[name]}'`);
  return value;
};

export const readYearSettings = (env: NodeJS.ProcessEnv = process.env): YearSettings => {
  const designs = (env.BENCH_YEAR_DESIGNS ?? 'partitioned,unpartitioned').split(',') as Design[];
  if (designs.some((d) => d !== 'partitioned' && d !== 'unpartitioned'))
    throw new Error('BENCH_YEAR_DESIGNS takes partitioned,unpartitioned');
  const sharedBuffers = env.BENCH_YEAR_SHARED_BUFFERS ?? '1GB';
  if (!/^\d{1,5}(kB|MB|GB)$/.test(sharedBuffers))
    throw new Error(`BENCH_YEAR_SHARED_BUFFERS must be like 1GB or 512MB, got '${sharedBuffers}'`);
  // pg_ctl hands its -o string to a shell: only plain names and values.
  const serverOptions = (env.BENCH_YEAR_PG_OPTIONS ?? '').split(' ').filter((o) => o !== '');
  const bad = serverOptions.find((o) => !/^[a-z_]+=[A-Za-z0-9_.]+$/.test(o));
  if (bad !== undefined) throw new Error(`BENCH_YEAR_PG_OPTIONS takes name=value settings, got '${bad}'`);
  // CREATE DATABASE takes no parameters: only a plain locale name reaches its text.
  const locale = env.BENCH_YEAR_LOCALE ?? 'en_US.UTF-8';
  if (!/^[A-Za-z0-9_.@-]+$/.test(locale))
    throw new Error(`BENCH_YEAR_LOCALE must be a locale name such as en_US.UTF-8 or C, got '${locale}'`);
  return {
    records: positive(env, 'BENCH_YEAR_RECORDS', 100_000_000),
    boxes: positive(env, 'BENCH_YEAR_BOXES', 1_000_000),
    locations: positive(env, 'BENCH_YEAR_LOCATIONS', 2_000),
    samples: positive(env, 'BENCH_SAMPLES', 300),
    sharedBuffers,
    // Below Linux's range of ephemeral ports (32768-60999): one the run's own connections use
    // cannot be the port the cluster is to listen on.
    port: positive(env, 'BENCH_YEAR_PORT', 25_432),
    dir: env.BENCH_YEAR_DIR ?? path.join(tmpdir(), 'cargo-bench-year-pg'),
    ...(env.BENCH_YEAR_URL === undefined ? {} : { url: env.BENCH_YEAR_URL }),
    designs,
    keep: env.BENCH_YEAR_KEEP === '1',
    dropMonth: env.BENCH_YEAR_KEEP !== '1' || env.BENCH_YEAR_DROP_MONTH === '1',
    serverOptions,
    locale,
  };
};

const BIN = '/usr/lib/postgresql/15/bin';

/**
 * glibc's allocator keeps the memory a backend frees instead of handing it back to the OS after
 * every statement. Planning over 30 partitions allocates about 1.5 MB; when glibc trims it after
 * each statement, the next one takes about 390 page faults to get it back, and in this VM (nested
 * virtualization) a page fault costs about 20 µs: 8-9 ms of a 2-3 ms statement, measured with
 * `perf stat -e page-faults` on the backend. Whether a backend trims depends on its history
 * (glibc raises its thresholds the first time it frees a large mapped block), so without this the
 * same statement takes 2.3 or 9.2 ms depending on what the connection ran first. On hardware
 * where a fault costs well under a microsecond, the difference is a fraction of a millisecond.
 */
const MALLOC = 'GLIBC_TUNABLES=glibc.malloc.trim_threshold=268435456:glibc.malloc.mmap_threshold=33554432';

/**
 * A PostgreSQL 15 cluster of its own (Debian's binaries), so that shared_buffers can be what a
 * small Aurora instance has without restarting the shared server. Runs as the current user;
 * trust authentication on the loopback only.
 */
const startCluster = (s: YearSettings): { url: string; stop: () => void } => {
  const data = path.join(s.dir, 'data');
  const reuse = s.keep && existsSync(path.join(data, 'PG_VERSION'));
  if (!reuse) {
    if (existsSync(s.dir)) rmSync(s.dir, { recursive: true, force: true });
    mkdirSync(s.dir, { recursive: true });
  }
  // PostgreSQL refuses to run as root: as root, the cluster belongs to the postgres user.
  const root = process.getuid?.() === 0;
  if (root) spawnSync('chown', ['-R', 'postgres:postgres', s.dir]);
  const run = (bin: string, args: string[]) => {
    const command = root
      ? ['runuser', '-u', 'postgres', '--', 'env', MALLOC, path.join(BIN, bin), ...args]
      : ['env', MALLOC, path.join(BIN, bin), ...args];
    const out = spawnSync(command[0] as string, command.slice(1), { encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`${bin} failed: ${out.stderr || out.stdout}`);
  };
  if (!reuse) run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const options = [
    `-p ${s.port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${s.dir}`,
    `-c shared_buffers=${s.sharedBuffers}`,
    '-c effective_cache_size=1536MB',
    '-c work_mem=4MB',
    '-c maintenance_work_mem=1GB',
    '-c max_wal_size=8GB',
    '-c checkpoint_timeout=30min',
    '-c wal_level=minimal',
    '-c max_wal_senders=0',
    '-c synchronous_commit=on',
    '-c jit=off',
    '-c max_parallel_maintenance_workers=1',
    // Aurora's instances write no data pages, for checkpoints or for evicting a dirty buffer: its
    // storage builds pages from the log (AWS Database Blog, "Planning I/O in Amazon Aurora"). Here a
    // statement that needs a free buffer writes a dirty one out itself (IO:DataFileWrite in the
    // current location's slowest samples) unless the background writer has cleaned it already, so
    // it runs every 10 ms and cleans ahead of demand. docs/PERFORMANCE.md §4 has both measured.
    '-c bgwriter_delay=10ms',
    '-c bgwriter_lru_maxpages=1000',
    '-c bgwriter_lru_multiplier=4',
    // For the same reason Aurora writes no full-page images: PostgreSQL logs a page's whole image
    // at its first change after a checkpoint, so that a torn data page can be restored, and Aurora
    // neither checkpoints nor writes data pages. Measured here right after the seed's CHECKPOINT,
    // each backlog of 500 logged 8.4 MB with them and 0.7 MB without (docs/PERFORMANCE.md §4).
    '-c full_page_writes=off',
    ...s.serverOptions.map((o) => `-c ${o}`),
  ].join(' ');
  // A kept cluster may still be running from the run before: restarted, so that it runs with
  // this run's settings.
  if (reuse && existsSync(path.join(data, 'postmaster.pid'))) run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  run('pg_ctl', ['-D', data, '-l', path.join(s.dir, 'server.log'), '-o', options, '-w', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${s.port}/postgres`,
    stop: () => {
      if (s.keep) return;
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      rmSync(s.dir, { recursive: true, force: true });
    },
  };
};

/** `:name` parameters to `$n`, outside quotes and `::` casts. */
export const positional = (sql: string, params: Record<string, unknown>): { text: string; values: unknown[] } => {
  const names: string[] = [];
  let text = '';
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i += 1) {
    const ch = sql[i] as string;
    if (quote !== null) {
      if (ch === quote) quote = null;
      text += ch;
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    const name =
      ch === ':' && sql[i - 1] !== ':' && sql[i + 1] !== ':'
        ? /^[a-z_][a-z0-9_]*/.exec(sql.slice(i + 1))?.[0]
        : undefined;
    if (name === undefined) {
      text += ch;
      continue;
    }
    if (!(name in params)) throw new Error(`no value for :${name}`);
    if (!names.includes(name)) names.push(name);
    text += `$${names.indexOf(name) + 1}`;
    i += name.length;
  }
  return { text, values: names.map((n) => params[n]) };
};

const pad = (expr: string, width: number) => `lpad((${expr})::text, ${width}, '0')`;

/** The inverse of 7919 modulo n (the scatter of records over cargo is r * 7919 mod n). */
const inverse = (a: number, n: number): number => {
  let [t, nt, r, nr] = [0n, 1n, BigInt(n), BigInt(a % n)];
  while (nr !== 0n) {
    const q = r / nr;
    [t, nt] = [nt, t - q * nt];
    [r, nr] = [nr, r - q * nr];
  }
  if (r !== 1n) throw new Error(`7919 and ${n} are not coprime: choose another box count`);
  return Number(t < 0n ? t + BigInt(n) : t);
};

interface Shape {
  boxes: number;
  zongpai: number;
  cargo: number;
  records: number;
  locations: number;
}

/** Cargo c (1-based): boxes first, then zongpais. SQL and TypeScript twins. */
const cargoSql = (c: string, d: Shape) =>
  `CASE WHEN ${c} <= ${d.boxes} THEN 'BX-' || ${pad(c, 7)} ELSE 'ZP-' || ${pad(`${c} - ${d.boxes}`, 6)} END`;
const cargoOf = (c: number, d: Shape) =>
  c <= d.boxes ? `BX-${String(c).padStart(7, '0')}` : `ZP-${String(c - d.boxes).padStart(6, '0')}`;
const locationSql = (r: string, d: Shape) => `'L-' || ${pad(`(${r} * 31) % ${d.locations}`, 4)}`;
const locationOf = (i: number, d: Shape) => `L-${String(i % d.locations).padStart(4, '0')}`;

/** Record r (1..records): cargo 1 + r * 7919 mod cargo, times evenly over the 365 days before the seed. */
const recordsSql = (d: Shape, from: number, to: number) => `
INSERT INTO cargo.location_record (id, cargo_no, location_code, off_shelf, scanned_at, recorded_at, occurred_at, recorded_by, device_id)
OVERRIDING SYSTEM VALUE
SELECT r, ${cargoSql('c', d)}, ${locationSql('r', d)}, r % 7 = 0, CASE WHEN r % 10 = 0 THEN NULL ELSE at END, at + interval '2 seconds', at,
       'op' || r % 150, 'PDA-' || ${pad('r % 50', 2)}
FROM (SELECT r, 1 + (r * 7919) % ${d.cargo} AS c,
             date_trunc('milliseconds', $1::timestamptz + r * (interval '365 days' / ${d.records})) AS at
      FROM generate_series(${from}::bigint, ${to}::bigint) r) s`;

/** Each cargo's last record, computed (the records of cargo c are r0(c) + k * cargo), not searched. */
const currentSql = (d: Shape) => {
  const inv = inverse(7919, d.cargo);
  return `
INSERT INTO cargo.location_current (cargo_no, record_id, location_code, off_shelf, scanned_at, recorded_at, occurred_at, recorded_by, device_id)
SELECT cargo_no, id, location_code, off_shelf, scanned_at, recorded_at, occurred_at, recorded_by, device_id
FROM (SELECT c, CASE WHEN r0 = 0 THEN ${d.cargo}::bigint * (${d.records} / ${d.cargo}) ELSE r0 + ${d.cargo}::bigint * ((${d.records} - r0) / ${d.cargo}) END AS last
      FROM (SELECT c, ((c - 1) * ${inv}::bigint) % ${d.cargo} AS r0 FROM generate_series(1, ${d.cargo}) c) x) l
JOIN cargo.location_record r ON r.id = l.last AND r.cargo_no = ${cargoSql('l.c', d)}`;
};

/**
 * The event outbox as the relay leaves it: the `cargo.located` event of every record of the last
 * EVENTS_RETENTION_DAYS (its default), all published, the older ones pruned. A backlog's 500
 * events then go into a table and index of a week of a large warehouse's scans (about 1.9 M
 * events at 100 M records a year), not into an empty one.
 */
const EVENTS_KEPT_DAYS = loadConfig({}).eventsRetentionDays;
const eventsSql = `
INSERT INTO cargo.event (sequence, type, occurred_at, actor, data)
SELECT row_number() OVER (ORDER BY i.id), 'cargo.located', i.recorded_at, i.recorded_by, ${locatedData()}
FROM cargo.location_record i
WHERE i.occurred_at >= now() - make_interval(days => ${EVENTS_KEPT_DAYS})`;

const seed = async (client: pg.Client, design: Design, d: Shape, start: string): Promise<Record<string, number>> => {
  const seconds: Record<string, number> = {};
  const timed = async (name: string, work: () => Promise<unknown>) => {
    const t = performance.now();
    await work();
    seconds[name] = Number(((performance.now() - t) / 1000).toFixed(1));
    log(`  ${design} ${name}: ${seconds[name]} s`);
  };
  await client.query('SET synchronous_commit = off');
  await timed('zongpai + box', async () => {
    await client.query(
      `INSERT INTO cargo.zongpai (zongpai_no, status, created_at, created_by)
      SELECT 'ZP-' || ${pad('z', 6)}, 'OPEN', $1::timestamptz, 'op' FROM generate_series(1, ${d.zongpai}) z`,
      [start],
    );
    await client.query(
      `INSERT INTO cargo.box (box_no, status, zongpai_no, zongpai_since, version, total_quantity, saved_at, saved_by)
      SELECT 'BX-' || ${pad('i', 7)}, 'BOXED', 'ZP-' || ${pad('ceil(i / 20.0)::int', 6)}, $1::timestamptz, 1, 5, $1::timestamptz, 'op'
      FROM generate_series(1, ${d.boxes}) i`,
      [start],
    );
  });
  // Bulk load without the indexes, then build them: what a steady state has, in a fraction of the time.
  await client.query('ALTER TABLE cargo.location_record DROP CONSTRAINT location_record_pkey');
  // The history index: the trail index of migration 017 (008's, comparing codes in "C"), or the key-only one of the design before it.
  const history =
    design === 'partitioned'
      ? { name: 'location_record_trail_idx', create: TRAIL_INDEX_BYTE_ORDER }
      : {
          name: 'location_record_cargo_idx',
          create: 'CREATE INDEX location_record_cargo_idx ON cargo.location_record (cargo_no, occurred_at, id)',
        };
  await client.query(`DROP INDEX cargo.${history.name}`);
  const chunk = Math.ceil(d.records / 12);
  await timed('location_record', async () => {
    for (let from = 1; from <= d.records; from += chunk) {
      await client.query(recordsSql(d, from, Math.min(d.records, from + chunk - 1)), [start]);
      log(`    ${Math.min(d.records, from + chunk - 1)} of ${d.records}`);
    }
  });
  await timed('primary key', () =>
    client.query(
      `ALTER TABLE cargo.location_record ADD CONSTRAINT location_record_pkey PRIMARY KEY (${design === 'partitioned' ? 'id, occurred_at' : 'id'})`,
    ),
  );
  await timed(history.name, () => client.query(history.create));
  await client.query(`SELECT setval(pg_get_serial_sequence('cargo.location_record', 'id'), ${d.records})`);
  if (design === 'partitioned') {
    await timed('location_current', () => client.query(currentSql(d)));
    await timed(`event outbox (${EVENTS_KEPT_DAYS} days)`, async () => {
      const { rowCount } = await client.query(eventsSql);
      await client.query('UPDATE cargo.event_sequence SET last = $1', [rowCount]);
      await client.query('UPDATE cargo.event_relay SET last_published = $1', [rowCount]);
    });
  }
  await client.query('RESET synchronous_commit');
  await timed('VACUUM ANALYZE', () => client.query('VACUUM (ANALYZE)'));
  await timed('CHECKPOINT', () => client.query('CHECKPOINT'));
  return seconds;
};

/** A relation's size on disk, summed over its partitions when it has any. */
const TREE_SIZE = (relation: string, size: string) =>
  `pg_size_pretty(COALESCE((SELECT sum(${size}(relid)) FROM pg_partition_tree(${relation}) WHERE ${relation} IS NOT NULL), ${size}(${relation})))`;

const sizes = async (client: pg.Client): Promise<Record<string, string>> => {
  const history = "to_regclass('cargo.location_record')";
  const index =
    "COALESCE(to_regclass('cargo.location_record_trail_idx'), to_regclass('cargo.location_record_cargo_idx'))";
  const { rows } = await client.query<{ name: string; size: string }>(
    `SELECT 'database' AS name, pg_size_pretty(pg_database_size(current_database())) AS size
     UNION ALL SELECT 'location_record (all partitions, with indexes)', ${TREE_SIZE(history, 'pg_total_relation_size')}
     UNION ALL SELECT 'history index (all partitions)', ${TREE_SIZE(index, 'pg_relation_size')}
     UNION ALL SELECT 'location_current (with indexes)', pg_size_pretty(pg_total_relation_size(to_regclass('cargo.location_current')))
     UNION ALL SELECT 'event outbox (with indexes)', pg_size_pretty(pg_total_relation_size(to_regclass('cargo.event')))`,
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.size ?? '-']));
};

interface Statement {
  name: string;
  sql: string;
  params: (i: number) => Record<string, unknown>;
  rate?: number;
}

const statements = (
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
        scanned_at: new Date(Date.now() - (n - k) * 30_000).toISOString(),
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

const measure = async (client: pg.Client, watcher: pg.Client, s: Statement, n: number): Promise<StatementResult> => {
  const request = (i: number) => positional(s.sql, s.params(i));
  const prepare = (i: number) => {
    const { text, values } = request(i);
    return () => client.query(text, values);
  };
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  // A fiftieth of the CPU reference (bench/sql/commit-floor.ts) after each sample, on the same backend.
  const schedule = scheduleOf(rows[0]?.pid ?? 0, () => client.query('SELECT count(*) FROM generate_series(1, 20000)'));
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
  const waits = await profileWaits(client, watcher, n, (i) => prepare(n + 20 + i));
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
const dropMonth = async (client: pg.Client, url: string, d: Shape): Promise<StatementResult> => {
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

/**
 * The design's tables and indexes read into the OS page cache (pg_prewarm's 'read' mode, which
 * leaves shared_buffers alone) before it is measured: the history tables first, then every index,
 * then the small tables, so that what the machine cannot hold is the history's heap, which an
 * index-only read does not need. Without it a design is measured with whatever the run before
 * left in the cache (the other design's 16-23 GB evicts it), and the figures say more about this
 * machine's disk than about the design. What would miss a 1-ACU instance's cache is reported
 * apart: each statement's shared reads. The page cache is emptied first where the run may
 * (as root: /proc/sys/vm/drop_caches), since the kernel keeps pages read twice (the design
 * measured before) ahead of pages read once.
 */
const prewarm = async (client: pg.Client): Promise<void> => {
  const t = performance.now();
  spawnSync('sync');
  try {
    writeFileSync('/proc/sys/vm/drop_caches', '1');
  } catch (error) {
    log(
      `  the page cache was not emptied (${(error as Error).message}): the design measured before may keep part of it`,
    );
  }
  const available = await client.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'pg_prewarm'`);
  if (available.rowCount === 0) {
    log('  pg_prewarm is not installed on this server: measured with the page cache as it is');
    return;
  }
  await client.query('CREATE EXTENSION IF NOT EXISTS pg_prewarm');
  const { rows: relations } = await client.query<{ oid: number }>(
    `SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'cargo' AND c.relkind IN ('r', 'i')
     ORDER BY CASE WHEN c.relkind = 'r' AND c.relname LIKE 'location_record%' THEN 0 WHEN c.relkind = 'i' THEN 1 ELSE 2 END, c.relname`,
  );
  let pages = 0;
  for (const { oid } of relations) {
    const { rows } = await client.query<{ pages: string }>(`SELECT pg_prewarm($1::oid, 'read')::text AS pages`, [oid]);
    pages += Number(rows[0]?.pages ?? 0);
  }
  const gb = (pages * 8192) / 2 ** 30;
  log(
    `  read ${gb.toFixed(1)} GB of tables and indexes into the page cache in ${((performance.now() - t) / 1000).toFixed(0)} s`,
  );
};

/**
 * What a kept database was seeded with: measured again only when the settings are the same. The
 * seed times are `json`, which keeps the phases in the order they ran (`jsonb` sorts its keys).
 */
const SEED_MARK = `CREATE TABLE public.bench_year_seed (records bigint, boxes bigint, locations bigint, seed_seconds json)`;

const runDesign = async (adminUrl: string, design: Design, s: YearSettings): Promise<DesignResult> => {
  const database = s.keep ? `cargo_bench_year_${design}` : 'cargo_bench_year';
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const { rows: existing } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const zongpai = Math.ceil(s.boxes / 20);
  const d: Shape = { boxes: s.boxes, zongpai, cargo: s.boxes + zongpai, records: s.records, locations: s.locations };
  if (d.records < d.cargo) throw new Error('BENCH_YEAR_RECORDS must be at least the number of boxes and zongpais');
  let seedSeconds: Record<string, number> | undefined;
  if (s.keep && existing.length > 0) {
    const kept = new pg.Client({ connectionString: url.toString() });
    await kept.connect();
    const { rows } = await kept
      .query<{ seed_seconds: Record<string, number> }>(
        `SELECT seed_seconds FROM public.bench_year_seed
         WHERE records = $1 AND boxes = $2 AND locations = $3
           AND (SELECT datcollate FROM pg_database WHERE datname = current_database()) = $4`,
        [d.records, d.boxes, d.locations, s.locale],
      )
      .catch(() => ({ rows: [] }));
    await kept.end();
    seedSeconds = rows[0]?.seed_seconds;
    if (seedSeconds !== undefined) log(`${design}: measuring the kept database ${database} again`);
  }
  if (seedSeconds === undefined) {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${database} TEMPLATE template0 LOCALE '${s.locale}'`).catch((error: Error) => {
      throw new Error(
        `${error.message}: the machine needs the locale BENCH_YEAR_LOCALE names (on Debian: apt-get install locales, add "en_US.UTF-8 UTF-8" to /etc/locale.gen, locale-gen), or BENCH_YEAR_LOCALE=C`,
      );
    });
  }
  await admin.end();
  const client = new pg.Client({ connectionString: url.toString(), options: '-c TimeZone=UTC' });
  await client.connect();
  try {
    const fresh = seedSeconds === undefined;
    if (seedSeconds === undefined) {
      await client.query('CREATE SCHEMA cargo');
      for (const m of migrations.filter((m) => design === 'partitioned' || m.id < 5))
        for (const step of m.statements)
          for (const sql of await stepStatements(step, (q) => client.query<{ statement: string }>(q)))
            await client.query(sql);
      const start = new Date(Date.now() - 365 * 86_400_000 - 60_000).toISOString();
      log(
        `${design}: seeding ${d.records} records of ${d.cargo} cargo (${d.boxes} boxes, ${d.zongpai} zongpais) at ${d.locations} locations, in a database of locale ${s.locale}`,
      );
      seedSeconds = await seed(client, design, d, start);
      await client.query(SEED_MARK);
      await client.query('INSERT INTO public.bench_year_seed VALUES ($1, $2, $3, $4)', [
        d.records,
        d.boxes,
        d.locations,
        JSON.stringify(seedSeconds),
      ]);
    }
    if (design === 'partitioned') {
      // The hourly maintenance, as on an install that has kept a year of scans: among other
      // things it drops the empty months a new layout made back to the retention cutoff.
      const { text, values } = positional(MAINTAIN_SQL, { months_kept: 25, months_ahead: MONTHS_AHEAD });
      const { rows } = await client.query<{ summary: { folded: string[] } }>(text, values);
      log(`  maintenance: ${rows[0]?.summary.folded.length ?? 0} empty months before the history dropped`);
    }
    await prewarm(client);
    // 0 after seeding; on a kept database, the records earlier runs' statements stored. Each run
    // draws its cargo from streams of its own, so that a rerun does not scan the cargo of the run
    // before it at the same locations: their current locations would be updated in place (HOT)
    // where a warehouse's scans move them, and their trails would be in the cache already.
    const { rows: stored } = await client.query<{ since_seed: string }>(
      `SELECT (pg_sequence_last_value(pg_get_serial_sequence('cargo.location_record', 'id')) - $1)::text AS since_seed`,
      [d.records],
    );
    const stream = Number(stored[0]?.since_seed ?? 0);
    if (stream > 0) log(`  ${stream} records stored since the seed: this run's cargo drawn from other streams`);
    // The scans to void: the current one of as many distinct boxes as the void's timed and
    // watched passes take, from location_current (which the void reads anyway), so that no query
    // beforehand reads the history they will read.
    const rnd = random(11 + stream);
    const boxes = new Set<string>();
    while (design === 'partitioned' && boxes.size < 2 * s.samples + 40) boxes.add(cargoOf(rnd.int(1, d.boxes), d));
    const { rows: toVoid } =
      design === 'partitioned'
        ? await client.query<{ cargo: string; id: string }>(
            'SELECT cargo_no AS cargo, record_id::text AS id FROM cargo.location_current WHERE cargo_no = ANY($1::text[])',
            [[...boxes]],
          )
        : { rows: [] };
    const cpuBefore = await cpuReference(client, 10);
    const results: StatementResult[] = [];
    const watcher = new pg.Client({ connectionString: url.toString() });
    await watcher.connect();
    try {
      for (const statement of statements(design, d, toVoid, stream))
        results.push(await measure(client, watcher, statement, s.samples));
    } finally {
      await watcher.end();
    }
    const sized = await sizes(client);
    if (design === 'partitioned' && s.dropMonth) results.push(await dropMonth(client, url.toString(), d));
    else if (design === 'partitioned')
      log(`  drop a month: not measured (BENCH_YEAR_KEEP keeps the data; BENCH_YEAR_DROP_MONTH=1 drops one)`);
    if (!fresh) log(`${design}: seeded earlier, seed times are the seeding run's`);
    const floor = await commitFloor(client, Math.max(100, s.samples));
    log(
      `  commit floor (a one-row INSERT committed alone): p50 ${floor.p50.toFixed(2)} / p99 ${floor.p99.toFixed(2)} ms`,
    );
    const cpu = { before: cpuBefore, after: await cpuReference(client, 10) };
    log(
      `  CPU reference (a million rows counted): p50 ${cpu.before.p50.toFixed(1)} ms before the statements, ${cpu.after.p50.toFixed(1)} ms after`,
    );
    return { design, seedSeconds, sizes: sized, statements: results, commitFloor: floor, cpuReference: cpu };
  } finally {
    await client.end();
    if (!s.keep) {
      const drop = new pg.Client({ connectionString: adminUrl });
      await drop.connect();
      await drop.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await drop.end();
    }
  }
};

/**
 * @example
 * ```ts
 * const result = await runYear(readYearSettings({ BENCH_YEAR_RECORDS: '2000000', BENCH_YEAR_BOXES: '20000' }));
 * ```
 */
export const runYear = async (s: YearSettings): Promise<YearResult> => {
  const cluster = s.url === undefined ? startCluster(s) : { url: s.url, stop: () => undefined };
  try {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    const { rows } = await admin.query<{ name: string; setting: string }>(
      `SELECT 'version' AS name, version() AS setting UNION ALL
       SELECT name, current_setting(name) FROM pg_settings WHERE name IN ('shared_buffers', 'effective_cache_size', 'work_mem', 'synchronous_commit', 'random_page_cost', 'bgwriter_delay', 'bgwriter_lru_maxpages', 'bgwriter_lru_multiplier', 'full_page_writes')`,
    );
    await admin.end();
    const designs: DesignResult[] = [];
    for (const design of s.designs) designs.push(await runDesign(cluster.url, design, s));
    return { settings: s, server: Object.fromEntries(rows.map((r) => [r.name, r.setting])), designs };
  } finally {
    cluster.stop();
  }
};
