import { describe, expect, it } from 'vitest';
import {
  BatchExecuteStatementCommand,
  BeginTransactionCommand,
  RollbackTransactionCommand,
} from '@aws-sdk/client-rds-data';
import { ARNS, BACKENDS, failure, useFixture } from './harness.ts';

/**
 * The Data API answers a call that runs longer than 45 seconds with StatementTimeoutException
 * (https://docs.aws.amazon.com/AmazonRDS/latest/AuroraUserGuide/data-api-timeouts.html), and
 * cancels its statement unless the call asked `continueAfterTimeout`: what it wrote is rolled back,
 * never committed after the timeout was answered. The emulator's call
 * timeout is an option, so that these tests wait a second rather than 45 (long enough that a
 * busy machine answers every quick call within it).
 */
const TIMEOUT_MS = 1_000;
/** A statement that outlasts the timeout by half a second. */
const SLOW = 'pg_sleep(1.5)';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(BACKENDS)('a call longer than the timeout on %s', (kind) => {
  const fx = useFixture(kind, { callTimeoutMs: TIMEOUT_MS });

  it('answers StatementTimeoutException, as it would after 45 s on AWS', async () => {
    const started = Date.now();
    const error = await failure(fx.exec('SELECT 1 FROM pg_sleep(3)'));
    expect(error.name).toBe('StatementTimeoutException');
    // PGlite holds this process while its statement runs: it answers when the statement ends.
    if (kind === 'postgres') expect(Date.now() - started).toBeLessThan(2_500);
  });

  it('answers a call within the timeout as usual', async () => {
    expect((await fx.exec('SELECT 1 AS n')).records).toEqual([[{ longValue: 1 }]]);
  });

  it('rolls back a statement that wrote and was still running at the timeout, as AWS cancels it', async () => {
    await fx.exec('CREATE TABLE IF NOT EXISTS timed_out (n int)');
    const error = await failure(
      fx.exec(`WITH written AS (INSERT INTO timed_out VALUES (1) RETURNING n) SELECT n FROM written, ${SLOW}`),
    );
    expect(error.name).toBe('StatementTimeoutException');
    await pause(500);
    expect((await fx.exec('SELECT count(*) AS n FROM timed_out')).records).toEqual([[{ longValue: 0 }]]);
  });

  it('rolls back a whole batch that ran past the timeout', async () => {
    await fx.exec('CREATE TABLE IF NOT EXISTS batched (n int)');
    const sql = 'INSERT INTO batched SELECT :n FROM pg_sleep(0.75)';
    const parameterSets = [1, 2].map((n) => [{ name: 'n', value: { longValue: n } }]);
    const error = await failure(fx.client.send(new BatchExecuteStatementCommand({ ...ARNS, sql, parameterSets })));
    expect(error.name).toBe('StatementTimeoutException');
    expect((await fx.exec('SELECT count(*) AS n FROM batched')).records).toEqual([[{ longValue: 0 }]]);
  });

  it('never commits a statement that waited past the timeout behind a transaction', async () => {
    await fx.exec('CREATE TABLE IF NOT EXISTS waited (n int)');
    const { transactionId } = await fx.client.send(new BeginTransactionCommand(ARNS));
    // On PostgreSQL the statement waits for the table lock; on PGlite for its single connection.
    await fx.exec('LOCK TABLE waited IN ACCESS EXCLUSIVE MODE', [], { transactionId });
    const waiting = failure(fx.exec('INSERT INTO waited VALUES (1)'));
    await pause(TIMEOUT_MS * 1.5);
    await fx.client.send(new RollbackTransactionCommand({ ...ARNS, transactionId }));
    expect((await waiting).name).toBe('StatementTimeoutException');
    await pause(200);
    expect((await fx.exec('SELECT count(*) AS n FROM waited')).records).toEqual([[{ longValue: 0 }]]);
  });

  it('cancels the statement unless the call asked continueAfterTimeout', async () => {
    await fx.exec('CREATE TABLE IF NOT EXISTS slow_write (n int)');
    await failure(fx.exec(`INSERT INTO slow_write SELECT 1 FROM ${SLOW}`));
    await failure(fx.exec(`INSERT INTO slow_write SELECT 2 FROM ${SLOW}`, [], { continueAfterTimeout: true }));
    await pause(1_000);
    expect((await fx.exec('SELECT n FROM slow_write ORDER BY n')).records).toEqual([[{ longValue: 2 }]]);
  });
});
