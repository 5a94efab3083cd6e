import { describe, expect, it } from 'vitest';
import { AppError } from '../../../lib/errors/app-error.ts';
import { databaseUnavailable, isTransient, parseDatabaseError } from '../../../lib/db/errors.ts';
import { withRetry } from '../../../lib/db/retry.ts';

const named = (name: string) => Object.assign(new Error(name), { name });

describe('database errors', () => {
  it('reads the SQLState and constraint of a unique violation', () => {
    const error = parseDatabaseError(
      'ERROR: duplicate key value violates unique constraint "zongpai_pkey"\n  Detail: Key (zongpai_no)=(PLT-1) already exists.; SQLState: 23505',
    );
    expect({ state: error.sqlState, constraint: error.constraint, unique: error.isUniqueViolation }).toEqual({
      state: '23505',
      constraint: 'zongpai_pkey',
      unique: true,
    });
  });

  it('tells other failures apart from a unique violation', () => {
    const error = parseDatabaseError('ERROR: relation "erp.v_box_info" does not exist; SQLState: 42P01');
    expect({ state: error.sqlState, unique: error.isUniqueViolation }).toEqual({ state: '42P01', unique: false });
  });

  it('treats a resuming cluster and throttling as transient, a SQL error as not', () => {
    expect(isTransient(named('DatabaseResumingException'))).toBe(true);
    expect(isTransient(named('ServiceUnavailableError'))).toBe(true);
    expect(isTransient(named('DatabaseErrorException'))).toBe(false);
    expect(isTransient(named('StatementTimeoutException'))).toBe(false);
  });

  it('answers a resuming cluster with 503 and a longer Retry-After', () => {
    const error = databaseUnavailable(named('DatabaseResumingException'));
    expect({ status: error.statusCode, code: error.code, retryAfter: error.headers['Retry-After'] }).toEqual({
      status: 503,
      code: 'DATABASE_UNAVAILABLE',
      retryAfter: '15',
    });
  });
});

describe('retry with backoff', () => {
  const clock = () => {
    let t = 0;
    return { now: () => t, sleep: async (ms: number) => void (t += ms), random: () => 0.5 };
  };

  it('retries transient failures until the operation succeeds', async () => {
    let calls = 0;
    const result = await withRetry(
      async () => (++calls < 4 ? Promise.reject(named('DatabaseResumingException')) : 'ok'),
      {
        ...clock(),
        isTransient,
        giveUp: databaseUnavailable,
        budgetMs: 10_000,
      },
    );
    expect({ result, calls }).toEqual({ result: 'ok', calls: 4 });
  });

  it('gives up with 503 when the budget is spent', async () => {
    const c = clock();
    const failing = withRetry(async () => Promise.reject(named('DatabaseResumingException')), {
      ...c,
      isTransient,
      giveUp: databaseUnavailable,
      budgetMs: 5_000,
    });
    await expect(failing).rejects.toBeInstanceOf(AppError);
    expect(c.now()).toBeLessThanOrEqual(5_000);
  });

  it('caps each delay', async () => {
    const delays: number[] = [];
    let t = 0;
    await withRetry(async () => Promise.reject(named('ServiceUnavailableError')), {
      now: () => t,
      sleep: async (ms) => {
        delays.push(ms);
        t += ms;
      },
      random: () => 1,
      isTransient,
      giveUp: databaseUnavailable,
      budgetMs: 20_000,
      maxDelayMs: 2_000,
    }).catch(() => undefined);
    expect(Math.max(...delays)).toBe(2_000);
    expect(delays.slice(0, 3)).toEqual([100, 200, 400]);
  });

  it('does not retry a failure that is not transient', async () => {
    let calls = 0;
    await expect(
      withRetry(
        async () => {
          calls += 1;
          throw named('DatabaseErrorException');
        },
        { ...clock(), isTransient, giveUp: databaseUnavailable, budgetMs: 10_000 },
      ),
    ).rejects.toThrow();
    expect(calls).toBe(1);
  });
});
