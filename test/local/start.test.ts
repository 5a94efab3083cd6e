import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localSigningKey, signLocalToken } from '../../local/auth.ts';
import { startExpectingExit, startService, type Running } from './process.ts';

/**
 * `npm start` as a developer runs it: child processes on a data folder of their own, stopped
 * and started again, refusing bad configuration with a message instead of a stack trace.
 */
const folders: string[] = [];
const dataFolder = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'cargo-start-'));
  folders.push(dir);
  return dir;
};
const running: Running[] = [];
const start = async (env: Record<string, string>): Promise<Running> => {
  const service = await startService(env);
  running.push(service);
  return service;
};

afterAll(async () => {
  await Promise.all(running.map((r) => r.stop()));
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** Each test starts `npm start` as a child process, once or more; a fresh data folder's first start migrates its database. */
const PROCESSES = { timeout: 120_000 };

const noStackTrace = (text: string): void => {
  expect(text).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(text).not.toContain('node:internal');
};

/** The first start's data folder serves the ready-line, lock and restart tests. */
describe('one npm start per data folder', PROCESSES, () => {
  const dataDir = dataFolder();
  let first: Running;
  beforeAll(async () => {
    first = await start({ DATA_DIR: dataDir, PORT: '0' });
  }, PROCESSES.timeout);

  // An empty HOST would have Node listen on every interface: the local service with its demo
  // users would be open to the whole warehouse network.
  it('takes an empty HOST as unset and serves on the loopback only', async () => {
    const service = await start({ DATA_DIR: dataFolder(), PORT: '0', HOST: '' });
    expect(service.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('shows a DATA_DIR that is not the default in the ready line token hint', () => {
    expect(first.readyLine).toContain(`DATA_DIR=${dataDir} npm run -s token -- --user alice --groups operator`);
  });

  it('answers a path outside the app and the routes with the unified 404, and still serves the app', async () => {
    for (const path of ['/cargo/location/X', '//v1/box/info']) {
      const res = await fetch(`${first.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toEqual({
        error_code: 'ROUTE_NOT_FOUND',
        message: expect.any(String),
        domain: 'request',
        request_id: expect.any(String),
      });
    }
    const page = await fetch(`${first.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  it('refuses a second npm start on the same DATA_DIR and the first keeps its data', async () => {
    const token = await signLocalToken(localSigningKey(dataDir), { user: 'olga', groups: ['operator'] });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const saved = await fetch(`${first.url}/v1/cargo/location`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ cargo_no: 'BOX-1001', location_code: 'A-01-02' }),
    });
    expect(saved.status).toBe(201);

    const second = await startExpectingExit({ DATA_DIR: dataDir, PORT: '0' });

    expect(second.code).not.toBe(0);
    expect(second.stderr).toContain(
      `DATA_DIR ${dataDir} is in use by another npm start (process ${String(first.child.pid)})`,
    );
    noStackTrace(second.stderr);
    const stillServing = await fetch(`${first.url}/v1/cargo/location/BOX-1001`, { headers });
    expect(stillServing.status).toBe(200);
    expect(await first.stop()).toBe(0);

    const again = await start({ DATA_DIR: dataDir, PORT: '0' });
    const read = await fetch(`${again.url}/v1/cargo/location/BOX-1001`, { headers });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { current: { location_code: string } }).current.location_code).toBe('A-01-02');
    expect(await again.stop()).toBe(0);
  });

  // The folder the test before stopped, already migrated: a fresh one's first start would
  // double this test's time without testing more.
  it('starts on a data folder left locked by a process that no longer runs (killed with kill -9)', async () => {
    const killed = await start({ DATA_DIR: dataDir, PORT: '0' });
    killed.child.kill('SIGKILL');
    await killed.stop();

    const next = await start({ DATA_DIR: dataDir, PORT: '0' });
    expect(next.readyLine).toContain('ready on');
    expect(await next.stop()).toBe(0);
  });
});

describe('configuration errors stop npm start with a clear message', PROCESSES, () => {
  it('names PORT, the reason and the allowed values for PORT=abc, without a stack trace', async () => {
    const result = await startExpectingExit({ DATA_DIR: dataFolder(), PORT: 'abc' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("PORT='abc' is not a port number: allowed are whole numbers from 0 to 65535");
    noStackTrace(result.stderr);
  });

  it('names QUANTITY_MAX, the reason and the allowed values for a bad bound, before it opens a database', async () => {
    const dataDir = dataFolder();
    const result = await startExpectingExit({ DATA_DIR: dataDir, PORT: '0', QUANTITY_MAX: '0' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("QUANTITY_MAX='0' is too small: allowed are whole numbers from 1 to 2000000000");
    noStackTrace(result.stderr);
    expect(existsSync(join(dataDir, 'pglite')), 'no database is made for a service that cannot start').toBe(false);
  });

  it('names the stage throttling variable and its allowed values for a bad rate, without a stack trace', async () => {
    const dataDir = dataFolder();
    const result = await startExpectingExit({ DATA_DIR: dataDir, PORT: '0', CARGO_THROTTLING_RATE_LIMIT: 'many' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "CARGO_THROTTLING_RATE_LIMIT='many' is not allowed: allowed are numbers of requests per second from 1 to 10000",
    );
    noStackTrace(result.stderr);
    expect(existsSync(join(dataDir, 'pglite'))).toBe(false);
  });

  it('names BOX_NO_PATTERN and why when the pattern is not a regular expression', async () => {
    const result = await startExpectingExit({ DATA_DIR: dataFolder(), PORT: '0', BOX_NO_PATTERN: '^[A-Z' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "BOX_NO_PATTERN='^[A-Z' must be a valid regular expression: allowed is a JavaScript regular expression",
    );
    noStackTrace(result.stderr);
  });

  it('says which server could not be reached for an unreachable DATABASE_URL, without its password or a stack trace', async () => {
    const result = await startExpectingExit({
      DATA_DIR: dataFolder(),
      PORT: '0',
      DATABASE_URL: 'postgres://cargo:s3cret@127.0.0.1:1/cargo',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'cannot reach the PostgreSQL server of DATABASE_URL (postgres://cargo:***@127.0.0.1:1/cargo)',
    );
    expect(result.stderr).not.toContain('s3cret');
    noStackTrace(result.stderr);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'refuses a DATABASE_URL user that may not create the roles the functions run as, in one line',
    async () => {
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      const user = `cargo_plain_${process.pid}`;
      await admin.query(`CREATE ROLE ${user} LOGIN`);
      try {
        const url = new URL(process.env.TEST_DATABASE_URL!);
        url.username = user;
        const result = await startExpectingExit({ DATA_DIR: dataFolder(), PORT: '0', DATABASE_URL: url.toString() });
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(
          'may not create roles: npm start needs a superuser or a user with CREATEROLE, to run each function as the database user it has on AWS',
        );
        noStackTrace(result.stderr);
      } finally {
        await admin.query(`DROP ROLE ${user}`);
        await admin.end();
      }
    },
  );

  it('says that the port is in use, without a stack trace', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const dataDir = dataFolder();
      const result = await startExpectingExit({ DATA_DIR: dataDir, PORT: String(port) });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `PORT ${String(port)} on 127.0.0.1 is already in use: stop what uses it or set PORT to another port`,
      );
      noStackTrace(result.stderr);
      expect(existsSync(join(dataDir, 'pglite'))).toBe(false);
    } finally {
      blocker.close();
    }
  });

  it.each([
    ['an address this machine does not have', '10.255.255.254', 'is not an address of this machine'],
    ['a name that does not resolve', 'no-such-host.invalid', 'is not a name this machine can resolve'],
  ])(
    'says that HOST is %s, naming the variable and what is allowed, without a stack trace',
    async (_what, host, why) => {
      const dataDir = dataFolder();
      const result = await startExpectingExit({ DATA_DIR: dataDir, HOST: host, PORT: '0' });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`HOST='${host}' ${why}: allowed are its addresses, e.g. 127.0.0.1 or 0.0.0.0`);
      noStackTrace(result.stderr);
      expect(existsSync(join(dataDir, 'pglite'))).toBe(false);
    },
  );
});
