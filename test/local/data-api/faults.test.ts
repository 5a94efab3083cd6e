import {
  BatchExecuteStatementCommand,
  BeginTransactionCommand,
  CommitTransactionCommand,
  RollbackTransactionCommand,
} from '@aws-sdk/client-rds-data';
import { beforeEach, describe, expect, it } from 'vitest';
import { ARNS, failure, freshTableEachTest, signedPost, useFixture } from './harness.ts';

describe('injected faults, counters and protocol robustness (PGlite)', () => {
  const fx = useFixture('pglite');
  freshTableEachTest(fx, 'scan', 'code text');
  beforeEach(() => fx.emulator.resetCounters());
  const count = async () => (await fx.exec('SELECT count(*) FROM scan')).records?.[0]?.[0]?.longValue;
  const insert = () => fx.exec("INSERT INTO scan VALUES ('A')");
  const post = (path: string, body: string) => signedPost(fx.emulator.endpoint, path, body);

  it.each([
    [
      'fails with DatabaseResumingException without running the statement',
      { fault: 'resuming', name: 'DatabaseResumingException', status: 400, rows: 0 },
    ],
    [
      'fails with ServiceUnavailableError (HTTP 503) without running the statement',
      { fault: 'unavailable', name: 'ServiceUnavailableError', status: 503, rows: 0 },
    ],
    [
      'answers StatementTimeoutException after the statement ran and committed',
      { fault: 'timeout-after-commit', name: 'StatementTimeoutException', status: 400, rows: 1 },
    ],
  ] as const)('%s', async (_rule, { fault, name, status, rows }) => {
    fx.emulator.injectFault(fault);
    const error = await failure(insert());
    expect(error.name).toBe(name);
    expect(error.$metadata?.httpStatusCode).toBe(status);
    expect(await count()).toBe(rows);
  });

  it('applies a fault to the next N execute calls, then recovers', async () => {
    fx.emulator.injectFault('resuming', 2);
    expect((await failure(insert())).name).toBe('DatabaseResumingException');
    expect((await failure(insert())).name).toBe('DatabaseResumingException');
    await insert();
    expect(await count()).toBe(1);
  });

  it('drops faults not yet consumed on clearFaults', async () => {
    fx.emulator.injectFault('resuming', 3);
    fx.emulator.clearFaults();
    await insert();
    expect(await count()).toBe(1);
  });

  it('applies faults to BatchExecuteStatement but not to transaction calls', async () => {
    fx.emulator.injectFault('unavailable');
    const id = (await fx.client.send(new BeginTransactionCommand(ARNS))).transactionId ?? '';
    await fx.client.send(new RollbackTransactionCommand({ ...ARNS, transactionId: id }));
    const error = await failure(
      fx.client.send(new BatchExecuteStatementCommand({ ...ARNS, sql: "INSERT INTO scan VALUES ('A')" })),
    );
    expect(error.name).toBe('ServiceUnavailableError');
    expect(await count()).toBe(0);
  });

  it('counts every call per operation, failed ones included, until reset', async () => {
    await insert();
    await failure(fx.exec('SELECT * FROM missing_table'));
    await fx.client.send(new BatchExecuteStatementCommand({ ...ARNS, sql: "INSERT INTO scan VALUES ('B')" }));
    const id = (await fx.client.send(new BeginTransactionCommand(ARNS))).transactionId ?? '';
    await fx.client.send(new CommitTransactionCommand({ ...ARNS, transactionId: id }));
    await failure(fx.client.send(new RollbackTransactionCommand({ ...ARNS, transactionId: id })));
    expect(fx.emulator.counters()).toEqual({
      ExecuteStatement: 2,
      BatchExecuteStatement: 1,
      BeginTransaction: 1,
      CommitTransaction: 1,
      RollbackTransaction: 1,
    });
    fx.emulator.resetCounters();
    expect(Object.values(fx.emulator.counters())).toEqual([0, 0, 0, 0, 0]);
  });

  it('serves many parallel calls on the single PGlite connection', async () => {
    await Promise.all(Array.from({ length: 20 }, () => insert()));
    expect(await count()).toBe(20);
  });

  it('answers malformed JSON with 400 BadRequestException and keeps serving', async () => {
    const response = await post('/Execute', '{"sql": ');
    expect(response.status).toBe(400);
    expect(response.headers.get('x-amzn-errortype')).toBe('BadRequestException');
    expect(await response.json()).toMatchObject({ message: expect.stringMatching(/malformed JSON/) });
    expect(await count()).toBe(0);
  });

  it('answers an unknown path with a 404 restJson error', async () => {
    const response = await post('/ExecuteSql', '{}');
    expect(response.status).toBe(404);
    expect(response.headers.get('x-amzn-errortype')).toBe('UnknownOperationException');
    expect(await response.json()).toHaveProperty('message');
  });
});
