import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * A statement that does not end (an ERP view waiting on a lock, or taking minutes) must not
 * outlive the function: on AWS, Lambda would stop it and API Gateway answer in a body of its own.
 * The call is abandoned 5 s after the retry budget (800 ms here) with the unified 503.
 */
let service: TestService;
beforeAll(async () => {
  service = await startTestService({ env: { DB_RETRY_BUDGET_MS: '800' } });
});
afterAll(async () => service?.close());

describe('a database call that does not answer in time', () => {
  it('answers box info 503 DATABASE_UNAVAILABLE with Retry-After while the ERP view cannot be read', async () => {
    let answer: Awaited<ReturnType<typeof service.call>> | undefined;
    let seconds = 0;
    await service.stack.db
      .transaction(async (tx) => {
        await tx.query('LOCK TABLE erp.demo_box_plan IN ACCESS EXCLUSIVE MODE');
        const started = Date.now();
        answer = await service.call('GET', '/v1/box/info?box_no=BOX-1001');
        seconds = (Date.now() - started) / 1000;
        throw new Error('release the lock');
      })
      .catch((error: unknown) => {
        if (!(error instanceof Error) || error.message !== 'release the lock') throw error;
      });
    expect(answer).toBeDefined();
    expectError(answer!, 503, 'DATABASE_UNAVAILABLE', 'system');
    expect(answer!.headers.get('retry-after')).toBe('5');
    expect(seconds).toBeGreaterThan(5.5);
    expect(seconds).toBeLessThan(8);
    // Once the view can be read again, so can the box.
    expect((await service.call('GET', '/v1/box/info?box_no=BOX-1001')).status).toBe(200);
  });
});
