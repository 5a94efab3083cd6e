import type { Outcome } from './api.ts';
import { wrap, type DBSchema, type IDBPDatabase, type IDBPObjectStore } from 'idb';
import type { ErrorBody, LocationScan } from './api-types.ts';

/**
 * Location scans kept on the device (IndexedDB) from the moment they are scanned until the
 * service stored them, so a reload, a crash, a closed tab or a dead network loses none. The
 * uploader sends them as backlogs of at most 500; a backlog, once sent, is sent again only as
 * itself under its own Idempotency-Key, so the service stores each scan exactly once. Each scan
 * keeps the user who made it and is uploaded only while that user is signed in (the service
 * records the caller as the one who scanned); another user's scans wait for them.
 */
export interface QueuedScan {
  /** The scan's own Idempotency-Key (also the key of a backlog of that one scan). */
  readonly key: string;
  readonly seq: number;
  readonly scan: LocationScan & { scanned_at: string; device_id: string };
  /** Who scanned it; scans kept before users were kept have none, and go with whoever is signed in. */
  readonly user?: string;
  readonly state: 'pending' | 'refused';
  /** The key of the backlog it was sent in, while that backlog has no definitive answer. */
  readonly batch?: string;
  /** Sent on its own: the backlog it was in was refused without saying which scan was wrong. */
  readonly solo?: boolean;
  /** Taken back once to the service's time after the service found it stamped too far ahead. */
  readonly restamped?: boolean;
  readonly error?: { readonly error_code: string; readonly message: string };
}

export const MAX_BACKLOG = 500;

/** The least `seq` a scan kept at this time (ms) can have: scans are numbered by when they were kept. */
export const sequenceAt = (time: number): number => time * 1000;
const STORE = 'scans' as const;

/** The device's database: one store of scans by key, read in the order they were scanned. */
interface ScanDb extends DBSchema {
  scans: { key: string; value: QueuedScan; indexes: { seq: number } };
}

/**
 * Opened with `idb` over the factory given (the browser's, or a test's): every change below
 * awaits its transaction's `done`, which resolves when IndexedDB committed it and rejects when
 * the transaction aborted or failed, so nothing is reported kept before it is.
 */
const open = async (factory: IDBFactory, name: string): Promise<IDBPDatabase<ScanDb>> => {
  const request = factory.open(name, 1);
  request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'key' }).createIndex('seq', 'seq');
  return (await wrap(request)) as unknown as IDBPDatabase<ScanDb>;
};

/**
 * @example
 * ```ts
 * const store = await openScanStore(indexedDB);
 * await store.add({ cargo_no: 'BOX-1001', location_code: 'A-01-01', off_shelf: false, scanned_at, device_id }, crypto.randomUUID());
 * ```
 */
export const openScanStore = async (factory: IDBFactory, name = 'cargo-handheld') => {
  const db = await open(factory, name);
  let counter = 0;
  /** One read-write transaction doing `work`; resolves once it committed. */
  const write = async (
    work: (store: IDBPObjectStore<ScanDb, [typeof STORE], typeof STORE, 'readwrite'>) => unknown,
  ) => {
    const tx = db.transaction(STORE, 'readwrite');
    // A request refused inside is also the transaction's failure: `done` rejects with it.
    void Promise.resolve(work(tx.store)).catch(() => undefined);
    await tx.done;
  };
  const all = async (): Promise<QueuedScan[]> => db.getAllFromIndex(STORE, 'seq');
  return {
    /** Kept before the scan is answered: `add` resolves only once its transaction committed. */
    add: async (scan: QueuedScan['scan'], key: string, user: string | undefined): Promise<QueuedScan> => {
      counter += 1;
      const seq = sequenceAt(Date.now()) + (counter % 1000);
      const queued: QueuedScan = { key, seq, scan, ...(user === undefined ? {} : { user }), state: 'pending' };
      await write((s) => s.add(queued));
      return queued;
    },
    all,
    pending: async () => (await all()).filter((q) => q.state === 'pending'),
    refused: async () => (await all()).filter((q) => q.state === 'refused'),
    put: async (queued: QueuedScan) => write((s) => s.put(queued)),
    remove: async (keys: readonly string[]) => write((s) => Promise.all(keys.map((key) => s.delete(key)))),
    close: () => db.close(),
  };
};

