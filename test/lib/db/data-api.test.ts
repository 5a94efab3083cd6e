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
