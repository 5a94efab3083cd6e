import pg from 'pg';
import { MAINTAIN_SQL, MONTHS_AHEAD, type HistoryMaintenance } from '../../lib/location/history.ts';
import { TRAIL_SQL } from '../../lib/location/locations.ts';
import { summarize } from '../support/stats.ts';
import { positional } from './positional.ts';
import type { StatementResult } from './year-measure.ts';
import { cargoOf, type Shape } from './year-seed.ts';
import { log } from './year-settings.ts';

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
