import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { DataApiDb } from '../lib/db/data-api.ts';
import { ensureLocalRoles, ROLE_NAMES } from '../lib/db/roles.ts';
import { setUpSchema } from '../lib/db/setup.ts';
import { sweepExpiredKeys } from '../lib/db/sweep.ts';
import { maintainLocationHistory } from '../lib/location/history.ts';
import { loadConfig, type Config } from '../lib/config.ts';
import { createDataApiDb } from '../lib/db/default.ts';
import { loadRoutes, type RouteDefinition } from '../infra/routes.ts';
import type { SqlBackend } from './data-api/backend.ts';
import { startDataApiEmulator, type DataApiEmulator } from './data-api/server.ts';
import { functionIdentity, functionSecret, localSecretOf, localTarget } from './credentials.ts';
import { startFunction, type LocalFunction } from './functions.ts';
import { ensureDemoErp } from './demo-erp.ts';
import { ensureDemoLocations } from './demo-locations.ts';
import type { BoxContentOutcome } from '../lib/db/read-contract.ts';
import { readThrottling } from '../infra/throttling.ts';
import { LOCAL_CLIENT_ID } from './auth.ts';
import { createGatewayServer, type GatewayOptions, type ProxyHandler } from './gateway.ts';
import { lambdaContext } from './gateway-event.ts';
import { startEventBridgeStandIn, type EventBridgeStandIn } from './eventbridge.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** What every local function is configured with; the credentials are each function's own. */
const LOCAL_ENV = {
  AWS_REGION: 'us-east-1',
  POWERTOOLS_SERVICE_NAME: 'cargo',
  // As the stack does: only ID tokens of the handhelds' app client are accepted.
  USER_POOL_CLIENT_ID: LOCAL_CLIENT_ID,
};

/**
 * A local function's environment: the developer's settings, the local database, bus and region.
 * `DB_SECRET_ARN` is the master's; {@link startLocalService} gives each function its own user's.
 */
const functionEnv = (
  given: Readonly<Record<string, string | undefined>>,
  endpoints: { readonly dataApi: string; readonly eventBridge: string },
): Record<string, string | undefined> => {
  const target = localTarget(given);
  return {
    ...given,
    ...LOCAL_ENV,
    DB_CLUSTER_ARN: target.resourceArn,
    DB_SECRET_ARN: target.secretArn,
    DATA_API_ENDPOINT: endpoints.dataApi,
    EVENT_BUS_NAME: LOCAL_EVENT_BUS,
    EVENTBRIDGE_ENDPOINT: endpoints.eventBridge,
  };
};

/**
 * The developer's settings refused as a cold start would refuse them (a {@link ConfigError}
 * naming each bad variable), before a database is opened: `npm start` with a bad QUANTITY_MAX
 * stops at once and leaves no data behind. The emulators' endpoints are not known yet; the
 * loopback stands in for them.
 */
export const checkLocalSettings = (given: Readonly<Record<string, string | undefined>> = process.env): Config => {
  readThrottling(given);
  return loadConfig(functionEnv(given, { dataApi: 'http://127.0.0.1', eventBridge: 'http://127.0.0.1' }));
};

export interface LocalServiceOptions {
  readonly backend: SqlBackend;
  readonly verifyToken: (authorization: string | undefined) => Promise<Record<string, string> | undefined>;
  readonly port?: number;
  readonly host?: string;
  /** Create the demo ERP view when it is missing (default true). */
  readonly demoErp?: boolean;
  /** Register the demo locations (`npm start`; default false, so that tests start with an empty register). */
  readonly demoLocations?: boolean;
  /** @default the stack's stage throttling (CARGO_THROTTLING_RATE_LIMIT, CARGO_THROTTLING_BURST_LIMIT or 50/100) */
  readonly throttle?: { rate: number; burst: number };
  /** Served on the same origin outside `/v1`: the handheld app and the sign-in stand-in (web.ts). */
  readonly site?: GatewayOptions['site'];
  /**
   * The environment the functions are configured from (SERVICE_PREFIX, QUANTITY_MAX, ...), as the
   * stack's `functionEnvironment` would set it. @default process.env
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Run the event relay every `everyMs` (what the stack's one-minute schedule does), and append
   * what the local EventBridge receives to `file`. @default no timer: tests call `relayEvents()`
   */
  readonly relay?: { readonly everyMs: number; readonly file?: string };
}

