import { tmpdir } from 'node:os';
import path from 'node:path';

/** The year benchmark's settings, from the environment (readYearSettings). */
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
  /**
   * When the seeded year ends (BENCH_YEAR_END, an ISO time; default: the run's start): the
   * statements' scans are timed from it, so that a date near a month's end measures the current
   * month's partition and indexes as full as they get.
   */
  readonly end?: string;
  /**
   * Records a day in the month of BENCH_YEAR_END, up to it (BENCH_YEAR_MONTH_RATE, e.g. 400000 for a
   * large warehouse); the other records spread evenly over the months before. Default: every
   * record spread evenly over the year.
   */
  readonly monthRate?: number;
}

export type Design = 'partitioned' | 'unpartitioned';

/** A migration's number as its file names it: 022. */
export const idOf = (id: number) => String(id).padStart(3, '0');

/** Migrations by number, the first to the last: `022`, or `022-024`. */
export const idRange = (ids: readonly number[]): string =>
  ids.length === 1 ? idOf(ids[0] ?? 0) : `${idOf(ids[0] ?? 0)}-${idOf(ids.at(-1) ?? 0)}`;

/** The migrations a run applied to the seeded year: `migration 022`, or `migrations 022-024`. */
export const migrationNames = (ids: readonly number[]): string =>
  `${ids.length === 1 ? 'migration' : 'migrations'} ${idRange(ids)}`;

/** One line of the year benchmark's progress, on stderr. */
export const log = (line: string) => process.stderr.write(`year: ${line}\n`);
const positive = (env: NodeJS.ProcessEnv, name: string, fallback: number) => {
  const value = Number(env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${name} must be a positive whole number, got '${env[name]}'`);
  return value;
};

const isoTime = (text: string): string => {
  const t = Date.parse(text);
  if (Number.isNaN(t))
    throw new Error(`BENCH_YEAR_END must be an ISO time such as 2026-11-30T12:00:00Z, got '${text}'`);
  return new Date(t).toISOString();
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
    ...(env.BENCH_YEAR_END === undefined ? {} : { end: isoTime(env.BENCH_YEAR_END) }),
    ...(env.BENCH_YEAR_MONTH_RATE === undefined ? {} : { monthRate: positive(env, 'BENCH_YEAR_MONTH_RATE', 1) }),
  };
};
