import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { renameDatabase } from '../support/throwaway-database.ts';

/**
 * The service's database gone from its server (renamed, dropped, or not created yet): the Data
 * API answers DatabaseErrorException (SQLState 3D000, the connection cannot be made). That is an
 * operations problem, not a bug: every route answers 503 DATABASE_UNAVAILABLE with Retry-After at
 * once, never 500, and serves again once the database is back.
 */
describe.runIf(process.env.TEST_BACKEND === 'postgres')('a database missing from its server', () => {
  let service: TestService;
  let name: string;
  let renamed = false;

  beforeAll(async () => {
    service = await startTestService({ env: { DB_RETRY_BUDGET_MS: '2000' } });
    name = String(
      (await service.stack.db.query<{ name: string }>('SELECT current_database()::text AS name')).rows[0]?.name,
    );
  });

  afterAll(async () => {
    if (renamed) await renameDatabase(`${name}_gone`, name);
    await service?.close();
  });

  const routes = [
    ['GET', '/v1/box/info?box_no=BOX-1001'],
    ['GET', '/v1/cargo/location/BOX-1001'],
    ['POST', '/v1/cargo/location'],
  ] as const;
  const call = (method: string, path: string) =>
    service.call(method, path, method === 'POST' ? { body: { cargo_no: 'BOX-M001', location_code: 'A-01' } } : {});

  it('answers every route 503 DATABASE_UNAVAILABLE with Retry-After at once while it is missing, then serves again', async () => {
    await renameDatabase(name, `${name}_gone`);
    renamed = true;
    for (const [method, path] of routes) {
      const started = Date.now();
      const res = await call(method, path);
      expectError(res, 503, 'DATABASE_UNAVAILABLE', 'system');
      expect(res.headers.get('retry-after')).toBe('5');
      // Not retried for the whole budget: a missing database does not come back in milliseconds.
      expect(Date.now() - started).toBeLessThan(2_000);
    }
    await renameDatabase(`${name}_gone`, name);
    renamed = false;
    expect((await call('GET', '/v1/box/info?box_no=BOX-1001')).status).toBe(200);
    expect((await call('POST', '/v1/cargo/location')).status).toBe(201);
  });
});