export interface LocalService {
  readonly url: string;
  readonly dataApi: DataApiEmulator;
  /** An adapter signed in as the master user, for tests and tools that need SQL (the functions sign in as their own users). */
  readonly db: DataApiDb;
  /** An adapter signed in as the schema's owner, for tests that change the schema as a migration would. */
  readonly owner: DataApiDb;
  /** The functions' configuration. */
  readonly config: Config;
  readonly routes: readonly RouteDefinition[];
  /** The read-contract view over the ERP view: created, or left out while the ERP view is missing or unreadable. */
  readonly erpView: BoxContentOutcome;
  /** The local PutEvents stand-in the relay publishes to. */
  readonly eventBridge: EventBridgeStandIn;
  /** Runs the event relay function once, as its schedule does. */
  relayEvents(): Promise<void>;
  /** Runs the hourly maintenance once (history months ahead and retention, expired keys), as its schedule does. */
  maintain(): Promise<void>;
  close(): Promise<void>;
}

/** The local bus: what EVENT_BUS_NAME names for the relay, and all the stand-in accepts. */
const LOCAL_EVENT_BUS = 'cargo-local-events';

/**
 * Starts the whole service on this machine: the Data API emulator over the given backend,
 * migrations and the demo ERP through the real Data API client, then the emulated API Gateway
 * serving the route table with the unchanged Lambda handlers.
 *
 * Every function is built from its own environment object (the given one, the local database
 * variables and its own credentials); `process.env` is only read, never changed.
 *
 * @example
 * ```ts
 * const service = await startLocalService({ backend: await createPgliteBackend(), verifyToken, port: 3000 });
 * ```
 */