export type ScanStore = Awaited<ReturnType<typeof openScanStore>>;

/** Whether the user signed in may upload (and sees) this scan: their own, or one kept with no user. */
export const ownedBy = (q: QueuedScan, user: string | undefined): boolean =>
  user !== undefined && (q.user === undefined || q.user === user);

/** The location scans on the device: the signed-in user's waiting and refused, and others' waiting. */
export interface QueueCounts {
  readonly waiting: number;
  readonly others: number;
  readonly refused: readonly QueuedScan[];
}

/** The next backlog: the one already sent and unanswered, else up to 500 waiting scans. */
const nextBacklog = (
  pending: readonly QueuedScan[],
  newKey: () => string,
): { key: string; members: QueuedScan[] } | undefined => {
  const first = pending[0];
  if (first === undefined) return undefined;
  if (first.batch !== undefined) return { key: first.batch, members: pending.filter((q) => q.batch === first.batch) };
  if (first.solo === true) return { key: first.key, members: [first] };
  const members = pending.filter((q) => q.batch === undefined && q.solo !== true).slice(0, MAX_BACKLOG);
  return { key: members.length === 1 ? first.key : newKey(), members };
};

const RECORD_FIELD = /^records\[(\d+)\]/;
/**
 * A refusal of a record's scan time, named by a detail's field or (a refusal of one field) at the
 * start of its message: the device's clock gave that time (too far ahead of the service's).
 */
const SCAN_TIME = /^records\[\d+\]\.scanned_at\b/;

/**
 * The scans of a backlog refused for a scan time ahead of the service's clock, taken back
 * together so that the latest is at the service's time now: their order and spacing stay (as
 * the service itself does for a device up to 5 minutes fast), no scan is lost, and a backlog that
 * stored nothing is sent again as corrected (a refusal of invalid input is not an attempt, so
 * it may go under the same key). Only once per scan, and only when the device now knows better.
 */
const restamp = (members: readonly QueuedScan[], serviceNow: number): QueuedScan[] | undefined => {
  const back = Math.max(...members.map((q) => Date.parse(q.scan.scanned_at))) - serviceNow;
  if (!(back > 0) || members.some((q) => q.restamped === true)) return undefined;
  return members.map((q) => ({
    ...q,
    batch: undefined,
    restamped: true,
    scan: { ...q.scan, scanned_at: new Date(Date.parse(q.scan.scanned_at) - back).toISOString() },
  }));
};

export interface UploaderOptions {
  readonly store: ScanStore;
  /** Sends a backlog of `owner`'s scans as `owner` (never under another operator's token). */
  readonly upload: (records: QueuedScan['scan'][], key: string, owner: string) => Promise<Outcome<unknown>>;
  readonly newKey?: () => string;
  /** The user signed in now (undefined when no one is): only their scans are uploaded. */
  readonly user: () => string | undefined;
  /** Told after every change to the queue (the screen shows the counts). */
  readonly onChange?: () => void;
  /** Told of the scans the service has just refused (the operator is told at once, with the reason). */
  readonly onRefused?: (refused: readonly QueuedScan[]) => void;
  /** The service's time as the device knows it (scans it finds too far ahead are taken back to it). */
  readonly now?: () => number;
  /** Told of scans taken back to the service's time: the device's clock is wrong. */
  readonly onRestamped?: (restamped: readonly QueuedScan[]) => void;
}

export type FlushResult = 'done' | 'offline' | 'unauthorized';

/** The lock every tab of the app on a device takes to upload: one upload at a time per device. */
const UPLOAD_LOCK = 'cargo-scan-upload';

/**
 * Runs `work` while no other tab of the app uploads (the Web Locks API, shared by the tabs of one
 * origin): two tabs reading the same waiting scans would each send them under a key of its own.
 * The next tab then reads the queue as the first left it.
 */
const oneTabAtATime = async <T>(work: () => Promise<T>): Promise<T> =>
  typeof navigator !== 'undefined' && navigator.locks !== undefined
    ? ((await navigator.locks.request(UPLOAD_LOCK, work)) as T)
    : work();

