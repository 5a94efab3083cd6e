/**
 * What a bench run may be told through the environment. Dataset sizes scale with BENCH_SCALE
 * (1 = the sizes of the issue: 1 M location records, 200 k boxes, ...), and each can be set
 * on its own; BENCH_SCALE=0.01 is a smoke run of a minute or two.
 */
export interface BenchSettings {
  /** A PostgreSQL URL of a database the bench may connect to in order to create its own. */
  readonly adminUrl: string;
  /** The throwaway database of the SQL section, dropped and created on every run. */
  readonly database: string;
  readonly scale: number;
  readonly locations: number;
  readonly cargo: number;
  readonly boxes: number;
  readonly itemsPerBox: number;
  readonly boxesPerZongpai: number;
  readonly planRows: number;
  readonly idempotencyKeys: number;
  /** Locations in the register (`cargo.location`), some of them blocked. */
  readonly registerLocations: number;
  /** Timed requests per read scenario; writes and the 500-record/500-item requests take fewer. */
  readonly samples: number;
  /** Fresh Node processes per bundle for the cold import time. */
  readonly coldRuns: number;
  /**
   * Another checkout of the service (its own `npm install` done), whose bundles the cold start
   * weighs and times in turns with this one's: what a change did to them (BENCH_COLD_BASELINE).
   */
  readonly coldBaseline?: string;
  /** Keep the SQL section's database after the run (to look at it with psql). */
  readonly keepDatabase: boolean;
}

const number = (env: NodeJS.ProcessEnv, name: string, fallback: number): number => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got '${raw}'`);
  return value;
};

/**
 * @example
 * ```ts
 * readBenchSettings({ BENCH_SCALE: '0.01' }).locations; // 10000
 * ```
 */
export const readBenchSettings = (env: NodeJS.ProcessEnv = process.env): BenchSettings => {
  const scale = number(env, 'BENCH_SCALE', 1);
  const scaled = (name: string, full: number, least: number) =>
    Math.max(least, Math.round(number(env, name, full * scale)));
  const database = env.BENCH_DATABASE ?? 'cargo_bench';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(database))
    throw new Error(`BENCH_DATABASE must be a lower-case identifier, got '${database}'`);
  return {
    adminUrl: env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    database,
    scale,
    locations: scaled('BENCH_LOCATIONS', 1_000_000, 1_000),
    cargo: scaled('BENCH_CARGO', 100_000, 100),
    boxes: scaled('BENCH_BOXES', 200_000, 500),
    itemsPerBox: Math.round(number(env, 'BENCH_ITEMS_PER_BOX', 5)),
    boxesPerZongpai: Math.round(number(env, 'BENCH_BOXES_PER_ZONGPAI', 20)),
    planRows: scaled('BENCH_PLAN_ROWS', 200_000, 1_000),
    idempotencyKeys: scaled('BENCH_IDEMPOTENCY_KEYS', 200_000, 100),
    // At least 4 000: aisles A-Y, bays 00-39 and levels 00-03, which hold every code the workload scans.
    registerLocations: scaled('BENCH_REGISTER_LOCATIONS', 50_000, 4_000),
    samples: Math.round(number(env, 'BENCH_SAMPLES', scale < 0.1 ? 60 : 300)),
    coldRuns: Math.max(10, Math.round(number(env, 'BENCH_COLD_RUNS', 15))),
    keepDatabase: env.BENCH_KEEP_DATABASE === 'true',
    ...(env.BENCH_COLD_BASELINE ? { coldBaseline: env.BENCH_COLD_BASELINE } : {}),
  };
};
