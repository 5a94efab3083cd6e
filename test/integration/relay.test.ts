import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EventBridgeStandIn } from '../../local/eventbridge.ts';
import type { DataApiDb } from '../../lib/db/data-api.ts';
import type { Db } from '../../lib/db/types.ts';
import type { EventEnvelope } from '../../lib/events/entries.ts';
import { PRUNE_SQL } from '../../lib/events/outbox.ts';
import { startRelayFixture, type RelayFixture } from '../support/relay.ts';
import { startTestService } from '../support/service.ts';

/**
 * The event relay against the Data API emulator (signed with the relay's own grant) and the
 * local PutEvents stand-in, through the real SDK clients: what reaches the bus, in what order.
 */
let fx: RelayFixture;
let eventBridge: EventBridgeStandIn;
let admin: DataApiDb;
let relayDb: DataApiDb;

const relay = (db: Db = relayDb, attempts = 3) => fx.relay({ db, attempts });
const insertEvents = (sequences: readonly number[], ageMinutes = 0) => fx.insertEvents(sequences, ageMinutes);
const delivered = () => fx.delivered();
const lastPublished = () => fx.lastPublished();
const sequenceIs = (sequence: number) => (detail: unknown) => (detail as EventEnvelope).sequence === sequence;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

beforeAll(async () => {
  fx = await startRelayFixture();
  ({ admin, relayDb } = fx);
});

beforeEach(async () => {
  eventBridge = await fx.reset();
});

afterAll(async () => fx?.close());

