import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QueryResult, SqlTransaction } from '../../../../infra/local/data-api/backend.ts';
import { DataApiError } from '../../../../infra/local/data-api/errors.ts';
import { TransactionRegistry } from '../../../../infra/local/data-api/transactions.ts';

const EMPTY: QueryResult = { fields: [], rows: [], command: 'SELECT', rowCount: 0 };

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
  const error = await promise.then(() => undefined, (e: unknown) => e);
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

  it('runs concurrent calls on one transaction one after the other', async () => {
    const log: string[] = [];
    const registry = new TransactionRegistry();
    const id = registry.add(fakeTransaction(log, 20));
    await Promise.all([registry.use(id, (tx) => tx.query('a')), registry.use(id, (tx) => tx.query('b'))]);
    await registry.end(id, 'rollback');
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'rollback']);
  });

  it('runs a call that arrived before the commit, and refuses one after it', async () => {
    const log: string[] = [];
    const registry = new TransactionRegistry();
    const id = registry.add(fakeTransaction(log, 20));
    const first = registry.use(id, (tx) => tx.query('a'));
    const commit = registry.end(id, 'commit');
    await notFound(registry.use(id, (tx) => tx.query('late')));
    await Promise.all([first, commit]);
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