export const startLocalService = async (options: LocalServiceOptions): Promise<LocalService> => {
  const { apiDocument, routeTable, tasks } = await loadRoutes();
  // Every function signs its Data API calls with its own key, and the emulator allows each key
  // what infra/grants.ts grants that function in the stack. Route ids do not depend on the prefix.
  const given = options.env ?? process.env;
  const identities = new Map(
    [...tasks.map((task) => task.id), ...routeTable('cargo').map((route) => route.id)].map((id) => [
      id,
      functionIdentity(id),
    ]),
  );
  const migrator = identities.get('Migrate')!;
  const target = localTarget(given);
  const stageThrottling = readThrottling(given);
  const dataApi = await startDataApiEmulator({
    backend: options.backend,
    target,
    identities: [...identities.values()],
  });
  // Only the relay's credentials may put events, as only its role may in the stack.
  const eventBridge = await startEventBridgeStandIn({
    busName: LOCAL_EVENT_BUS,
    identities: [...identities.values()].map((identity) => ({
      ...identity,
      publisher: identity.name === 'EventRelay',
    })),
    ...(options.relay?.file === undefined ? {} : { file: options.relay.file }),
  });
  const env = functionEnv(given, { dataApi: dataApi.endpoint, eventBridge: eventBridge.endpoint });
  // Refused here too, for callers that start the service without checkLocalSettings (the tests).
  const config = loadConfig(env);
  // This process creates the database users, migrates and loads the demo plan as the migration
  // function does, with its credentials and secrets; it maintains the history and sweeps keys with
  // the hourly maintenance function's (its key, its database user).
  const signedIn = (identity: typeof migrator, secretArn: string) =>
    createDataApiDb(
      { ...config, database: { ...config.database, secretArn } },
      {
        region: LOCAL_ENV.AWS_REGION,
        credentials: { accessKeyId: identity.accessKeyId, secretAccessKey: identity.secretAccessKey },
      },
    );
  const db = signedIn(migrator, target.secretArn);
  const owner = signedIn(migrator, localSecretOf('owner'));
  const maintenance = signedIn(identities.get('IdempotencySweep')!, functionSecret('IdempotencySweep')!);
  await ensureLocalRoles(db, ROLE_NAMES);
  if (options.demoErp !== false) await ensureDemoErp(db, config.erpBoxView);
  // The read contract's view over the ERP view is made once that exists.
  const { boxContent: erpView } = await setUpSchema({
    master: db,
    owner,
    names: ROLE_NAMES,
    erpBoxView: config.erpBoxView,
  });
  if (options.demoLocations === true) await ensureDemoLocations(db);
  // The configured retention and the months ahead from the first minute, as the stack's first scheduled run does.
  await maintainLocationHistory(maintenance, { monthsKept: config.locationHistoryMonths });

  const routes = routeTable(config.servicePrefix);
  // Each function is built on its first request, like a Lambda cold start, from an environment of
  // its own (its configuration and its role's credentials), then is kept warm.
  const functions = new Map<string, Promise<LocalFunction>>();
  const loadHandler = async (route: RouteDefinition): Promise<ProxyHandler> => {
    let fn = functions.get(route.id);
    if (fn === undefined) {
      const identity = identities.get(route.id)!;
      fn = startFunction(`${ROOT}${route.entry}`, {
        ...env,
        DB_SECRET_ARN: functionSecret(route.id),
        ...(route.spec?.describesApi ? { API_DOCUMENT: apiDocument(config) } : {}),
        AWS_ACCESS_KEY_ID: identity.accessKeyId,
        AWS_SECRET_ACCESS_KEY: identity.secretAccessKey,
      });
      functions.set(route.id, fn);
    }
    return (await fn).handler;
  };
  const server: Server = createGatewayServer({
    routes,
    verifyToken: options.verifyToken,
    ...(options.site === undefined ? {} : { site: options.site }),
    throttle: options.throttle ?? { rate: stageThrottling.rateLimit, burst: stageThrottling.burstLimit },
    loadHandler,
  });
  // A port in use (EADDRINUSE) rejects, after the emulator is closed, for the caller to explain.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  }).catch(async (error: unknown) => {
    for (const adapter of [db, owner, maintenance]) adapter.destroy();
    await eventBridge.close();
    await dataApi.close();
    throw error;
  });
  // What the hourly maintenance function (functions/idempotency-sweep.ts) does in AWS.
  const maintain = async () => {
    await maintainLocationHistory(maintenance, { monthsKept: config.locationHistoryMonths });
    await sweepExpiredKeys(maintenance);
  };
  const sweep = setInterval(() => void maintain().catch(() => undefined), 3_600_000);
  sweep.unref();
  // The event relay, unchanged, with its own environment and credentials; runs never overlap.
  const relayIdentity = identities.get('EventRelay')!;
  let relayFunction: Promise<LocalFunction> | undefined;
  const relayEvents = async () => {
    relayFunction ??= startFunction(`${ROOT}${tasks.find((task) => task.id === 'EventRelay')!.entry}`, {
      ...env,
      DB_SECRET_ARN: functionSecret('EventRelay'),
      AWS_ACCESS_KEY_ID: relayIdentity.accessKeyId,
      AWS_SECRET_ACCESS_KEY: relayIdentity.secretAccessKey,
      POWERTOOLS_METRICS_DISABLED: 'true',
    });
    const scheduled = { source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} };
    await (await relayFunction).handler(scheduled as never, lambdaContext('EventRelay', randomUUID(), 55_000));
  };
  let relayTimer: NodeJS.Timeout | undefined;
  let closed = false;
  const everyMs = options.relay?.everyMs;
  if (everyMs !== undefined) {
    const tick = () => {
      if (closed) return;
      relayTimer = setTimeout(
        () =>
          void relayEvents()
            .catch(() => undefined)
            .finally(tick),
        everyMs,
      );
      relayTimer.unref();
    };
    tick();
  }
  const { port } = server.address() as AddressInfo;
  dataApi.resetCounters();
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    dataApi,
    db,
    owner,
    config,
    routes,
    erpView,
    eventBridge,
    relayEvents,
    maintain,
    close: async () => {
      clearInterval(sweep);
      closed = true;
      clearTimeout(relayTimer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const adapter of [db, owner, maintenance]) adapter.destroy();
      await eventBridge.close();
      await dataApi.close();
    },
  };
};
