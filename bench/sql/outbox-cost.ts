import type { Db, QueryResult, Row, SqlParams } from '../../lib/db/types.ts';
import { makeBoxSave } from '../../lib/box/index.ts';
import type { Config } from '../../lib/config.ts';
import { makeScanRecorder } from '../../lib/location/index.ts';
import { summarize, type Summary } from '../support/stats.ts';
import { workBoxNo, zongpaiNo, isClosed, type Dataset } from './dataset.ts';
import { random, WARMUP } from './workload.ts';

/** One write measured with its outbox CTEs and without them, in turns. */
export interface OutboxCost {
  readonly name: string;
  /** Events the statement writes. */
  readonly events: number;
  readonly withOutbox: Summary;
  readonly withoutOutbox: Summary;
}

const OUTBOX_START = 'outbox_rows AS (';
const OUTBOX_END = 'FROM outbox_rows e CROSS JOIN outbox_sequence q\n)';

/**
 * The statement without its outbox: the `outbox_rows`, `outbox_sequence` and `outbox` CTEs cut
 * out (lib/events/write.ts), everything else as the service sends it. Throws when there is none.
 */
export const withoutOutbox = (sql: string): string => {
  const start = sql.indexOf(OUTBOX_START);
  const end = sql.indexOf(OUTBOX_END);
  if (start < 0 || end < start) throw new Error('the statement has no outbox to leave out');
  const before = sql.slice(0, start);
  const after = sql.slice(end + OUTBOX_END.length);
  return /^\s*,/.test(after) ? before + after.replace(/^\s*,\s*/, '') : before.replace(/,\s*$/, '\n') + after;
};

/** A Db that sends every statement with its outbox left out. */
const outboxLess = (db: Db): Db => ({
  query: <R extends Row = Row>(sql: string, params?: SqlParams): Promise<QueryResult<R>> =>
    db.query<R>(withoutOutbox(sql), params),
  transaction: (work) => db.transaction(work),
});

/**
 * The outbox's cost on the two largest writes, measured in the same run on the same data: the
 * 500-record backlog (500 `cargo.located` events) and the 500-item save (one `box.saved` event,
 * its items listed in the event). Each sample runs the capability the function runs, once as
 * it is and once with the outbox CTEs cut out of its statement, in alternating order; `time`
 * returns the statement time of what it runs (bench/support/timed-backend.ts).
 *
 * @example
 * ```ts
 * const costs = await measureOutboxCost(service.stack.db, config, d, 60, timeStatement);
 * ```
 */
export const measureOutboxCost = async (
  db: Db,
  config: Config,
  d: Dataset,
  samples: number,
  time: (work: () => Promise<unknown>) => Promise<number>,
): Promise<OutboxCost[]> => {
  const rnd = random(7);
  const variants = [
    { record: makeScanRecorder({ db }), save: makeBoxSave({ db, config }) },
    { record: makeScanRecorder({ db: outboxLess(db) }), save: makeBoxSave({ db: outboxLess(db), config }) },
  ] as const;
  // The open pallets of the lower half, as the workload's saves use (the close scenario closes pallets of the upper half).
  const openPallets = Array.from({ length: Math.max(1, Math.floor(d.zongpai / 2)) }, (_, k) => k + 1).filter(
    (z) => !isClosed(z),
  );
  const open = (i: number) => zongpaiNo(openPallets[(i * 7919) % openPallets.length] as number);
  const backlog = (i: number) =>
    Array.from({ length: 500 }, (_, k) => ({
      cargo_no: `OB-${String(i).padStart(4, '0')}-${String(k % 250).padStart(3, '0')}`,
      location_code: `D-${String(rnd.int(0, 39)).padStart(2, '0')}-01`,
      off_shelf: false,
      scanned_at: new Date(Date.now() - (500 - k) * 60_000).toISOString(),
      device_id: 'PDA-09',
    }));
  const items = Array.from({ length: 500 }, (_, k) => ({
    item_code: `SKU-${String(k + 1).padStart(5, '0')}`,
    quantity: 1 + (k % 9),
  }));
  const backlogMs: [number[], number[]] = [[], []];
  const saveMs: [number[], number[]] = [[], []];
  let box = 0;
  for (let i = 0; i < WARMUP + samples; i += 1) {
    // Alternate which variant goes first, so neither always runs on the other's warm cache.
    for (const v of i % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const)) {
      const variant = variants[v];
      const b = await time(() => variant.record(backlog(2 * i + v), 'bench'));
      box += 1;
      const s = await time(() => variant.save({ box_no: workBoxNo('O', box), zongpai_no: open(box), items }, 'bench'));
      if (i < WARMUP) continue;
      backlogMs[v].push(b);
      saveMs[v].push(s);
    }
  }
  return [
    {
      name: 'POST location, backlog of 500',
      events: 500,
      withOutbox: summarize(backlogMs[0]),
      withoutOutbox: summarize(backlogMs[1]),
    },
    { name: 'POST box, 500 items', events: 1, withOutbox: summarize(saveMs[0]), withoutOutbox: summarize(saveMs[1]) },
  ];
};
