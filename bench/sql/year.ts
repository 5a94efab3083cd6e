import pg from 'pg';
import { stepStatements } from '../../lib/db/migrate.ts';
import { migrations } from '../../lib/db/migrations/index.ts';
import { databaseFunctions } from '../../lib/db/sql-functions/index.ts';
import { MAINTAIN_SQL, MONTHS_AHEAD } from '../../lib/location/history.ts';
import { RECORD, TRAIL_SQL } from '../../lib/location/locations.ts';
import { compileWrite } from '../../lib/db/write.ts';
import { backToTrailByCargo, RECORD_BY_CARGO, TRAIL_BY_CARGO_SQL, VOID_CURRENT_BY_CARGO } from './trail-by-cargo.ts';
import type { Summary } from '../support/stats.ts';
import { commitFloor, cpuReference } from './commit-floor.ts';
import { positional } from './positional.ts';
import { random } from './workload.ts';
import { prewarm, startCluster } from './year-cluster.ts';
import { dropMonth } from './year-drop.ts';
import { measure, statements, type StatementResult } from './year-measure.ts';
import { longAgoBoxes } from './year-long-ago.ts';
import { cargoOf, fillSpans, seed, sizes, timeline, type Shape } from './year-seed.ts';
import { idOf, idRange, log, migrationNames, type Design, type YearSettings } from './year-settings.ts';

export { readYearSettings } from './year-settings.ts';

