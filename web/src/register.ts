import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { normaliseCargoNo, normaliseCode } from '../../lib/contract/scanned-codes.ts';
import type { Outcome } from './api.ts';
import type { RegisteredLocation } from './api-types.ts';
import { DEFAULT_SCAN_RULES, type ScanRules } from './config.ts';

/**
 * The device's copy of the location register: fetched whole at sign-in and again during the
 * shift, kept in IndexedDB so that scans are told apart offline too (a shelf label is a
 * location, never cargo). Lookups answer at once from memory; a fetch that fails half-way keeps
 * the copy as it was.
 */
interface RegisterSchema extends DBSchema {
  locations: { key: string; value: RegisteredLocation };
  meta: { key: 'fetched'; value: { at: number } };
  /** Box and zongpai numbers the device has seen as cargo (scanned, looked up, listed). */
  cargo: { key: string; value: { code: string; at: number } };
}

/** The cargo numbers remembered at most; past it the longest unseen are forgotten. */
export const CARGO_REMEMBERED = 20_000;

/** One page of the register as the service lists it. */
export type RegisterPage = (
  cursor: string | undefined,
) => Promise<Outcome<{ locations: RegisteredLocation[]; next_cursor: string | null }>>;

/** How often the register is fetched again during a shift. */
export const REGISTER_REFRESH_MS = 15 * 60_000;

/**
 * @example
 * ```ts
 * const register = await openRegister();
 * await register.refresh((cursor) => api.run(api.client.GET('/v1/cargo/locations', { params: { query: { limit: 100, cursor } } })));
 * register.lookup('A-01-01'); // { location_code: 'A-01-01', kind: 'SHELF', … }
 * ```
 */
export const openRegister = async (name = 'cargo-register') => {
  const db: IDBPDatabase<RegisterSchema> = await openDB<RegisterSchema>(name, 2, {
    upgrade: (upgrading, oldVersion) => {
      if (oldVersion < 1) {
        upgrading.createObjectStore('locations', { keyPath: 'location_code' });
        upgrading.createObjectStore('meta');
      }
      if (oldVersion < 2) upgrading.createObjectStore('cargo', { keyPath: 'code' });
    },
  });
  let known = new Map((await db.getAll('locations')).map((l) => [l.location_code, l]));
  /** The cargo seen, oldest first (a code seen again moves to the end). */
  const cargo = new Map((await db.getAll('cargo')).sort((a, b) => a.at - b.at).map((c) => [c.code, c.at] as const));
  let fetchedAt = (await db.get('meta', 'fetched'))?.at;
  let running: Promise<'done' | 'failed'> | undefined;

  /** Every page, then the whole copy replaced in one transaction (nothing half-fetched is kept). */
  const fetchAll = async (page: RegisterPage): Promise<'done' | 'failed'> => {
    const all: RegisteredLocation[] = [];
    let cursor: string | undefined;
    do {
      const outcome = await page(cursor);
      if (!outcome.ok) return 'failed';
      all.push(...outcome.data.locations);
      cursor = outcome.data.next_cursor ?? undefined;
    } while (cursor !== undefined);
    const at = Date.now();
    const tx = db.transaction(['locations', 'meta'], 'readwrite');
    await tx.objectStore('locations').clear();
    for (const location of all) await tx.objectStore('locations').put(location);
    await tx.objectStore('meta').put({ at }, 'fetched');
    await tx.done;
    known = new Map(all.map((l) => [l.location_code, l]));
    fetchedAt = at;
    return 'done';
  };

  return {
    /** The registered location of this code (upper-cased, trimmed as the service does), if any. */
    lookup: (code: string): RegisteredLocation | undefined => known.get(code.trim().toUpperCase()),
    /**
     * Remembers box and zongpai numbers the device has seen as cargo, so that one scanned where a
     * location is expected is refused at the scan, offline too (the service would answer
     * LOCATION_IS_CARGO). Known at once; kept in IndexedDB when the returned promise settles (a
     * failed write only forgets them at the next start).
     */
    rememberCargo: (codes: readonly (string | null | undefined)[]): Promise<void> => {
      const at = Date.now();
      const seen = [...new Set(codes.filter((c): c is string => typeof c === 'string' && c !== ''))];
      if (seen.length === 0) return Promise.resolve();
      for (const code of seen) {
        cargo.delete(code);
        cargo.set(code, at);
      }
      const forgotten = [...cargo.keys()].slice(0, Math.max(0, cargo.size - CARGO_REMEMBERED));
      for (const code of forgotten) cargo.delete(code);
      const tx = db.transaction('cargo', 'readwrite');
      for (const code of seen) tx.store.put({ code, at }).catch(() => undefined);
      for (const code of forgotten) tx.store.delete(code).catch(() => undefined);
      return tx.done.catch(() => undefined);
    },
    /** Whether the device has seen this code as cargo (upper-cased, trimmed as the service does). */
    isKnownCargo: (code: string): boolean => cargo.has(normaliseCode(code)),
    /** How many locations the copy holds. */
    size: () => known.size,
    /** When the copy was fetched last (undefined: never on this device). */
    fetchedAt: () => fetchedAt,
    /** Fetches the register again; a second call while one runs joins it. */
    refresh: (page: RegisterPage): Promise<'done' | 'failed'> => {
      running ??= fetchAll(page)
        .catch(() => 'failed' as const)
        .finally(() => {
          running = undefined;
        });
      return running;
    },
    close: () => db.close(),
  };
};

