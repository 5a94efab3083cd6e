import { describe, expect, it } from 'vitest';
import { createKeyKeeper, withRetries, type Outcome } from '../src/api.ts';

const offline: Outcome<string> = { ok: false, status: 0, offline: true };

describe('writes on a flapping connection', () => {
  it('retries a write without an answer until the service answers, and only then reports it', async () => {
    const answers: Outcome<string>[] = [
      offline,
      {
        ok: false,
        status: 503,
        error: { error_code: 'DATABASE_UNAVAILABLE', message: 'resuming', domain: 'system', request_id: 'r' },
      },
      { ok: true, status: 201, data: 'saved' },
    ];
    let attempts = 0;
    const outcome = await withRetries(async () => answers[attempts++] as Outcome<string>, {
      sleep: async () => undefined,
    });
    expect(attempts).toBe(3);
    expect(outcome).toEqual({ ok: true, status: 201, data: 'saved' });
  });

  it('does not retry a refusal', async () => {
    let attempts = 0;
    const outcome = await withRetries(
      async (): Promise<Outcome<string>> => (
        attempts++,
        {
          ok: false,
          status: 409,
          error: { error_code: 'ZONGPAI_CLOSED', message: 'closed', domain: 'zongpai', request_id: 'r' },
        }
      ),
      { sleep: async () => undefined },
    );
    expect(attempts).toBe(1);
    expect(outcome.ok).toBe(false);
  });

  it('gives up after the deadline and says it is not saved', async () => {
    let clock = 0;
    const outcome = await withRetries(async () => offline, {
      sleep: async (ms) => void (clock += ms),
      now: () => clock,
      deadlineMs: 10_000,
    });
    expect(outcome).toEqual(offline);
  });

  it('keeps one Idempotency-Key for the same body until answered, a new one for a new body or after an answer', () => {
    let n = 0;
    const keys = createKeyKeeper(() => `key-${(n += 1)}`);
    expect(keys.keyFor({ box_no: 'B', zongpai_no: 'P' })).toBe('key-1');
    expect(keys.keyFor({ box_no: 'B', zongpai_no: 'P' })).toBe('key-1');
    expect(keys.keyFor({ box_no: 'B', zongpai_no: 'Q' })).toBe('key-2');
    keys.settle();
    expect(keys.keyFor({ box_no: 'B', zongpai_no: 'Q' })).toBe('key-3');
  });
});