export interface DesignResult {
  readonly design: Design;
  /** The design, and for the partitioned one which trail index it was measured with. */
  readonly name?: string;
  /**
   * The migrations from 022 on applied to the seeded year, each of their statements timed: the
   * worst is what the Data API's 45 s bounds. `migrations`, each one's count and time, is absent in
   * runs that applied 022 alone.
   */
  readonly migrationSeconds?: {
    readonly worst: number;
    readonly statements: number;
    readonly total: number;
    readonly migrations?: readonly { readonly id: number; readonly statements: number; readonly total: number }[];
  };
  readonly seedSeconds: Record<string, number>;
  /**
   * The seed's part after the migrations (not theirs): every cargo's span (migration 024) filled
   * from the history, as a warehouse running since 024 has them (year-seed.ts, `fillSpans`).
   */
  readonly spanSeconds?: number;
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

/**
 * What a kept database was seeded with: measured again only when the settings are the same. The
 * seed times are `json`, which keeps the phases in the order they ran (`jsonb` sorts its keys).
 */
interface Phase {
  readonly name: string;
}

/** The first migration the benchmark applies to the seeded year: 022, the trail keyed by week. */
const MIGRATED_FROM = 22;

/** The migrations it applies: 022 and every one after it. */
const MIGRATED_IDS = migrations.map((m) => m.id).filter((id) => id >= MIGRATED_FROM);

/**
 * Every migration from 022 on (the trail keyed by week, and those after it: 023's index of the late
 * scans by cargo, 024's span of each cargo's scans, ...) applied as the migrator applies them, in
 * order, a statement at a time, each timed, in one transaction; then the forms of the database
 * functions that come after 022.
 */
const migrateTimed = async (client: pg.Client): Promise<NonNullable<DesignResult['migrationSeconds']>> => {
  const applied = migrations.filter((m) => m.id >= MIGRATED_FROM).sort((a, b) => a.id - b.id);
  if (applied[0]?.id !== MIGRATED_FROM) throw new Error('no migration 022');
  const times: number[] = [];
  const each: { id: number; statements: number; total: number }[] = [];
  let worst = { seconds: 0, sql: '' };
  await client.query('BEGIN');
  for (const migration of applied) {
    let statements = 0;
    let total = 0;
    for (const step of migration.statements)
      for (const sql of await stepStatements(step, (q) => client.query<{ statement: string }>(q))) {
        const t = performance.now();
        await client.query(sql);
        const seconds = (performance.now() - t) / 1000;
        times.push(seconds);
        statements += 1;
        total += seconds;
        if (seconds > worst.seconds) worst = { seconds, sql };
      }
    each.push({ id: migration.id, statements, total: Number(total.toFixed(1)) });
  }
  for (const fn of databaseFunctions.filter((f) => f.after >= MIGRATED_FROM)) await client.query(fn.sql);
  await client.query('COMMIT');
  const total = times.reduce((a, b) => a + b, 0);
  log(
    `  ${migrationNames(each.map((m) => m.id))}: ${times.length} statements in ${total.toFixed(1)} s (${each.map((m) => `${idOf(m.id)} ${m.statements} in ${m.total.toFixed(1)} s`).join(', ')}), the longest ${worst.seconds.toFixed(1)} s (${worst.sql.slice(0, 90)}…)`,
  );
  return {
    worst: Number(worst.seconds.toFixed(1)),
    statements: times.length,
    total: Number(total.toFixed(1)),
    migrations: each,
  };
};

const SEED_MARK = `CREATE TABLE public.bench_year_seed (records bigint, boxes bigint, locations bigint, seed_seconds json, end_at text, month_rate bigint)`;

const runDesign = async (adminUrl: string, design: Design, s: YearSettings): Promise<DesignResult[]> => {
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
           AND (SELECT datcollate FROM pg_database WHERE datname = current_database()) = $4
           AND end_at IS NOT DISTINCT FROM $5 AND month_rate IS NOT DISTINCT FROM $6`,
        [d.records, d.boxes, d.locations, s.locale, s.end ?? null, s.monthRate ?? null],
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
      for (const m of migrations.filter((m) => (design === 'partitioned' && m.id < 22) || m.id < 5))
        for (const step of m.statements)
          for (const sql of await stepStatements(step, (q) => client.query<{ statement: string }>(q)))
            await client.query(sql);
      // The database functions of a deployment at 021, as the migrator applies them after the
      // migrations: the maintenance's current forms, and the void's as it read the trail keyed by
      // cargo (its current form comes after 024; no migration holds an earlier one).
      if (design === 'partitioned') {
        for (const fn of databaseFunctions.filter((f) => f.after < MIGRATED_FROM)) await client.query(fn.sql);
        await client.query(VOID_CURRENT_BY_CARGO);
      }
      const t = timeline(d.records, s.end ?? new Date().toISOString(), s.monthRate);
      log(
        `${design}: seeding ${d.records} records of ${d.cargo} cargo (${d.boxes} boxes, ${d.zongpai} zongpais) at ${d.locations} locations, in a database of locale ${s.locale}`,
      );
      if (t.older < d.records)
        log(`  ${d.records - t.older} of them from ${t.split} to ${t.end} (${s.monthRate} a day), the others before`);
      seedSeconds = await seed(client, design, d, t);
      await client.query(SEED_MARK);
      await client.query('INSERT INTO public.bench_year_seed VALUES ($1, $2, $3, $4, $5, $6)', [
        d.records,
        d.boxes,
        d.locations,
        JSON.stringify(seedSeconds),
        s.end ?? null,
        s.monthRate ?? null,
      ]);
    }
    if (design === 'partitioned') {
      // The hourly maintenance, as on an install that has kept a year of scans: among other
      // things it drops the empty months a new layout made back to the retention cutoff.
      const { text, values } = positional(MAINTAIN_SQL, { months_kept: 25, months_ahead: MONTHS_AHEAD });
      const { rows } = await client.query<{ summary: { folded: string[] } }>(text, values);
      log(`  maintenance: ${rows[0]?.summary.folded.length ?? 0} empty months before the history dropped`);
    }
    await client
      .query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements')
      .catch((error: Error) => log(`  pg_stat_statements: ${error.message}; misses per sample not counted`));
    // Scans are made at the seeded year's end (BENCH_YEAR_END) and as long after as the run has taken.
    const endMs = s.end === undefined ? undefined : Date.parse(s.end);
    const runStart = Date.now();
    const now = () => (endMs === undefined ? Date.now() : endMs + (Date.now() - runStart));
    const results: DesignResult[] = [];
    const phases: readonly (Phase | undefined)[] =
      design === 'partitioned'
        ? [{ name: 'trail by cargo (before 022)' }, { name: `trail by week (${idRange(MIGRATED_IDS)})` }]
        : [undefined];
    for (const phase of phases) {
      let migrationSeconds: DesignResult['migrationSeconds'];
      let spanSeconds: number | undefined;
      if (phase !== undefined) {
        const { rows: at } = await client.query<{ byWeek: boolean }>(
          `SELECT pg_get_indexdef('cargo.location_record_trail_idx'::regclass) LIKE '%date_bin%' AS "byWeek"`,
        );
        if (phase.name.startsWith('trail by cargo') && at[0]?.byWeek === true) {
          log(
            `  ${phase.name}: the schema before 022 again, the trail index keyed by cargo (the kept database has 022 on)`,
          );
          await backToTrailByCargo(client);
          await client.query('VACUUM (ANALYZE) cargo.location_record');
        }
        if (phase.name.startsWith('trail by week')) {
          migrationSeconds = await migrateTimed(client);
          // Not a migration: the seed's own part, the spans a warehouse running since 024 has.
          spanSeconds = await fillSpans(client);
          await client.query('VACUUM (ANALYZE) cargo.location_record');
        }
      }
      const label = phase === undefined ? design : `${design}, ${phase.name}`;
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
      // As many as the timed and watched passes read, each another box (bench/sql/year-measure.ts).
      const longAgo =
        design === 'partitioned'
          ? await longAgoBoxes(client, d, {
              count: 2 * s.samples + 20,
              stream,
              nowMs: now(),
              storedBy: phase?.name.startsWith('trail by cargo') === true ? 'by cargo' : 'record',
            })
          : [];
      log(`${label}: measuring`);
      await prewarm(client);
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
      const measured: StatementResult[] = [];
      const watcher = new pg.Client({ connectionString: url.toString() });
      await watcher.connect();
      try {
        for (const statement of statements(design, d, toVoid, longAgo, stream, now, {
          ...(phase?.name.startsWith('trail by cargo') === true
            ? { trail: TRAIL_BY_CARGO_SQL, record: compileWrite(RECORD_BY_CARGO).plain }
            : { trail: TRAIL_SQL, record: compileWrite(RECORD).plain }),
        }))
          measured.push(await measure(client, watcher, statement, s.samples));
      } finally {
        await watcher.end();
      }
      const sized = await sizes(client);
      if (design === 'partitioned' && s.dropMonth && phase === phases.at(-1))
        measured.push(await dropMonth(client, url.toString(), d));
      else if (design === 'partitioned')
        log(`  drop a month: not measured (BENCH_YEAR_KEEP keeps the data; BENCH_YEAR_DROP_MONTH=1 drops one)`);
      if (!fresh) log(`${label}: seeded earlier, seed times are the seeding run's`);
      const floor = await commitFloor(client, Math.max(100, s.samples));
      log(
        `  commit floor (a one-row INSERT committed alone): p50 ${floor.p50.toFixed(2)} / p99 ${floor.p99.toFixed(2)} ms`,
      );
      const cpu = { before: cpuBefore, after: await cpuReference(client, 10) };
      log(
        `  CPU reference (a million rows counted): p50 ${cpu.before.p50.toFixed(1)} ms before the statements, ${cpu.after.p50.toFixed(1)} ms after`,
      );
      results.push({
        design,
        name: label,
        seedSeconds,
        sizes: sized,
        statements: measured,
        commitFloor: floor,
        cpuReference: cpu,
        ...(migrationSeconds === undefined ? {} : { migrationSeconds }),
        ...(spanSeconds === undefined ? {} : { spanSeconds }),
      });
    }
    return results;
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
 *
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
    for (const design of s.designs) designs.push(...(await runDesign(cluster.url, design, s)));
    return { settings: s, server: Object.fromEntries(rows.map((r) => [r.name, r.setting])), designs };
  } finally {
    cluster.stop();
  }
};
