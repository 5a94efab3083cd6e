import {
  BatchExecuteStatementCommand,
  BeginTransactionCommand,
  CommitTransactionCommand,
  RollbackTransactionCommand,
} from '@aws-sdk/client-rds-data';
import type { SqlParameter } from '@aws-sdk/client-rds-data';
import { describe, expect, it } from 'vitest';
import { ARNS, BACKENDS, failure, freshTableEachTest, useFixture } from './harness.ts';

const text = (name: string, stringValue: string): SqlParameter => ({ name, value: { stringValue } });

describe.each(BACKENDS)('transactions and batches on %s', (kind) => {
  const fx = useFixture(kind);
  freshTableEachTest(fx, 'scan', 'code text PRIMARY KEY');
  const begin = async () => (await fx.client.send(new BeginTransactionCommand(ARNS))).transactionId ?? '';
  const commit = (transactionId: string) => fx.client.send(new CommitTransactionCommand({ ...ARNS, transactionId }));
  const rollback = (transactionId: string) =>
    fx.client.send(new RollbackTransactionCommand({ ...ARNS, transactionId }));
  const count = async () => (await fx.exec('SELECT count(*) FROM scan')).records?.[0]?.[0]?.longValue;
  const insert = (code: string, transactionId?: string) =>
    fx.exec('INSERT INTO scan (code) VALUES (:code)', [text('code', code)], { transactionId });

  it('commits: statements in the transaction become visible with "Transaction Committed"', async () => {
    const id = await begin();
    expect(id).toMatch(/^[A-Za-z0-9+/=]{20,}$/);
    await insert('A', id);
    expect((await fx.exec('SELECT count(*) FROM scan', [], { transactionId: id })).records?.[0]).toEqual([
      { longValue: 1 },
    ]);
    expect(await commit(id)).toMatchObject({ transactionStatus: 'Transaction Committed' });
    expect(await count()).toBe(1);
  });

  it('rolls back: nothing remains, with "Rollback Complete"', async () => {
    const id = await begin();
    await insert('A', id);
    expect(await rollback(id)).toMatchObject({ transactionStatus: 'Rollback Complete' });
    expect(await count()).toBe(0);
  });

  it('answers TransactionNotFoundException (404) for an unknown or finished transaction id', async () => {
    const unknown = await failure(insert('A', 'no-such-transaction'));
    expect(unknown.name).toBe('TransactionNotFoundException');
    expect(unknown.$metadata?.httpStatusCode).toBe(404);
    const id = await begin();
    await commit(id);
    expect((await failure(commit(id))).name).toBe('TransactionNotFoundException');
    expect((await failure(rollback(id))).name).toBe('TransactionNotFoundException');
    expect((await failure(insert('B', id))).name).toBe('TransactionNotFoundException');
  });

  it('aborts the transaction after a failed statement, and its commit fails with SQLState 25P02', async () => {
    const id = await begin();
    await insert('A', id);
    expect((await failure(insert('A', id))).message).toMatch(/SQLState: 23505$/);
    expect((await failure(insert('B', id))).message).toMatch(/SQLState: 25P02$/);
    const error = await failure(commit(id));
    expect(error.name).toBe('DatabaseErrorException');
    expect(error.message).toMatch(/SQLState: 25P02$/);
    expect(await count()).toBe(0);
  });

  it.runIf(kind === 'postgres')('isolates uncommitted rows from statements outside the transaction', async () => {
    const id = await begin();
    await insert('A', id);
    expect(await count()).toBe(0);
    await commit(id);
    expect(await count()).toBe(1);
  });

  it.runIf(kind === 'pglite')('makes statements outside a transaction wait until it ends', async () => {
    const id = await begin();
    await insert('A', id);
    let outsideDone = false;
    const outside = count().then((n) => {
      outsideDone = true;
      return n;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(outsideDone).toBe(false);
    await commit(id);
    expect(await outside).toBe(1);
  });

  it.runIf(kind === 'postgres')('runs parallel statements in parallel', async () => {
    const started = Date.now();
    await Promise.all([1, 2, 3].map(() => fx.exec('SELECT true AS slept FROM pg_sleep(0.3)')));
    expect(Date.now() - started).toBeLessThan(880); // one after the other would take at least 900 ms
  });

  it('runs a batch once per parameter set, answering one updateResult each', async () => {
    const out = await fx.client.send(
      new BatchExecuteStatementCommand({
        ...ARNS,
        sql: 'INSERT INTO scan (code) VALUES (:code)',
        parameterSets: [[text('code', 'A')], [text('code', 'B')], [text('code', 'C')]],
      }),
    );
    expect(out.updateResults).toEqual([{ generatedFields: [] }, { generatedFields: [] }, { generatedFields: [] }]);
    expect(await count()).toBe(3);
  });

  it('runs a batch outside a transaction all or nothing', async () => {
    const error = await failure(
      fx.client.send(
        new BatchExecuteStatementCommand({
          ...ARNS,
          sql: 'INSERT INTO scan (code) VALUES (:code)',
          parameterSets: [[text('code', 'A')], [text('code', 'B')], [text('code', 'A')]],
        }),
      ),
    );
    expect(error.name).toBe('DatabaseErrorException');
    expect(await count()).toBe(0);
  });

  it('runs a batch inside a transaction as part of it', async () => {
    const id = await begin();
    await fx.client.send(
      new BatchExecuteStatementCommand({
        ...ARNS,
        transactionId: id,
        sql: 'INSERT INTO scan (code) VALUES (:code)',
        parameterSets: [[text('code', 'A')], [text('code', 'B')]],
      }),
    );
    await rollback(id);
    expect(await count()).toBe(0);
  });
});
