import { describe, expect, it } from 'vitest';
import { createApi, createKeyKeeper, withRetries, type Outcome } from '../src/api.ts';

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

describe('the service prefix', () => {
  const signedOut = {
    idToken: async () => undefined,
    session: () => undefined,
    refresh: async () => undefined,
  } as unknown as Parameters<typeof createApi>[0]['auth'];

  /** An API whose requests are recorded and answered 201 with `{}`. */
  const recorded = (servicePrefix?: string) => {
    const sent: { url: string; method: string; body: string; key: string | null }[] = [];
    const api = createApi({
      auth: signedOut,
      lang: () => 'en',
      baseUrl: 'https://handheld.example',
      ...(servicePrefix === undefined ? {} : { servicePrefix }),
      fetch: async (request) => {
        sent.push({
          url: request.url,
          method: request.method,
          body: await request.text(),
          key: request.headers.get('idempotency-key'),
        });
        return new Response('{}', { status: 201, headers: { 'content-type': 'application/json' } });
      },
    });
    return { api, sent };
  };

  it('sends the location routes under the prefix the service is deployed with, body and headers as they were', async () => {
    const { api, sent } = recorded('wms');
    await api.run(
      api.client.POST('/v1/cargo/location', {
        body: { cargo_no: 'BOX-1001', location_code: 'A-01', off_shelf: false },
        headers: { 'Idempotency-Key': 'k-1' },
      }),
    );
    await api.run(api.client.GET('/v1/cargo/location/{cargo_no}', { params: { path: { cargo_no: 'BOX-1001' } } }));
    expect(sent).toEqual([
      {
        url: 'https://handheld.example/v1/wms/location',
        method: 'POST',
        body: '{"cargo_no":"BOX-1001","location_code":"A-01","off_shelf":false}',
        key: 'k-1',
      },
      { url: 'https://handheld.example/v1/wms/location/BOX-1001', method: 'GET', body: '', key: null },
    ]);
  });

  it('leaves every other route, and every route of a service on the default prefix, as it is', async () => {
    const renamed = recorded('wms');
    await renamed.api.run(renamed.api.client.GET('/v1/box/info', { params: { query: { box_no: 'BOX-1001' } } }));
    const plain = recorded();
    await plain.api.run(
      plain.api.client.GET('/v1/cargo/location/{cargo_no}', { params: { path: { cargo_no: 'BOX-1001' } } }),
    );
    expect([...renamed.sent, ...plain.sent].map((s) => s.url)).toEqual([
      'https://handheld.example/v1/box/info?box_no=BOX-1001',
      'https://handheld.example/v1/cargo/location/BOX-1001',
    ]);
  });
});

describe("a backlog sent as its owner's", () => {
  /** A handheld on which `signedIn` is signed in now, and every request the network saw with its token. */
  const handheld = (signedIn: string) => {
    const sent: (string | null)[] = [];
    const api = createApi({
      auth: {
        idToken: async () => `token-of-${signedIn}`,
        session: () => ({ user: signedIn }),
        refresh: async () => undefined,
      } as unknown as Parameters<typeof createApi>[0]['auth'],
      lang: () => 'en',
      baseUrl: 'https://handheld.example',
      fetch: async (request) => {
        sent.push(request.headers.get('authorization'));
        return new Response('{}', { status: 201, headers: { 'content-type': 'application/json' } });
      },
    });
    const upload = (owner: string) =>
      api.run(
        api.clientFor(owner).POST('/v1/cargo/location', {
          body: { records: [{ cargo_no: 'BOX-1001', location_code: 'A-01', off_shelf: false }] },
          params: { header: { 'Idempotency-Key': 'backlog-1' } },
        }),
      );
    return { sent, upload };
  };

  it("goes with its owner's token while the owner is signed in", async () => {
    const { sent, upload } = handheld('olga');
    expect((await upload('olga')).ok).toBe(true);
    expect(sent).toEqual(['token-of-olga']);
  });

  it('is not sent once another operator is signed in: it waits, as if offline, for its owner', async () => {
    const { sent, upload } = handheld('sam');
    expect(await upload('olga')).toEqual({ ok: false, status: 0, offline: true });
    expect(sent).toEqual([]);
  });
});
