import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TextResult, SqlTransaction } from '../../../local/data-api/backend.ts';
import { DataApiError } from '../../../local/data-api/errors.ts';
import { TransactionRegistry } from '../../../local/data-api/transactions.ts';

const EMPTY: TextResult = { fields: [], rows: [], command: 'SELECT', rowCount: 0 };

/** A transaction that records what happened to it. */
const fakeTransaction = (log: string[], delayMs = 0): SqlTransaction => ({
  query: async (text) => {
    log.push(`start ${text}`);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    log.push(`end ${text}`);
    return EMPTY;
  },
  commit: async () => {
    log.push('commit');
  },
  rollback: async () => {
    log.push('rollback');
  },
});

const notFound = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DataApiError);
  expect((error as DataApiError).type).toBe('TransactionNotFoundException');
};

describe('TransactionRegistry', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('rolls back a transaction idle for the timeout and forgets its id', async () => {
    vi.useFakeTimers();
    const log: string[] = [];
    const registry = new TransactionRegistry(180_000);
    const id = registry.add(fakeTransaction(log));
    await vi.advanceTimersByTimeAsync(179_999);
    expect(log).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(log).toEqual(['rollback']);
    await notFound(registry.use(id, (tx) => tx.query('SELECT 1')));
  });

  it('restarts the idle clock on every call', async () => {
    vi.useFakeTimers();
    const log: string[] = [];
    const registry = new TransactionRegistry(180_000);
    const id = registry.add(fakeTransaction(log));
    for (let i = 0; i < 4; i += 1) {
      await vi.advanceTimersByTimeAsync(120_000);
      await registry.use(id, (tx) => tx.query(`q${i}`));
    }
    await registry.end(id, 'commit');
    expect(log.at(-1)).toBe('commit');
    expect(log).not.toContain('rollback');
  });

  it('refuses a second call while one runs on the transaction with "Transaction is still running a query"', async () => {
    const log: string[] = [];
    const registry = new TransactionRegistry();
    const id = registry.add(fakeTransaction(log, 20));
    const first = registry.use(id, (tx) => tx.query('a'));
    const second = await registry
      .use(id, (tx) => tx.query('b'))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(second).toMatchObject({
      type: 'DatabaseErrorException',
      statusCode: 400,
      message: 'Transaction is still running a query',
    });
    await first;
    await registry.use(id, (tx) => tx.query('c'));
    await registry.end(id, 'rollback');
    expect(log).toEqual(['start a', 'end a', 'start c', 'end c', 'rollback']);
  });

  it('refuses a commit while a statement runs, and keeps the transaction open', async () => {
    const log: string[] = [];
    const registry = new TransactionRegistry();
    const id = registry.add(fakeTransaction(log, 20));
    const first = registry.use(id, (tx) => tx.query('a'));
    const commit = await registry.end(id, 'commit').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(commit).toMatchObject({ type: 'DatabaseErrorException', message: 'Transaction is still running a query' });
    await first;
    await registry.end(id, 'commit');
    await notFound(registry.use(id, (tx) => tx.query('late')));
    expect(log).toEqual(['start a', 'end a', 'commit']);
  });

  it('answers TransactionNotFoundException once a transaction has ended', async () => {
    const registry = new TransactionRegistry();
    const id = registry.add(fakeTransaction([]));
    await registry.end(id, 'commit');
    await notFound(registry.end(id, 'commit'));
    await notFound(registry.end('never-issued', 'rollback'));
  });
});
