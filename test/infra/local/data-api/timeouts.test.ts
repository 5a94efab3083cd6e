import { describe, expect, it } from 'vitest';
import { BACKENDS, failure, useFixture } from './harness.ts';

/**
 * The Data API answers a call that runs longer than 45 seconds with StatementTimeoutException
 * (https://docs.aws.amazon.com/AmazonRDS/latest/AuroraUserGuide/data-api-timeouts.html), and
 * cancels its statement unless the call asked `continueAfterTimeout`. The emulator's call
 * timeout is an option, so that these tests wait a fraction of a second rather than 45.
 */
describe.each(BACKENDS)('a call longer than the timeout on %s', (kind) => {
  const fx = useFixture(kind, { callTimeoutMs: 300 });

  it('answers StatementTimeoutException, as it would after 45 s on AWS', async () => {
    const started = Date.now();
    const error = await failure(fx.exec('SELECT 1 FROM pg_sleep(1.5)'));
    expect(error.name).toBe('StatementTimeoutException');
    // PGlite holds this process while its statement runs: it answers when the statement ends.
    if (kind === 'postgres') expect(Date.now() - started).toBeLessThan(1_400);
  });

  it('answers a call within the timeout as usual', async () => {
    expect((await fx.exec('SELECT 1 AS n')).records).toEqual([[{ longValue: 1 }]]);
  });

  if (kind === 'postgres')
    it('cancels the statement unless the call asked continueAfterTimeout', async () => {
      await fx.exec('CREATE TABLE IF NOT EXISTS slow_write (n int)');
      await failure(fx.exec('INSERT INTO slow_write SELECT 1 FROM pg_sleep(0.6)'));
      await failure(fx.exec('INSERT INTO slow_write SELECT 2 FROM pg_sleep(0.6)', [], { continueAfterTimeout: true }));
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect((await fx.exec('SELECT n FROM slow_write ORDER BY n')).records).toEqual([[{ longValue: 2 }]]);
    });
});