export type LocationRegister = Awaited<ReturnType<typeof openRegister>>;

/** What a scan is, as the device can tell: a registered location, cargo, or neither. */
export type ScanKind =
  | { readonly kind: 'location'; readonly location: RegisteredLocation }
  | { readonly kind: 'cargo'; readonly code: string }
  | { readonly kind: 'invalid'; readonly code: string };

/**
 * Tells a scan where a box is expected apart with the register: a registered location's label,
 * a box number by the deployment's pattern (`rules.boxNo`; an SSCC's check digit holding), or
 * neither.
 *
 * @example
 * ```ts
 * classifyBoxScan(register, 'A-01-01'); // { kind: 'location', location: { location_code: 'A-01-01', … } }
 * classifyBoxScan(register, '(00)106141411234567897'); // { kind: 'cargo', code: '106141411234567897' }
 * ```
 */
export const classifyBoxScan = (
  register: Pick<LocationRegister, 'lookup'>,
  raw: string,
  rules: ScanRules = DEFAULT_SCAN_RULES,
): ScanKind => {
  const code = normaliseCode(raw);
  const location = register.lookup(code);
  if (location !== undefined) return { kind: 'location', location };
  const asBox = normaliseCargoNo(raw, rules.boxNo);
  return asBox.ok ? { kind: 'cargo', code: asBox.value } : { kind: 'invalid', code };
};

/**
 * Tells a scan apart with the register: a registered location's code is a location, anything
 * else is cargo when it is a box or zongpai number by the deployment's patterns (`rules`, from
 * config.json; an SSCC's check digit holding), else invalid: refused at the scan, also offline,
 * instead of being queued and refused on upload.
 *
 * @example
 * ```ts
 * classifyScan(register, 'a-01-01'); // { kind: 'location', location: { location_code: 'A-01-01', … } }
 * classifyScan(register, 'HELLO WORLD!!'); // { kind: 'invalid', code: 'HELLO WORLD!!' }
 * ```
 */
export const classifyScan = (
  register: Pick<LocationRegister, 'lookup'>,
  raw: string,
  rules: ScanRules = DEFAULT_SCAN_RULES,
): ScanKind => {
  // A box number or a zongpai number, as the service reads a cargo_no.
  const asBox = classifyBoxScan(register, raw, rules);
  if (asBox.kind !== 'invalid') return asBox;
  const asZongpai = normaliseCargoNo(raw, rules.zongpaiNo);
  return asZongpai.ok ? { kind: 'cargo', code: asZongpai.value } : asBox;
};

/** Whether a code can be a location code by the deployment's pattern (an unregistered one is checked by the service). */
export const isLocationCode = (raw: string, rules: ScanRules = DEFAULT_SCAN_RULES): boolean =>
  rules.locationCode.test(normaliseCode(raw));
