import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFuzz } from '../../bench/fuzz/fuzz.ts';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * `npm run fuzz` stays out of the test run (100 000 requests take minutes); a few hundred of its
 * requests here keep it working and hold its rule: no 5xx, every answer in the unified format.
 */
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.close());

describe('the fuzz run', () => {
  it('answers a few hundred generated requests over every route without a 5xx, each in the unified format', async () => {
    const report = await runFuzz({
      baseUrl: service.stack.url,
      requests: 200,
      concurrency: 8,
      seed: 7,
      sign: (user, groups) => service.token(user, groups),
      servicePrefix: service.stack.config.servicePrefix,
    });
    expect(report.findings).toEqual([]);
    expect(report.serverErrors).toBe(0);
    expect(report.nonUnified).toBe(0);
    expect(Object.values(report.statuses).reduce((a, b) => a + b, 0)).toBe(200);
    // Valid requests reach the routes, invalid ones are refused: both kinds were sent.
    expect(Object.keys(report.statuses)).toEqual(expect.arrayContaining(['200', '201', '400', '401', '403']));
  }, 60_000);
});
