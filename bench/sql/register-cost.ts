import { readFileSync } from 'node:fs';
import type pg from 'pg';
import type { Db } from '../../lib/db/types.ts';
import { compileWrite } from '../../lib/db/write.ts';
import { recordStatement, SCANS_FROM, scanProbesSql } from '../../lib/location/locations.ts';
import type { Config } from '../../lib/config.ts';
import { makeScanRecorder } from '../../lib/location/index.ts';
import { summarize, type Summary } from '../support/stats.ts';
import { cargoNo, isRegisterBlocked, registerCode, registerKind, type Dataset } from './dataset.ts';
import { indexesUsed, seqScans, type ExplainOutput } from './plans.ts';
import { positional } from './positional.ts';
import { WARMUP } from './workload.ts';

/** One way of storing scans: without the register's checks, or with them under a setting. */
export interface RegisterVariant {
  readonly name: string;
  readonly statement: Summary;
  /** Its first statement under EXPLAIN (ANALYZE, BUFFERS), before the timed ones. */
  readonly explain: {
    readonly planningMs: number;
    readonly executionMs: number;
    readonly indexes: readonly string[];
    readonly seqScans: readonly string[];
  } | null;
}

/** A scan request measured in each variant, in turns, on the same data. */
export interface RegisterCost {
  readonly name: string;
  readonly targetMs: number;
  /** Unchecked first (the reference), then the checks with the default settings and with LOCATIONS_REGISTERED_ONLY=true. */
  readonly variants: readonly RegisterVariant[];
}

/**
 * The register's cost on a scan and on a backlog of 500: the statement the route runs, with the
 * default settings and with LOCATIONS_REGISTERED_ONLY=true, beside the unchecked statement of
 * the schemas before the register, in rotating order (each variant first in a third of the
 * samples), on the same database. Every scan is of seeded cargo at a registered shelf that is
 * not blocked, without `off_shelf`, as handhelds send them: the checks find nothing, every scan
 * is stored. A backlog is measured at 50 shelves (10 scans each, a put-away) and at 500 (one
 * scan each: every location probed once per scan). `explain` runs its work with the first statement explained (ANALYZE, BUFFERS, rolled
 * back) and answers that plan.
 *
 * @example
 * ```ts
 * const costs = await measureRegisterCost(service.stack.db, config, d, { single: 300, backlog: 60 }, time, explain, big);
 * ```
 */
export const measureRegisterCost = async (
  db: Db,
  config: Config,
  d: Dataset,
  samples: { readonly single: number; readonly backlog: number },
  time: (work: () => Promise<unknown>) => Promise<number>,
  explain: (work: () => Promise<unknown>) => Promise<ExplainOutput | undefined>,
  bigTables: readonly string[],
): Promise<RegisterCost[]> => {
  const variants = [
    { name: 'unchecked (before the register)', record: makeScanRecorder({ db }) },
    {
      name: 'checked, default settings',
      record: makeScanRecorder({ db, config: { ...config, locationsRegisteredOnly: false } }),
    },
    {
      name: 'checked, LOCATIONS_REGISTERED_ONLY=true',
      record: makeScanRecorder({ db, config: { ...config, locationsRegisteredOnly: true } }),
    },
  ] as const;
  // Shelves of levels 00-01 that are not blocked (the register holds them at every size).
  const shelves = Array.from({ length: Math.min(d.register, 2000) }, (_, n) => n).filter(
    (n) => registerKind(n) === 'SHELF' && !isRegisterBlocked(n),
  );
  let next = 0;
  const scan = () => {
    next += 1;
    return {
      cargo_no: cargoNo(d, 1 + ((next * 104_729) % d.cargo)),
      location_code: registerCode(shelves[(next * 7919) % shelves.length] as number),
      device_id: 'PDA-11',
    };
  };
  /** 500 scans, at `places` shelves (10 cargo on each of 50, or each scan at its own shelf). */
  const backlog = (places: number) => () => {
    const first = next;
    return Array.from({ length: 500 }, (_, k) => {
      const one = scan();
      const shelf = shelves[((first + (k % places)) * 7919) % shelves.length] as number;
      return {
        ...one,
        location_code: registerCode(shelf),
        scanned_at: new Date(Date.now() - (500 - k) * 60_000).toISOString(),
      };
    });
  };
  const measure = async (
    name: string,
    targetMs: number,
    count: number,
    request: () => ReturnType<typeof scan>[],
  ): Promise<RegisterCost> => {
    const plans: (ExplainOutput | undefined)[] = [];
    for (const v of variants) plans.push(await explain(() => v.record(request(), 'bench')));
    const ms: number[][] = variants.map(() => []);
    for (let i = 0; i < WARMUP + count; i += 1) {
      for (let k = 0; k < variants.length; k += 1) {
        const v = (i + k) % variants.length;
        const scans = request();
        const took = await time(() => (variants[v] as (typeof variants)[number]).record(scans, 'bench'));
        if (i >= WARMUP) ms[v]?.push(took);
      }
    }
    return {
      name,
      targetMs,
      variants: variants.map((v, k) => {
        const plan = plans[k];
        return {
          name: v.name,
          statement: summarize(ms[k] ?? []),
          explain:
            plan === undefined
              ? null
              : {
                  planningMs: plan['Planning Time'],
                  executionMs: plan['Execution Time'],
                  indexes: indexesUsed(plan.Plan),
                  seqScans: seqScans(plan.Plan, bigTables),
                },
        };
      }),
    };
  };
  return [
    await measure('POST location, one scan', 10, samples.single, () => [scan()]),
    await measure('POST location, backlog of 500 at 50 shelves', 50, samples.backlog, backlog(50)),
    await measure('POST location, backlog of 500 at 500 shelves', 50, samples.backlog, backlog(500)),
  ];
};

