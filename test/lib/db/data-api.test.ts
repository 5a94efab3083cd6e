import { describe, expect, it } from 'vitest';
import { DataApiDb } from '../../../lib/db/data-api.ts';
import { AppError } from '../../../lib/errors/app-error.ts';

const ARNS = {
  resourceArn: 'arn:aws:rds:eu-west-1:123456789012:cluster:cargo',
  secretArn: 'arn:secret',
  database: 'cargo',
};

/** A Data API client whose calls never answer: they end only when the caller aborts them, as the SDK's do. */
const silentClient = () => {
  const signals: (AbortSignal | undefined)[] = [];
  return {
    signals,
    send: (_command: unknown, options?: { abortSignal?: AbortSignal }) =>
      new Promise<never>((_resolve, reject) => {
        signals.push(options?.abortSignal);
        options?.abortSignal?.addEventListener('abort', () => {
          const error = new Error('Request aborted');
          error.name = 'AbortError';
          reject(error);
        });
      }),
  };
};

describe('a Data API call that does not answer', () => {
  // A slow statement (an ERP view taking minutes, say) must not outlive the function: Lambda
  // would stop it and API Gateway answer in a body of its own instead of the unified one.
  it('is abandoned after the call timeout with 503 DATABASE_UNAVAILABLE and Retry-After', async () => {
    const client = silentClient();
    const db = new DataApiDb({ client: client as never, ...ARNS, retryBudgetMs: 1_000, callTimeoutMs: 50 });
    const started = Date.now();
    const error = await db.query('SELECT 1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'DATABASE_UNAVAILABLE', headers: { 'Retry-After': '5' } });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(client.signals).toHaveLength(1);
    expect(client.signals[0]?.aborted).toBe(true);
  });

  it('bounds every call of a transaction the same way', async () => {
    const client = silentClient();
    const db = new DataApiDb({ client: client as never, ...ARNS, retryBudgetMs: 1_000, callTimeoutMs: 50 });
    const error = await db.transaction(async () => 'never reached').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'DATABASE_UNAVAILABLE' });
  });
});

describe('a Data API call refused because the database is missing or unreachable', () => {
  /** A client answering every call DatabaseErrorException with `message`, counting the calls. */
  const refusingClient = (message: string) => {
    let calls = 0;
    return {
      calls: () => calls,
      send: async () => {
        calls += 1;
        throw Object.assign(new Error(message), { name: 'DatabaseErrorException' });
      },
    };
  };

  it.each([
    ['a missing database (3D000)', 'FATAL: database "cargo" does not exist; SQLState: 3D000'],
    ['a terminated connection (57P01)', 'FATAL: terminating connection due to administrator command; SQLState: 57P01'],
    ['a server starting up (57P03)', 'FATAL: the database system is starting up; SQLState: 57P03'],
    ['a failed connection (08006)', 'FATAL: connection failure; SQLState: 08006'],
  ])('answers %s with 503 DATABASE_UNAVAILABLE and Retry-After at once', async (_case, message) => {
    const client = refusingClient(message);
    const db = new DataApiDb({ client: client as never, ...ARNS, retryBudgetMs: 1_000 });
    const error = await db.query('SELECT 1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'DATABASE_UNAVAILABLE', headers: { 'Retry-After': '5' } });
    expect(client.calls()).toBe(1);
  });

  it('leaves a statement refused by the database itself a DatabaseError', async () => {
    const client = refusingClient('ERROR: relation "cargo.nothing" does not exist; SQLState: 42P01');
    const db = new DataApiDb({ client: client as never, ...ARNS, retryBudgetMs: 1_000 });
    expect(await db.query('SELECT 1').catch((e: unknown) => e)).toMatchObject({
      name: 'DatabaseError',
      sqlState: '42P01',
    });
  });
});
