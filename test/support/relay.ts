import { RDSDataClient } from '@aws-sdk/client-rds-data';
import { startDataApiEmulator, type DataApiEmulator } from '../../local/data-api/server.ts';
import {
  functionIdentity,
  functionSecret,
  localSecretOf,
  localTarget,
  operatorIdentity,
} from '../../local/credentials.ts';
import { startEventBridgeStandIn, type EventBridgeStandIn } from '../../local/eventbridge.ts';
import { DataApiDb } from '../../lib/db/data-api.ts';
import { ensureLocalRoles, ROLE_NAMES } from '../../lib/db/roles.ts';
import { setUpSchema } from '../../lib/db/setup.ts';
import type { Db } from '../../lib/db/types.ts';
import { createEventBridgeBus, type EventBus } from '../../lib/events/bus.ts';
import type { EventEnvelope } from '../../lib/events/entries.ts';
import { makeRelay, type RelayOptions } from '../../lib/events/relay.ts';
import { createTestBackend } from './backend.ts';
import { loadRoutes } from '../../infra/routes.ts';

// The grants and credentials below come from the discovered declarations.
await loadRoutes();

const BUS = 'cargo-test-events';

export interface RelayFixture {
  /** Signs in as the master, for what the tests set up and read back. */
  readonly admin: DataApiDb;
  /** Signs in as the maintenance user with the relay's own key, as the relay function does. */
  readonly relayDb: DataApiDb;
  /** The PutEvents stand-in of the current test (a new one after each {@link RelayFixture.reset}). */
  eventBridge(): EventBridgeStandIn;
  /** The relay's PutEvents client, signed with the relay's key. */
  bus(): EventBus;
  /** A relay as the function builds it, with no backoff; `db` and the rest as given. */
  relay(options?: Partial<RelayOptions>): ReturnType<typeof makeRelay>;
  /** An empty outbox, the mark at 0, no lease held, and a new PutEvents stand-in. */
  reset(): Promise<EventBridgeStandIn>;
  /** Outbox rows as the writes leave them, `ageMinutes` old, inserted in the order given. */
  insertEvents(sequences: readonly number[], ageMinutes?: number): Promise<void>;
  /** The envelopes the bus received, in the order it received them. */
  delivered(): EventEnvelope[];
  lastPublished(): Promise<number>;
  close(): Promise<void>;
}

/**
 * The event relay against the Data API emulator (signed with the relay's own grant, as the
 * maintenance user) and the local PutEvents stand-in, through the real SDK clients.
 */
export const startRelayFixture = async (): Promise<RelayFixture> => {
  const target = localTarget({});
  const operator = operatorIdentity('Tests');
  const relayIdentity = functionIdentity('EventRelay');
  const test = await createTestBackend();
  const dataApi: DataApiEmulator = await startDataApiEmulator({
    backend: test.backend,
    target,
    identities: [operator, relayIdentity],
  });
  /** An adapter signing with `identity`'s key, signed in with `secretArn` (the master's unless given). */
  const dataApiDb = (identity: { accessKeyId: string; secretAccessKey: string }, secretArn = target.secretArn) =>
    new DataApiDb({
      client: new RDSDataClient({
        endpoint: dataApi.endpoint,
        region: 'us-east-1',
        maxAttempts: 1,
        credentials: identity,
      }),
      resourceArn: target.resourceArn,
      secretArn,
      database: target.database,
      retryBudgetMs: 1_000,
    });
  const admin = dataApiDb(operator);
  const relayDb = dataApiDb(relayIdentity, functionSecret('EventRelay'));
  const owner = dataApiDb(operator, localSecretOf('owner'));
  await ensureLocalRoles(admin, ROLE_NAMES);
  await setUpSchema({ master: admin, owner, names: ROLE_NAMES, erpBoxView: 'erp.v_box_info' });
  owner.destroy();

  let eventBridge: EventBridgeStandIn | undefined;
  const current = () => {
    if (eventBridge === undefined) throw new Error('reset() starts the PutEvents stand-in');
    return eventBridge;
  };
  const bus = () =>
    createEventBridgeBus({
      busName: BUS,
      endpoint: current().endpoint,
      region: 'us-east-1',
      credentials: relayIdentity,
    });
  return {
    admin,
    relayDb,
    eventBridge: current,
    bus,
    relay: (options = {}) =>
      makeRelay({ db: relayDb, bus: bus(), retentionDays: 7, attempts: 3, sleep: async () => undefined, ...options }),
    reset: async () => {
      await eventBridge?.close();
      eventBridge = await startEventBridgeStandIn({
        busName: BUS,
        identities: [{ ...relayIdentity, publisher: true }],
      });
      await admin.query('DELETE FROM cargo.event');
      await admin.query('UPDATE cargo.event_relay SET last_published = 0, lease_holder = NULL, lease_until = NULL');
      return eventBridge;
    },
    insertEvents: async (sequences, ageMinutes = 0) => {
      for (const sequence of sequences) {
        await admin.query(
          `INSERT INTO cargo.event (sequence, id, type, occurred_at, actor, idempotency_key, data)
           VALUES (:sequence, gen_random_uuid(), 'box.saved', now() - make_interval(mins => CAST(:age AS integer)), 'alice', NULL, CAST(:data AS jsonb))`,
          { sequence, age: ageMinutes, data: JSON.stringify({ box_no: `BOX-${String(sequence).padStart(4, '0')}` }) },
        );
      }
    },
    delivered: () =>
      current()
        .received()
        .map((event) => event.detail as EventEnvelope),
    lastPublished: async () =>
      Number((await admin.query<{ n: number }>('SELECT last_published AS n FROM cargo.event_relay')).rows[0]!.n),
    close: async () => {
      await eventBridge?.close();
      admin.destroy();
      relayDb.destroy();
      await dataApi.close();
      await test.drop();
    },
  };
};

/** `db`, counting the statements it runs. */
export const countingDb = (db: Db): Db & { statements: string[] } => {
  const statements: string[] = [];
  return {
    statements,
    query: (sql, params) => {
      statements.push(sql);
      return db.query(sql, params);
    },
    transaction: (work) => db.transaction(work),
  };
};