/** The checks' ratio to the unchecked statement, at p50 and p99, of each checked variant. */
export const registerRatios = (cost: RegisterCost): { name: string; p50: number; p99: number }[] => {
  const [unchecked, ...checked] = cost.variants;
  if (unchecked === undefined) return [];
  return checked.map((v) => ({
    name: v.name,
    p50: v.statement.p50 / unchecked.statement.p50,
    p99: v.statement.p99 / unchecked.statement.p99,
  }));
};

/** The most the checks may cost: 1.1 × the unchecked statement's time. */
export const REGISTER_RATIO_MAX = 1.1;

/** Every checked variant within its target at p99, no worse than {@link REGISTER_RATIO_MAX} × unchecked, without a sequential scan. */
export const registerCostMet = (cost: RegisterCost): boolean =>
  cost.variants.every((v) => v.statement.p99 < cost.targetMs && (v.explain?.seqScans.length ?? 0) === 0) &&
  registerRatios(cost).every((r) => r.p50 <= REGISTER_RATIO_MAX && r.p99 <= REGISTER_RATIO_MAX);

/** The CPU time of one variant's statement in the server's backend, per request. */
export interface RegisterCpu {
  readonly name: string;
  /** Per variant, as in {@link RegisterCost}: milliseconds of CPU, not of the clock. */
  readonly variants: readonly { readonly name: string; readonly cpu: Summary; readonly wall: Summary }[];
}

/** The CPU time a process has run so far, in ms (`/proc/PID/schedstat`, Linux); undefined when not readable here. */
const cpuMs = (pid: number): number | undefined => {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return undefined;
  }
};

/**
 * The same comparison as {@link measureRegisterCost} by the CPU time the server's backend spends
 * on each statement (parsing, planning, executing and committing it; not the WAL flush's wait),
 * which a machine shared with other work leaves as it is where it stretches the clock time. The
 * statements go over `client`, a direct connection to a server on this machine, as the Data API
 * emulator sends them, each committed and followed by the Data API's reset of the session. Two
 * reads take their turns with them: the scans read alone, and read with the checks' index probes;
 * what the second costs over the first is the probes' own share of the checks. Undefined when the server's processes are not readable here (a server on
 * another machine).
 *
 * @example
 * ```ts
 * const cpu = await measureRegisterCpu(direct, config, d, { single: 300, backlog: 60 });
 * ```
 */
