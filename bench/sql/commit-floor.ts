import type pg from 'pg';
import { summarize, type Summary } from '../support/stats.ts';

/**
 * The commit floor: one-row INSERTs on a scratch table, each committed on its own
 * (synchronous_commit as the server has it). Every write statement pays it, so a write's p99
 * reads against this one's.
 *
 * @example
 * ```ts
 * const floor = await commitFloor(client, 300); // { p50: 0.4, p99: 2.1, ... }
 * ```
 */
export const commitFloor = async (client: pg.Client, samples: number): Promise<Summary> => {
  await client.query('CREATE TABLE IF NOT EXISTS public.bench_commit_floor (n integer)');
  return timed(samples, (i) => client.query('INSERT INTO public.bench_commit_floor (n) VALUES ($1)', [i]));
};

/** Each of `samples` calls of `run`, one after the other, timed. */
const timed = async (samples: number, run: (i: number) => Promise<unknown>): Promise<Summary> => {
  const times: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const started = performance.now();
    await run(i);
    times.push(performance.now() - started);
  }
  return summarize(times);
};

/**
 * The machine's speed at the time: a fixed piece of executor work (counting a million generated
 * rows, no I/O) timed `samples` times. It is the same on every run of one machine that has its CPU
 * to itself, so a run whose statements are all slower than another's shows it here too.
 *
 * @example
 * ```ts
 * const cpu = await cpuReference(client, 10); // { p50: 48.1, ... }
 * ```
 */
export const cpuReference = (client: pg.Client, samples: number): Promise<Summary> =>
  timed(samples, () => client.query('SELECT count(*) FROM generate_series(1, 1000000)'));
