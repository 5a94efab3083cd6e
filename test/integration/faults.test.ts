import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * The Data API emulator injects the failures Aurora and the Data API really produce; the
 * service must retry what is safe, answer 503 with Retry-After otherwise, never half-apply a
 * write, and never write twice when a device retries with its Idempotency-Key.
 */
let service: TestService;
beforeAll(async () => {
  // A short retry budget keeps the "gives up" cases quick.
  service = await startTestService({ env: { DB_RETRY_BUDGET_MS: '800' } });
});
afterAll(async () => service?.close());
afterEach(() => service.stack.dataApi.clearFaults());

const scan = (cargo: string, key?: string) =>
  service.call('POST', '/v1/cargo/location', {
    body: { cargo_no: cargo, location_code: 'A-01' },
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });
const history = async (cargo: string) => (await service.call('GET', `/v1/cargo/location/${cargo}`)).body.history ?? [];

describe('database faults', () => {
  it('retries while Aurora resumes from zero capacity, then succeeds', async () => {
    service.stack.dataApi.injectFault('resuming', 2);
    service.stack.dataApi.resetCounters();
    const res = await scan('BOX-F001');
    expect(res.status).toBe(201);
    expect(service.stack.dataApi.counters().ExecuteStatement).toBe(3);
  });

  it('answers 503 DATABASE_UNAVAILABLE with Retry-After when the Data API stays unavailable, storing nothing', async () => {
    service.stack.dataApi.injectFault('unavailable', 50);
    const res = await scan('BOX-F002');
    expectError(res, 503, 'DATABASE_UNAVAILABLE', 'system');
    expect(res.headers.get('retry-after')).toBe('5');
    service.stack.dataApi.clearFaults();
    expectError(await service.call('GET', '/v1/cargo/location/BOX-F002'), 404, 'CARGO_NOT_FOUND');
  });

  it('asks for a longer wait while the cluster is still resuming', async () => {
    service.stack.dataApi.injectFault('resuming', 50);
    const res = await service.call('GET', '/v1/box/info?box_no=BOX-1001');
    expectError(res, 503, 'DATABASE_UNAVAILABLE');
    expect(res.headers.get('retry-after')).toBe('15');
  });

  it('a scan committed, then timed out, then retried with its key is stored once', async () => {
    service.stack.dataApi.injectFault('timeout-after-commit', 1);
    const first = await scan('BOX-F004', 'scan-f004');
    expectError(first, 503, 'DATABASE_UNAVAILABLE');
    const retry = await scan('BOX-F004', 'scan-f004');
    expect(retry.status).toBe(201);
    expect(await history('BOX-F004')).toHaveLength(1);
  });

  it('a box save committed, then timed out, then retried with its key answers the save, not BOX_ALREADY_BOXED', async () => {
    await service.plan('BOX-F005', { 'SKU-A': 2 });
    await service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'PLT-F005' } });
    const body = { box_no: 'BOX-F005', zongpai_no: 'PLT-F005', items: [{ item_code: 'SKU-A', quantity: 2 }] };
    service.stack.dataApi.injectFault('timeout-after-commit', 1);
    expectError(
      await service.call('POST', '/v1/box', { body, headers: { 'idempotency-key': 'save-f005' } }),
      503,
      'DATABASE_UNAVAILABLE',
    );
    const retry = await service.call('POST', '/v1/box', { body, headers: { 'idempotency-key': 'save-f005' } });
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(expect.objectContaining({ box_no: 'BOX-F005', version: 1 }));
    expect((await service.call('GET', '/v1/box/BOX-F005/history')).body.events).toHaveLength(1);
  });
});