export const measureRegisterCpu = async (
  client: pg.Client,
  config: Config,
  d: Dataset,
  samples: { readonly single: number; readonly backlog: number },
): Promise<RegisterCpu[] | undefined> => {
  const pid = Number((await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid);
  if (cpuMs(pid) === undefined) return undefined;
  const variants = [
    { name: 'unchecked (before the register)', sql: compileWrite(recordStatement()).plain, checked: false },
    {
      name: 'checked, default settings',
      sql: compileWrite(recordStatement(config.erpBoxView)).plain,
      checked: true,
      registeredOnly: false,
    },
    {
      name: 'checked, LOCATIONS_REGISTERED_ONLY=true',
      sql: compileWrite(recordStatement(config.erpBoxView)).plain,
      checked: true,
      registeredOnly: true,
    },
    // Two reads that store nothing, so that the checks' index probes can be told from the rest:
    // the request's scans read alone, and read with the checks' probes of the register, the
    // zongpais, the boxes and the ERP plan (the same CTEs as the route's statement). Their
    // difference is what the probes themselves cost, which no arrangement of the checks saves.
    {
      name: 'reference: the scans read alone (SELECT)',
      sql: `WITH scans AS (SELECT s.* FROM ${SCANS_FROM}) SELECT count(*) AS scans FROM scans`,
      checked: true,
      registeredOnly: false,
    },
    {
      name: "reference: the scans read with the checks' probes (SELECT)",
      sql: `WITH ${scanProbesSql(config.erpBoxView)}
SELECT (SELECT count(*) FROM registered) AS registered, (SELECT count(*) FROM cargo_codes) AS cargo`,
      checked: true,
      registeredOnly: false,
    },
  ];
  const shelves = Array.from({ length: Math.min(d.register, 2000) }, (_, n) => n).filter(
    (n) => registerKind(n) === 'SHELF' && !isRegisterBlocked(n),
  );
  let next = 1_000_000;
  const scans = (count: number, places: number) => {
    const first = next;
    return Array.from({ length: count }, (_, k) => {
      next += 1;
      return {
        cargo_no: cargoNo(d, 1 + ((next * 104_729) % d.cargo)),
        location_code: registerCode(shelves[((first + (k % places)) * 7919) % shelves.length] as number),
        off_shelf: null as boolean | null,
        scanned_at: new Date(Date.now() - (count - k) * 60_000).toISOString(),
        device_id: 'PDA-12',
      };
    });
  };
  const measure = async (name: string, count: number, size: number, places: number): Promise<RegisterCpu> => {
    const cpu: number[][] = variants.map(() => []);
    const wall: number[][] = variants.map(() => []);
    for (let i = 0; i < WARMUP + count; i += 1) {
      for (let k = 0; k < variants.length; k += 1) {
        const v = (i + k) % variants.length;
        const variant = variants[v] as (typeof variants)[number];
        const list = scans(size, places).map((s) => (variant.checked ? s : { ...s, off_shelf: false }));
        const { text, values } = positional(variant.sql, {
          scans: JSON.stringify(list),
          recorded_by: 'bench',
          ...(variant.checked ? { registered_only: variant.registeredOnly } : {}),
        });
        const cpuBefore = cpuMs(pid) ?? 0;
        const started = performance.now();
        await client.query(text, values);
        const took = performance.now() - started;
        const used = (cpuMs(pid) ?? 0) - cpuBefore;
        // The Data API runs DISCARD ALL before it lends a connection to the next call ("Session
        // management with Amazon RDS Data API", Aurora User Guide), as its emulator does: no plan
        // a statement made outlives its call. Outside the measured time, as on AWS.
        await client.query('DISCARD ALL');
        if (i < WARMUP) continue;
        cpu[v]?.push(used);
        wall[v]?.push(took);
      }
    }
    return {
      name,
      variants: variants.map((v, k) => ({
        name: v.name,
        cpu: summarize(cpu[k] ?? []),
        wall: summarize(wall[k] ?? []),
      })),
    };
  };
  return [
    await measure('POST location, one scan', samples.single, 1, 1),
    await measure('POST location, backlog of 500 at 50 shelves', samples.backlog, 500, 50),
    await measure('POST location, backlog of 500 at 500 shelves', samples.backlog, 500, 500),
  ];
};
