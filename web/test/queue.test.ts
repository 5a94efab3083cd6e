// The browser's IndexedDB classes as globals (idb recognises requests and transactions by them).
import 'fake-indexeddb/auto';
import { IDBFactory, IDBObjectStore } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import type { Outcome } from '../src/api.ts';
import { createUploader, openScanStore, type QueuedScan } from '../src/queue.ts';

const scan = (cargo: string): QueuedScan['scan'] => ({
  cargo_no: cargo,
  location_code: 'A-01-01',
  off_shelf: false,
  scanned_at: '2026-05-01T08:00:00.000Z',
  device_id: 'HH-1',
});
const stored: Outcome<unknown> = { ok: true, status: 201, data: {} };
const offline: Outcome<unknown> = { ok: false, status: 0, offline: true };

/** A fake service that records every upload (records and key) and answers from a script. */
const service = (answers: ((records: QueuedScan['scan'][]) => Outcome<unknown>)[]) => {
  const calls: { key: string; cargo: string[] }[] = [];
  return {
    calls,
    upload: async (records: QueuedScan['scan'][], key: string) => {
      calls.push({ key, cargo: records.map((r) => r.cargo_no) });
      return (answers.shift() ?? (() => stored))(records);
    },
  };
};

let n = 0;
const newKey = () => `batch-${(n += 1)}`;

