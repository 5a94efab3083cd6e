import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db, Row, SqlParams } from '../../lib/db/types.ts';
import type { EventBus } from '../../lib/events/bus.ts';
import { markPublished, readPending } from '../../lib/events/outbox.ts';
import { countingDb, startRelayFixture, type RelayFixture } from '../support/relay.ts';

/**
 * Runs of the relay that overlap (a slow run and the next minute's, or a retried invocation):
 * the lease in `cargo.event_relay` lets one publish at a time, and a lease whose run died is
 * taken over once it expires.
 */
let fx: RelayFixture;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const sequences = () => fx.delivered().map((event) => event.sequence);
const lease = async () =>
  (
    await fx.admin.query<{ holder: string | null; expired: boolean | null }>(
      'SELECT lease_holder::text AS holder, lease_until <= now() AS expired FROM cargo.event_relay',
    )
  ).rows[0]!;

/** A promise and the function that settles it. */
const signal = () => {
  let settle!: () => void;
  const done = new Promise<void>((resolve) => (settle = resolve));
  return { done, settle };
};

beforeAll(async () => {
  fx = await startRelayFixture();
});
beforeEach(async () => {
  await fx.reset();
});
afterAll(async () => fx?.close());

describe('event relay lease', () => {
  it('lets one of two runs started at once publish, every event once and in sequence order, and the other yield to its lease', async () => {
    await fx.insertEvents(range(1, 25));
    const bus = fx.bus();
    const firstPut = signal();
    const goOn = signal();
    let puts = 0;
    // The first run's first PutEvents waits until the second run has finished.
    const slowBus: EventBus = {
      put: async (entries) => {
        if ((puts += 1) === 1) {
          firstPut.settle();
          await goOn.done;
        }
        return bus.put(entries);
      },
    };
    const firstDb = countingDb(fx.relayDb);
    const secondDb = countingDb(fx.relayDb);

    const first = fx.relay({ db: firstDb, bus: slowBus, pageSize: 10 }).run();
    await firstPut.done;
    const second = await fx.relay({ db: secondDb, pageSize: 10 }).run();
    goOn.settle();
    const report = await first;

    expect(sequences()).toEqual(range(1, 25));
    expect(report).toMatchObject({ published: 25, retries: 0, oldestUnpublishedAgeSeconds: 0 });
    expect(report.yielded).toBeUndefined();
    expect(second).toMatchObject({ published: 0, yielded: 'busy' });
    // One statement per step: the second run read (and found the lease held), then measured.
    expect(secondDb.statements).toHaveLength(2);
    // The first: three pages, three marks, one pruning, the measure that released the lease.
    expect(firstDb.statements).toHaveLength(8);
    expect(await fx.lastPublished()).toBe(25);
    expect(await lease()).toEqual({ holder: null, expired: null });
  });

  it('publishes every event exactly once, in sequence order, however many runs race', async () => {
    await fx.insertEvents(range(1, 40));

    const reports = await Promise.all(range(1, 4).map(() => fx.relay({ pageSize: 10 }).run()));

    expect(sequences()).toEqual(range(1, 40));
    expect(reports.reduce((n, r) => n + r.published, 0)).toBe(40);
    expect(await fx.lastPublished()).toBe(40);
    expect(await lease()).toEqual({ holder: null, expired: null });
  });

  it('leaves the outbox to a run that holds an unexpired lease, and takes the lease over once it expired', async () => {
    await fx.insertEvents(range(1, 3));
    await fx.admin.query(
      `UPDATE cargo.event_relay SET lease_holder = gen_random_uuid(), lease_until = now() + interval '1 minute'`,
    );
    const held = await lease();

    expect(await fx.relay().run()).toMatchObject({ published: 0, yielded: 'busy' });
    expect(sequences()).toEqual([]);
    expect(await lease()).toEqual(held);

    // Its run died without releasing it: once expired, the next run takes it over.
    await fx.admin.query(`UPDATE cargo.event_relay SET lease_until = now() - interval '1 second'`);
    const report = await fx.relay().run();

    expect(report).toMatchObject({ published: 3, oldestUnpublishedAgeSeconds: 0 });
    expect(report.yielded).toBeUndefined();
    expect(sequences()).toEqual([1, 2, 3]);
    expect(await lease()).toEqual({ holder: null, expired: null });
  });

  it('stops a run that stalled past its lease before its next PutEvents, and the run that took over publishes on in order', async () => {
    await fx.insertEvents(range(1, 20));
    let clock = Date.now();
    const marked = signal();
    const goOn = signal();
    // After marking its first batch, the first run stalls a minute, past half its lease of 90 s.
    const stalls: Db = {
      query: async <R extends Row = Row>(sql: string, params?: SqlParams) => {
        const result = await fx.relayDb.query<R>(sql, params);
        if (sql.includes('SET last_published')) {
          marked.settle();
          await goOn.done;
          clock += 60_000;
        }
        return result;
      },
      transaction: (work) => fx.relayDb.transaction(work),
    };

    const first = fx.relay({ db: stalls, now: () => clock }).run();
    await marked.done;
    // Meanwhile its lease ran out, and the next run took it over.
    await fx.admin.query(`UPDATE cargo.event_relay SET lease_until = now() - interval '1 second'`);
    const second = await fx.relay().run();
    goOn.settle();
    const report = await first;

    expect(sequences()).toEqual(range(1, 20));
    expect(report).toMatchObject({ published: 10, yielded: 'lost' });
    expect(second).toMatchObject({ published: 10, oldestUnpublishedAgeSeconds: 0 });
    expect(await fx.lastPublished()).toBe(20);
  });

  it('never lets a run whose lease another took over move the mark', async () => {
    await fx.insertEvents(range(1, 5));
    const mine = { holder: '6d1c1f5e-4d4b-4f8e-9a51-0d3c2b1a0f00', seconds: 90 };
    expect((await readPending(fx.relayDb, mine, 10)).held).toBe(true);
    await fx.admin.query(`UPDATE cargo.event_relay SET lease_holder = gen_random_uuid()`);

    expect(await markPublished(fx.relayDb, mine, 5)).toBe(false);
    expect(await fx.lastPublished()).toBe(0);
    expect((await readPending(fx.relayDb, mine, 10)).held).toBe(false);
  });
});