describe('event relay', () => {
  it('publishes every event once, in sequence order, in PutEvents calls of at most 10 entries', async () => {
    await insertEvents([...range(1, 25)].reverse());

    const report = await relay().run();

    expect(delivered().map((event) => event.sequence)).toEqual(range(1, 25));
    expect(eventBridge.calls()).toBe(3);
    expect(report).toMatchObject({ published: 25, retries: 0, oldestUnpublishedAgeSeconds: 0 });
    expect(await lastPublished()).toBe(25);
    expect((await relay().run()).published).toBe(0);
    expect(eventBridge.received()).toHaveLength(25);
  });

  it('publishes 150 events of a box of 400 items each, more than the Data API answers in one result', async () => {
    const items = Array.from({ length: 400 }, (_, i) => ({
      item_code: `SKU-LARGE-EVENT-${String(i).padStart(3, '0')}`,
      quantity: 1,
    }));
    const first = (await lastPublished()) + 1;
    await admin.query(
      `INSERT INTO cargo.event (sequence, id, type, occurred_at, actor, idempotency_key, data)
       SELECT :first - 1 + n, gen_random_uuid(), 'box.saved', now(), 'alice', NULL,
              jsonb_build_object('box_no', 'BOX-LARGE-' || n, 'items', CAST(:items AS jsonb))
       FROM generate_series(1, 150) AS n`,
      { first, items: JSON.stringify(items) },
    );

    const report = await relay().run();

    expect(report).toMatchObject({ published: 150 });
    expect(delivered().map((event) => event.sequence)).toEqual(range(first, first + 149));
    expect(await lastPublished()).toBe(first + 149);
  });

  it('puts source cargo.service, detail-type the event type and the envelope as detail', async () => {
    await insertEvents([1]);

    await relay().run();

    const [event] = eventBridge.received();
    expect(event).toMatchObject({ source: 'cargo.service', 'detail-type': 'box.saved' });
    expect(event!.detail).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      sequence: 1,
      type: 'box.saved',
      occurred_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      actor: 'alice',
      idempotency_key: null,
      data: { box_no: 'BOX-0001' },
    });
  });

  it('retries a PutEvents partial failure from the failed entry, never skipping past it', async () => {
    await insertEvents(range(1, 10));
    eventBridge.injectEntryFault({ select: (_, index) => index === 3, errorCode: 'ThrottlingException' });

    const report = await relay().run();

    // The first call published all but the fourth; the retry starts at the fourth again.
    expect(delivered().map((event) => event.sequence)).toEqual([1, 2, 3, 5, 6, 7, 8, 9, 10, ...range(4, 10)]);
    expect(report).toMatchObject({ published: 10, retries: 1 });
    expect(new Set(delivered().map((event) => event.id)).size).toBe(10);
    expect(await lastPublished()).toBe(10);
  });

  it('reports an event that keeps failing as stuck, with its age for the alarm, and holds later events back until it goes out', async () => {
    await insertEvents([1, 2], 15);
    await insertEvents([3]);
    eventBridge.injectEntryFault({ select: sequenceIs(2), errorCode: 'InternalFailure', calls: 3 });

    const stuck = await relay().run();

    expect(stuck.stuck).toMatchObject({ sequence: 2, errorCode: 'InternalFailure' });
    expect(stuck.oldestUnpublishedAgeSeconds).toBeGreaterThanOrEqual(15 * 60);
    expect(await lastPublished()).toBe(1);

    const next = await relay().run();

    expect(next).toMatchObject({ published: 2, oldestUnpublishedAgeSeconds: 0 });
    expect(next.stuck).toBeUndefined();
    expect(await lastPublished()).toBe(3);
  });

  it('publishes again, with the same ids, the events of a run that crashed after publishing and before marking them', async () => {
    await insertEvents(range(1, 3));
    const crashesBeforeMarking: Db = {
      query: async (sql, params) => {
        if (sql.includes('SET last_published')) throw new Error('the process died here');
        return relayDb.query(sql, params);
      },
      transaction: (work) => relayDb.transaction(work),
    };

    await expect(relay(crashesBeforeMarking).run()).rejects.toThrow('the process died here');
    const first = delivered();
    expect(await lastPublished()).toBe(0);

    await relay().run();

    const again = delivered().slice(first.length);
    expect(again.map((event) => event.sequence)).toEqual([1, 2, 3]);
    expect(again.map((event) => event.id)).toEqual(first.map((event) => event.id));
    expect(await lastPublished()).toBe(3);
  });

  it('prunes published events past the retention, never an unpublished one', async () => {
    await insertEvents([1, 2], 8 * 24 * 60);
    await insertEvents([3]);
    eventBridge.injectEntryFault({ select: sequenceIs(2), calls: 3 });

    const report = await relay().run();

    expect(report.pruned).toBe(1);
    const left = await admin.query<{ sequence: number }>('SELECT sequence FROM cargo.event ORDER BY sequence');
    expect(left.rows.map((row) => Number(row.sequence))).toEqual([2, 3]);
  });

  it('prunes old published events batch after batch, the oldest first, and leaves a young one among them', async () => {
    await admin.query(
      `INSERT INTO cargo.event (sequence, id, type, occurred_at, actor, idempotency_key, data)
       SELECT n, gen_random_uuid(), 'box.saved', now() - interval '8 days', 'alice', NULL, '{}'::jsonb
       FROM generate_series(1, 12000) AS n`,
    );
    await insertEvents([12001]);
    await insertEvents([12002, 12003], 8 * 24 * 60);
    await admin.query('UPDATE cargo.event_relay SET last_published = 12003');

    const report = await relay().run();

    // Three batches of the oldest 5 000: the third holds the young one, which stays.
    expect(report.pruned).toBe(12002);
    const left = await admin.query<{ sequence: number }>('SELECT sequence FROM cargo.event ORDER BY sequence');
    expect(left.rows.map((row) => Number(row.sequence))).toEqual([12001]);
  });

  it('reads at most one batch of the outbox to prune when none of it is old', async () => {
    await admin.query(
      `INSERT INTO cargo.event (sequence, id, type, occurred_at, actor, idempotency_key, data)
       SELECT n, gen_random_uuid(), 'box.saved', now(), 'alice', NULL, '{}'::jsonb FROM generate_series(1, 12000) AS n`,
    );
    await admin.query('UPDATE cargo.event_relay SET last_published = 12000');
    await admin.query('ANALYZE cargo.event');

    const { rows } = await admin.query<Record<string, unknown>>(`EXPLAIN (ANALYZE, FORMAT JSON) ${PRUNE_SQL}`, {
      days: 7,
    });

    interface Node {
      'Relation Name'?: string;
      'Actual Rows': number;
      'Rows Removed by Filter'?: number;
      Plans?: Node[];
    }
    const [{ Plan }] = Object.values(rows[0]!)[0] as [{ Plan: Node }];
    // Rows of the outbox its scans read: those they passed on and those their filters dropped.
    const read = (node: Node): number =>
      (node['Relation Name'] === 'event' ? node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0) : 0) +
      (node.Plans ?? []).reduce((n, p) => n + read(p), 0);
    expect(read(Plan)).toBe(5000);
    expect((await admin.query('SELECT count(*) AS n FROM cargo.event')).rows[0]).toEqual({ n: 12000 });
  });

  it('keeps one index on the outbox, its primary key: each event a write adds touches no other', async () => {
    const { rows } = await admin.query<{ name: string }>(
      `SELECT indexname::text AS name FROM pg_indexes WHERE schemaname = 'cargo' AND tablename = 'event' ORDER BY 1`,
    );
    expect(rows.map((row) => row.name)).toEqual(['event_pkey']);
  });
});

describe('event relay in the local runtime', () => {
  it('publishes the event of a write through the gateway to the local EventBridge, as the relay function runs on its schedule', async () => {
    const service = await startTestService();
    try {
      const zongpai = `PLT-R${String(Date.now() % 10_000).padStart(4, '0')}`;
      expect((await service.call('POST', '/v1/zongpai', { body: { zongpai_no: zongpai } })).status).toBe(201);

      await service.stack.relayEvents();

      const events = service.stack.eventBridge.received();
      expect(events.map((event) => [event.source, event['detail-type']])).toEqual([
        ['cargo.service', 'zongpai.registered'],
      ]);
      expect(events[0]!.detail).toMatchObject({
        sequence: 1,
        type: 'zongpai.registered',
        actor: expect.any(String),
        data: expect.objectContaining({ zongpai_no: zongpai, status: 'OPEN' }),
      });
    } finally {
      await service.close();
    }
  });
});