describe('the offline scan queue', () => {
  it('keeps scans across a reopen of the database (a reload or a crash loses none)', async () => {
    const factory = new IDBFactory();
    const first = await openScanStore(factory);
    await first.add(scan('BOX-1'), 'k1', 'olga');
    await first.add(scan('BOX-2'), 'k2', 'olga');
    first.close();
    const again = await openScanStore(factory);
    expect((await again.pending()).map((q) => q.scan.cargo_no)).toEqual(['BOX-1', 'BOX-2']);
  });

  it('reports a scan kept only once its transaction committed, never when the transaction aborts', async () => {
    const store = await openScanStore(new IDBFactory());
    // The put itself succeeds; the transaction around it is then aborted before it commits.
    const add = IDBObjectStore.prototype.add;
    IDBObjectStore.prototype.add = function (this: IDBObjectStore, ...args: Parameters<typeof add>) {
      const request = add.apply(this, args);
      request.addEventListener('success', () => this.transaction.abort());
      return request;
    };
    try {
      await expect(store.add(scan('BOX-1'), 'k1', 'olga')).rejects.toThrow();
    } finally {
      IDBObjectStore.prototype.add = add;
    }
    expect(await store.all()).toEqual([]);
    await store.add(scan('BOX-2'), 'k2', 'olga');
    expect((await store.pending()).map((q) => q.scan.cargo_no)).toEqual(['BOX-2']);
  });

  it('uploads waiting scans as one backlog and empties the queue', async () => {
    const store = await openScanStore(new IDBFactory());
    for (const c of ['BOX-1', 'BOX-2', 'BOX-3']) await store.add(scan(c), `k-${c}`, 'olga');
    const api = service([]);
    expect(await createUploader({ store, upload: api.upload, newKey, user: () => 'olga' }).flush()).toBe('done');
    expect(api.calls.map((c) => c.cargo)).toEqual([['BOX-1', 'BOX-2', 'BOX-3']]);
    expect(await store.all()).toEqual([]);
  });

  it('uploads each scan once when two tabs of the app flush the same queue at once', async () => {
    const factory = new IDBFactory();
    const tabs = [await openScanStore(factory), await openScanStore(factory)];
    for (let i = 0; i < 40; i += 1) await tabs[0]!.add(scan(`BOX-${i}`), `k-${i}`, 'olga');
    const api = service([]);
    await Promise.all(
      tabs.map((store) => createUploader({ store, upload: api.upload, newKey, user: () => 'olga' }).flush()),
    );
    const uploaded = api.calls.flatMap((c) => c.cargo);
    expect(uploaded.toSorted()).toEqual(Array.from({ length: 40 }, (_, i) => `BOX-${i}`).toSorted());
    expect(await tabs[1]!.all()).toEqual([]);
  });

  it('sends a single scan under its own Idempotency-Key', async () => {
    const store = await openScanStore(new IDBFactory());
    await store.add(scan('BOX-1'), 'scan-key-1', 'olga');
    const api = service([]);
    await createUploader({ store, upload: api.upload, newKey, user: () => 'olga' }).flush();
    expect(api.calls).toEqual([{ key: 'scan-key-1', cargo: ['BOX-1'] }]);
  });

  it('tells of each scan the service refused as soon as it answers, with its reason', async () => {
    const store = await openScanStore(new IDBFactory());
    await store.add(scan('bad code!'), 'k-bad', 'olga');
    const error = { error_code: 'INVALID_BOX_NO', message: 'not a box', domain: 'box', request_id: 'r' } as const;
    const api = service([() => ({ ok: false, status: 400, error })]);
    const told: QueuedScan[][] = [];
    const uploader = createUploader({
      store,
      upload: api.upload,
      newKey,
      user: () => 'olga',
      onRefused: (refused) => told.push([...refused]),
    });
    await uploader.flush();
    expect(told.map((r) => r.map((q) => [q.scan.cargo_no, q.error?.error_code]))).toEqual([
      [['bad code!', 'INVALID_BOX_NO']],
    ]);
  });

  it('splits more than 500 waiting scans into backlogs of at most 500', async () => {
    const store = await openScanStore(new IDBFactory());
    for (let i = 0; i < 501; i += 1) await store.add(scan(`BOX-${1000 + i}`), `k${i}`, 'olga');
    const api = service([]);
    await createUploader({ store, upload: api.upload, newKey, user: () => 'olga' }).flush();
    expect(api.calls.map((c) => c.cargo.length)).toEqual([500, 1]);
  });

  it('sends a backlog that got no answer again as itself, under the same key, with later scans apart', async () => {
    const store = await openScanStore(new IDBFactory());
    await store.add(scan('BOX-1'), 'k1', 'olga');
    await store.add(scan('BOX-2'), 'k2', 'olga');
    const api = service([() => offline]);
    const uploader = createUploader({ store, upload: api.upload, newKey, user: () => 'olga' });
    expect(await uploader.flush()).toBe('offline');
    await store.add(scan('BOX-3'), 'k3', 'olga');
    expect(await uploader.flush()).toBe('done');
    expect(api.calls[1]).toEqual({ key: api.calls[0]?.key, cargo: ['BOX-1', 'BOX-2'] });
    expect(api.calls[2]).toEqual({ key: 'k3', cargo: ['BOX-3'] });
    expect(await store.all()).toEqual([]);
  });

  it('tries again at once when the network comes back while an upload is failing: the backlog does not wait', async () => {
    const store = await openScanStore(new IDBFactory());
    await store.add(scan('BOX-1'), 'k1', 'olga');
    let back: () => void = () => undefined;
    const uploader = createUploader({
      store,
      newKey,
      user: () => 'olga',
      // The first try is still under way (offline) when the device is online again and flushes.
      upload: service([
        () => {
          back();
          return offline;
        },
      ]).upload,
    });
    let again: Promise<string> | undefined;
    back = () => {
      again = uploader.flush();
    };
    expect(await uploader.flush()).toBe('done');
    expect(await again).toBe('done');
    expect(await store.all()).toEqual([]);
  });

  it('marks the scans a refused backlog names as refused, with the reason, and stores the others', async () => {
    const store = await openScanStore(new IDBFactory());
    for (const c of ['BOX-1', 'x', 'BOX-3']) await store.add(scan(c), `k-${c}`, 'olga');
    const refusal: Outcome<unknown> = {
      ok: false,
      status: 400,
      error: {
        error_code: 'INVALID_BOX_NO',
        message: "records[1].cargo_no: box_no 'X' is not valid",
        domain: 'box',
        request_id: 'r',
        details: [
          { field: 'records[1].cargo_no', error_code: 'INVALID_BOX_NO', message: "box_no 'X' must be 4-32 characters" },
        ],
      },
    };
    const api = service([() => refusal]);
    await createUploader({ store, upload: api.upload, newKey, user: () => 'olga' }).flush();
    expect(api.calls.map((c) => c.cargo)).toEqual([
      ['BOX-1', 'x', 'BOX-3'],
      ['BOX-1', 'BOX-3'],
    ]);
    expect(api.calls[1]?.key).not.toBe(api.calls[0]?.key);
    const refused = await store.refused();
    expect(refused.map((q) => [q.scan.cargo_no, q.error?.error_code, q.error?.message])).toEqual([
      ['x', 'INVALID_BOX_NO', "box_no 'X' must be 4-32 characters"],
    ]);
    expect(await store.pending()).toEqual([]);
  });

  it('keeps everything waiting when the token is refused (sign in again)', async () => {
    const store = await openScanStore(new IDBFactory());
    await store.add(scan('BOX-1'), 'k1', 'olga');
    const api = service([
      () => ({
        ok: false,
        status: 401,
        error: { error_code: 'UNAUTHORIZED', message: 'Unauthorized', domain: 'auth', request_id: 'r' },
      }),
    ]);
    expect(await createUploader({ store, upload: api.upload, newKey, user: () => 'olga' }).flush()).toBe(
      'unauthorized',
    );
    expect((await store.pending()).length).toBe(1);
  });

  it("uploads only the signed-in user's scans; another user's wait for them to sign in again", async () => {
    const store = await openScanStore(new IDBFactory());
    await store.add(scan('BOX-1'), 'k1', 'olga');
    await store.add(scan('BOX-2'), 'k2', 'sam');
    await store.add(scan('BOX-3'), 'k3', 'olga');
    const api = service([]);
    let user: string | undefined = 'sam';
    const uploader = createUploader({ store, upload: api.upload, newKey, user: () => user });
    expect(await uploader.flush()).toBe('done');
    expect(api.calls).toEqual([{ key: 'k2', cargo: ['BOX-2'] }]);
    expect((await store.pending()).map((q) => [q.scan.cargo_no, q.user])).toEqual([
      ['BOX-1', 'olga'],
      ['BOX-3', 'olga'],
    ]);
    user = undefined;
    expect(await uploader.flush()).toBe('unauthorized');
    expect(api.calls.length).toBe(1);
    user = 'olga';
    expect(await uploader.flush()).toBe('done');
    expect(api.calls[1]?.cargo).toEqual(['BOX-1', 'BOX-3']);
    expect(await store.all()).toEqual([]);
  });

  it("keeps a backlog sent for one user for that user, never resent under another's name", async () => {
    const store = await openScanStore(new IDBFactory());
    await store.add(scan('BOX-1'), 'k1', 'olga');
    const api = service([() => offline]);
    let user = 'olga';
    const uploader = createUploader({ store, upload: api.upload, newKey, user: () => user });
    expect(await uploader.flush()).toBe('offline');
    user = 'sam';
    expect(await uploader.flush()).toBe('done');
    expect(api.calls.length).toBe(1);
    expect((await store.pending()).map((q) => q.user)).toEqual(['olga']);
  });

  /**
   * A refusal of scans stamped too far ahead of the service's clock, as the service words it: one
   * field named at the start of its message, several in its details.
   */
  const aheadOfService = (indexes: readonly number[]): Outcome<unknown> => ({
    ok: false,
    status: 400,
    error: {
      error_code: 'VALIDATION_ERROR',
      message: `records[${indexes[0]}].scanned_at must not be more than 5 minutes ahead of the server's clock`,
      domain: 'request',
      request_id: 'r',
      ...(indexes.length === 1
        ? {}
        : {
            details: indexes.map((i) => ({
              field: `records[${i}].scanned_at`,
              error_code: 'VALIDATION_ERROR',
              message: "must not be more than 5 minutes ahead of the server's clock",
            })),
          }),
    },
  });
  const at = (cargo: string, scanned_at: string): QueuedScan['scan'] => ({ ...scan(cargo), scanned_at });

  it("takes scans stamped ahead of the service's clock back to its time, keeping their order, and sends each once", async () => {
    const store = await openScanStore(new IDBFactory());
    await store.add(at('BOX-1', '2026-05-01T08:10:00.000Z'), 'k1', 'olga');
    await store.add(at('BOX-1', '2026-05-01T08:12:00.000Z'), 'k2', 'olga');
    const sent: { key: string; times: string[] }[] = [];
    const answers = [aheadOfService([0, 1])];
    const told: QueuedScan[][] = [];
    const uploader = createUploader({
      store,
      newKey,
      user: () => 'olga',
      // What the device learnt from the refusal's Date header: the service's time is 08:02.
      now: () => Date.parse('2026-05-01T08:02:00.000Z'),
      upload: async (records, key) => {
        sent.push({ key, times: records.map((r) => r.scanned_at) });
        return answers.shift() ?? stored;
      },
      onRestamped: (scans) => told.push([...scans]),
    });
    expect(await uploader.flush()).toBe('done');
    expect(sent.map((s) => s.times)).toEqual([
      ['2026-05-01T08:10:00.000Z', '2026-05-01T08:12:00.000Z'],
      ['2026-05-01T08:00:00.000Z', '2026-05-01T08:02:00.000Z'],
    ]);
    expect(told.map((scans) => scans.length)).toEqual([2]);
    expect(await store.all()).toEqual([]);
  });

  it('keeps a scan the service still finds ahead after it was taken back, refused with the clock as its reason', async () => {
    const store = await openScanStore(new IDBFactory());
    await store.add(at('BOX-1', '2026-05-01T08:10:00.000Z'), 'k1', 'olga');
    const answers = [aheadOfService([0]), aheadOfService([0])];
    const uploader = createUploader({
      store,
      newKey,
      user: () => 'olga',
      now: () => Date.parse('2026-05-01T08:00:00.000Z'),
      upload: async () => answers.shift() ?? stored,
    });
    expect(await uploader.flush()).toBe('done');
    expect((await store.refused()).map((q) => [q.scan.cargo_no, q.error?.error_code])).toEqual([
      ['BOX-1', 'DEVICE_CLOCK'],
    ]);
  });
});
