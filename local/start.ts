import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { localSigningKey, verifyLocalToken } from './auth.ts';
import { DataDirInUseError, lockDataDir } from './data-lock.ts';
import type { SqlBackend, TextResult } from './data-api/backend.ts';
import { createPgliteBackend } from './data-api/pglite-backend.ts';
import { createPostgresBackend } from './data-api/postgres-backend.ts';
import { checkLocalSettings, startLocalService } from './stack.ts';
import { ensureDemoUsers } from './users.ts';
import { createLocalSite } from './web.ts';
import { appSettings } from '../infra/app-settings.ts';

/**
 * `npm start`: the service on http://127.0.0.1:3000 (PORT), its data in DATA_DIR (default .data/)
 * in embedded PGlite, or in the PostgreSQL server named by DATABASE_URL.
 *
 * Every problem a developer can fix (a bad variable, a data folder in use, a server that cannot
 * be reached, a port in use) stops the process with one line saying what and how, no stack trace.
 */

/** A problem the developer fixes; `exitCode` 2 for bad configuration, 1 for the environment. */
class StartError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

const readPort = (value: string | undefined): number => {
  if (value === undefined || value === '') return 3000;
  const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(port >= 0 && port <= 65_535))
    throw new StartError(
      `PORT='${value}' is not a port number: allowed are whole numbers from 0 to 65535 (0: any free port)`,
      2,
    );
  return port;
};

/** The URL without its password, for messages. */
const redact = (url: string): string => {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return '(not a URL)';
  }
};

const openPostgres = async (url: string): Promise<SqlBackend> => {
  let backend: SqlBackend | undefined;
  let may: TextResult;
  try {
    backend = await createPostgresBackend({ connectionString: url });
    may = await backend.query('SELECT rolsuper OR rolcreaterole AS may FROM pg_roles WHERE rolname = current_user');
  } catch (error) {
    await backend?.close().catch(() => undefined);
    throw new StartError(
      `cannot reach the PostgreSQL server of DATABASE_URL (${redact(url)}): ${(error as Error).message}`,
      1,
    );
  }
  // Each function runs as the database user it has on AWS: the local runtime creates those roles.
  if (may.rows[0]?.[0] !== 't') {
    await backend.close().catch(() => undefined);
    throw new StartError(
      `the user of DATABASE_URL (${redact(url)}) may not create roles: npm start needs a superuser or a user with CREATEROLE, to run each function as the database user it has on AWS (cargo_service, cargo_reader or cargo_maintenance)`,
      1,
    );
  }
  return backend;
};

/** What a failed listen means to the developer: a port in use, or a HOST this machine does not have or cannot resolve. */
const listenError =
  (port: number, host: string) =>
  (error: unknown): never => {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new StartError(
        `PORT ${String(port)} on ${host} is already in use: stop what uses it or set PORT to another port`,
        1,
      );
    const code = (error as NodeJS.ErrnoException).code;
    const allowed = 'allowed are its addresses, e.g. 127.0.0.1 or 0.0.0.0';
    if (code === 'EADDRNOTAVAIL')
      throw new StartError(`HOST='${host}' is not an address of this machine: ${allowed}`, 2);
    // A name is looked up before it is bound: one that does not resolve (or no resolver answers).
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      throw new StartError(`HOST='${host}' is not a name this machine can resolve: ${allowed}`, 2);
    throw error;
  };

/**
 * The port tried before the database is opened, so that a port in use stops `npm start` at once.
 * The service binds it for good once migrated; what takes the port in between is still refused then.
 */
const checkPort = (port: number, host: string): Promise<void> =>
  new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(port, host, () => probe.close(() => resolve()));
  }).catch(listenError(port, host));

const main = async (): Promise<void> => {
  const defaultDataDir = resolve('.data');
  // An empty variable is an unset one, as for `npm run token` and `npm run user`: an empty HOST
  // would otherwise listen on every interface, an empty DATA_DIR use the current folder.
  const dataDir = resolve(process.env.DATA_DIR || '.data');
  const port = readPort(process.env.PORT);
  const host = process.env.HOST || '127.0.0.1';
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const settings = checkLocalSettings(process.env);
  await checkPort(port, host);
  mkdirSync(dataDir, { recursive: true });
  // Before the database is opened: a second start on this folder touches nothing.
  const lock = lockDataDir(dataDir);
  process.on('exit', () => lock.release());

  const backend =
    databaseUrl === undefined
      ? await createPgliteBackend({ dataDir: join(dataDir, 'pglite') })
      : await openPostgres(databaseUrl);
  const key = localSigningKey(dataDir);
  ensureDemoUsers(dataDir);
  const site = createLocalSite({ dataDir, key, settings: appSettings(settings) });
  // The relay every few seconds; what it publishes lands in DATA_DIR/events.jsonl.
  const relay = { everyMs: 3_000, file: join(dataDir, 'events.jsonl') };
  const stack = await startLocalService({
    backend,
    port,
    host,
    site,
    relay,
    demoLocations: true,
    verifyToken: (h) => verifyLocalToken(key, h),
  }).catch(listenError(port, host));

  // Before the ready line: whoever reads it may stop the service at once (the default action of a
  // signal with no listener yet would kill the process without closing the database).
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await stack.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  if (stack.erpView === 'view unreadable') {
    // The service runs; only the routes that read the ERP view answer 503 ERP_VIEW_UNAVAILABLE until it is fixed.
    process.stderr.write(
      `npm start: the ERP view ${stack.config.erpBoxView} lacks a column the service reads (box_no, order_no, customer_name, item_code, item_name, planned_quantity, unit) or has one of another type; the routes that read it answer 503 ERP_VIEW_UNAVAILABLE\n`,
    );
  }
  const where = databaseUrl === undefined ? `PGlite in ${join(dataDir, 'pglite')}` : 'PostgreSQL (DATABASE_URL)';
  // Tokens are signed with the key in DATA_DIR: `npm run token` must be given the same folder.
  const tokenCommand = `${dataDir === defaultDataDir ? '' : `DATA_DIR=${dataDir} `}npm run -s token -- --user alice --groups operator`;
  process.stdout.write(`Cargo service ready on ${stack.url} (data: ${where}; get a token with: ${tokenCommand})\n`);
};

try {
  await main();
} catch (error) {
  // checkLocalSettings refuses a bad setting with a ConfigError before anything is opened.
  const badConfig = (error as Error).name === 'ConfigError';
  const known = error instanceof StartError || badConfig || error instanceof DataDirInUseError;
  // An unexpected failure keeps its stack: that one is a bug to report.
  process.stderr.write(`npm start: ${known ? (error as Error).message : ((error as Error).stack ?? String(error))}\n`);
  process.exit(error instanceof StartError ? error.exitCode : badConfig ? 2 : 1);
}