/**
 * @example
 * ```ts
 * const uploader = createUploader({ store, upload: (records, key) => api.run(api.client.POST(...)) });
 * window.addEventListener('online', () => void uploader.flush());
 * ```
 */
export const createUploader = (options: UploaderOptions) => {
  const { store } = options;
  const newKey = options.newKey ?? (() => crypto.randomUUID());
  let running: Promise<FlushResult> | undefined;

  const flushOnce = async (): Promise<FlushResult> => {
    for (;;) {
      const user = options.user();
      if (user === undefined) return 'unauthorized';
      const backlog = nextBacklog(
        (await store.pending()).filter((q) => ownedBy(q, user)),
        newKey,
      );
      if (backlog === undefined) return 'done';
      // A scan kept with no user becomes this user's when first sent: a backlog has one owner.
      const members = backlog.members.map((q) => ({ ...q, batch: backlog.key, user: q.user ?? user }));
      // Marked before it is sent: whatever happens next, it is only ever sent again as itself.
      for (const q of members) await store.put(q);
      const outcome = await options.upload(
        members.map((q) => q.scan),
        backlog.key,
        user,
      );
      if (outcome.ok) {
        await store.remove(members.map((q) => q.key));
      } else if ('offline' in outcome || outcome.status === 429 || outcome.status >= 500) {
        return 'offline';
      } else if (outcome.status === 401) {
        return 'unauthorized';
      } else {
        await settleRefusal(members, outcome.error);
      }
      options.onChange?.();
    }
  };

  /** A refused backlog stored nothing: the scans it names are refused, the others sent again. */
  const settleRefusal = async (members: readonly QueuedScan[], error: ErrorBody) => {
    const details = error.details ?? [];
    const restamped =
      SCAN_TIME.test(error.message) || details.some((d) => SCAN_TIME.test(d.field))
        ? restamp(members, (options.now ?? Date.now)())
        : undefined;
    if (restamped !== undefined) {
      for (const q of restamped) await store.put(q);
      return options.onRestamped?.(restamped);
    }
    const named = new Map<number, { error_code: string; message: string }>();
    for (const detail of details) {
      const index = RECORD_FIELD.exec(detail.field)?.[1];
      // A scan time refused is the device's clock, not the app: said as such (DEVICE_CLOCK).
      const code = SCAN_TIME.test(detail.field) ? 'DEVICE_CLOCK' : detail.error_code;
      if (index !== undefined && !named.has(Number(index)))
        named.set(Number(index), { error_code: code, message: detail.message });
    }
    // A refusal of a whole backlog names its first bad record in its own fields too.
    if (named.size === 0 && members.length > 1) {
      for (const q of members) await store.put({ ...q, batch: undefined, solo: true });
      return;
    }
    const only =
      members.length === 1
        ? { error_code: SCAN_TIME.test(error.message) ? 'DEVICE_CLOCK' : error.error_code, message: error.message }
        : undefined;
    const refused: QueuedScan[] = [];
    for (const [i, q] of members.entries()) {
      const reason = named.get(i) ?? only;
      const settled: QueuedScan =
        reason === undefined ? { ...q, batch: undefined } : { ...q, batch: undefined, state: 'refused', error: reason };
      await store.put(settled);
      if (reason !== undefined) refused.push(settled);
    }
    if (refused.length > 0) options.onRefused?.(refused);
  };

  /** A flush asked for while one runs: the network may be back since the running one failed. */
  let askedAgain = false;
  const flushUntilAnswered = async (): Promise<FlushResult> => {
    for (;;) {
      askedAgain = false;
      const result = await flushOnce();
      if (result !== 'offline' || !askedAgain) return result;
    }
  };

  return {
    /**
     * Uploads everything waiting; one run at a time on the device. A second call here joins the
     * running one, which then tries once more if it found no network: the call may come from the
     * network's return, and the backlog should not wait for the next timer.
     */
    flush: (): Promise<FlushResult> => {
      if (running !== undefined) {
        askedAgain = true;
        return running;
      }
      running = oneTabAtATime(flushUntilAnswered).finally(() => {
        running = undefined;
        options.onChange?.();
      });
      return running;
    },
  };
};
