import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localSigningKey, signLocalToken } from '../../local/auth.ts';
import { throwawayDatabase } from '../support/throwaway-database.ts';
import { startService, type Running } from './process.ts';

/**
 * `npm start` on PostgreSQL while the server ends its connections (an administrator's
 * pg_terminate_backend, a restart, a failover): the calls in flight fail, the service answers
 * 503 DATABASE_UNAVAILABLE with Retry-After while it cannot reach the database, never a 500, and
 * the process keeps running and serves again once the database is back.
 */
const TERMINATE_EVERY_MS = 10;
const TERMINATE_FOR_MS = 3_000;
const SCANNERS = 4;

interface Answer {
  readonly status: number;
  readonly errorCode: string | undefined;
  readonly retryAfter: string | null;
}

describe.runIf(process.env.TEST_DATABASE_URL)('npm start on PostgreSQL when its connections are terminated', () => {
  let database: Awaited<ReturnType<typeof throwawayDatabase>>;
  let dataDir: string;
  let service: Running;
  let token: string;
  let stderr = '';

  beforeAll(async () => {
    database = await throwawayDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'cargo-terminate-'));
    // A short retry budget: a scan gives up within a second while the connections keep ending.
    service = await startService({
      DATA_DIR: dataDir,
      PORT: '0',
      DATABASE_URL: database.url,
      DB_RETRY_BUDGET_MS: '500',
    });
    service.child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    token = await signLocalToken(localSigningKey(dataDir), { user: 'olga', groups: ['operator'] });
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
    await database?.drop();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  let scans = 0;
  const scan = async (): Promise<Answer> => {
    scans += 1;
    const res = await fetch(`${service.url}/v1/cargo/location`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ cargo_no: `BOX-K${String(scans).padStart(5, '0')}`, location_code: 'A-01' }),
    }).catch((error: unknown) => error as Error);
    // No answer at all: the process is gone, or refuses connections.
    if (res instanceof Error) return { status: 0, errorCode: res.message, retryAfter: null };
    const body = (await res.json().catch(() => undefined)) as { error_code?: string } | undefined;
    return { status: res.status, errorCode: body?.error_code, retryAfter: res.headers.get('retry-after') };
  };

  /** Ends every connection to the service's database but its own, every few milliseconds, for `ms`. */
  const terminateRepeatedly = async (ms: number): Promise<number> => {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    admin.on('error', () => undefined);
    await admin.connect();
    const name = new URL(database.url).pathname.slice(1);
    let terminated = 0;
    const until = Date.now() + ms;
    try {
      while (Date.now() < until) {
        const { rows } = await admin.query<{ n: number }>(
          'SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name],
        );
        terminated += rows[0]?.n ?? 0;
        await new Promise((resolve) => setTimeout(resolve, TERMINATE_EVERY_MS));
      }
    } finally {
      await admin.end();
    }
    return terminated;
  };

  it('keeps running, answers 503 DATABASE_UNAVAILABLE with Retry-After meanwhile (no 500), then serves again', async () => {
    expect((await scan()).status).toBe(201);
    let terminating = true;
    const answers: Answer[] = [];
    const scanner = async () => {
      while (terminating) answers.push(await scan());
    };
    const scanners = Array.from({ length: SCANNERS }, scanner);
    const terminated = await terminateRepeatedly(TERMINATE_FOR_MS);
    terminating = false;
    await Promise.all(scanners);

    expect(service.child.exitCode, stderr).toBeNull();
    expect(terminated).toBeGreaterThan(10);
    const unexpected = answers.filter(
      (a) => a.status !== 201 && !(a.status === 503 && a.errorCode === 'DATABASE_UNAVAILABLE' && a.retryAfter !== null),
    );
    expect(unexpected, stderr).toEqual([]);
    // Most scans give up while the connections keep ending (about 30 of 40 in a run).
    expect(answers.filter((a) => a.status === 503).length).toBeGreaterThan(0);
    // The database is back: the service reconnects and the next scans are stored.
    for (let i = 0; i < 5; i += 1) expect((await scan()).status).toBe(201);
    expect(service.child.exitCode).toBeNull();
  });
});
