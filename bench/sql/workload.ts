import type { BenchRequest } from '../support/service.ts';
import {
  boxNo,
  cargoNo,
  isClosed,
  isUndone,
  itemCodeOf,
  registerCode,
  registerKind,
  registerVersion,
  TRANSFER_FROM,
  TRANSFER_TO,
  versionOf,
  workBoxNo,
  zongpaiNo,
  zongpaiOf,
  type Dataset,
} from './dataset.ts';
import type { WorkPlans } from './seed.ts';

/** Reads and single writes must answer within 10 ms server side; the 500-record and 500-item requests within 50 ms. */
export type ScenarioClass = 'read' | 'write' | '500';

export const TARGET_MS: Readonly<Record<ScenarioClass, number>> = { read: 10, write: 10, '500': 50 };

export interface Scenario {
  readonly name: string;
  /** Route table id. */
  readonly route: string;
  readonly class: ScenarioClass;
  /** Timed requests; `WARMUP` more are sent first and not counted. */
  readonly samples: number;
  /** The i-th request (0-based, warm-up included). */
  readonly request: (i: number) => BenchRequest;
  readonly status: number;
}

export const WARMUP = 3;
const LARGE_ITEMS = 500;

/** A small deterministic generator (mulberry32), so two runs send the same requests. */
export const random = (seed: number) => {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { next, int: (from: number, to: number) => from + Math.floor(next() * (to - from + 1)) };
};

const shuffled = (values: number[], seed: number): number[] => {
  const rnd = random(seed);
  for (let i = values.length - 1; i > 0; i -= 1) {
    const j = rnd.int(0, i);
    [values[i], values[j]] = [values[j] as number, values[i] as number];
  }
  return values;
};

const range = (from: number, to: number, keep: (n: number) => boolean = () => true): number[] => {
  const out: number[] = [];
  for (let n = from; n <= to; n += 1) if (keep(n)) out.push(n);
  return out;
};

/** Picks up to `count` distinct values (fewer only when the dataset is tiny). */
const pick = (values: number[], count: number, seed: number): number[] => {
  if (values.length <= WARMUP + 5) throw new Error('too few candidates for a write scenario: the dataset is too small');
  return shuffled(values, seed).slice(0, count);
};

/** Timed requests a scenario can make with its distinct boxes or pallets. */
const within = (samples: number, distinct: readonly number[]) => Math.min(samples, distinct.length - WARMUP);

/** Planned boxes the workload consumes, sized by the sample counts. */
export const workPlans = (samples: number): WorkPlans => {
  const bulk = Math.max(30, Math.round(samples / 5));
  return {
    S: samples + WARMUP,
    Q: samples + WARMUP,
    K: samples + WARMUP,
    L: bulk + WARMUP,
    O: 2 * (bulk + WARMUP),
    largeItems: LARGE_ITEMS,
  };
};

/**
 * The measured requests, with realistic parameters drawn from the seeded data: reads of boxes,
 * pallets and pages of history; scans, a backlog of 500; saves of planned boxes (5 items, and
 * 500), one-scan saves, moves, item corrections, undos, pallet registration and closing.
 * Each write touches its own box or pallet, so no request fails on another's change.
 *
 * @example
 * ```ts
 * for (const s of scenarios(d, 300, 'cargo', cursors)) console.log(s.name, s.request(0).path);
 * ```
 */
export const scenarios = (
  d: Dataset,
  samples: number,
  prefix: string,
  cursors: readonly { cargo: string; cursor: string }[],
): Scenario[] => {
  const location = `/v1/${prefix}/location`;
  const locations = `/v1/${prefix}/locations`;
  const bulk = workPlans(samples).L - WARMUP;
  const n = samples + WARMUP;
  const rnd = random(42);
  const firstPlanned = d.boxes - d.planBoxes + 1;
  const openTargets = range(1, Math.max(1, Math.floor(d.zongpai / 2)), (z) => !isClosed(z));
  const onOpenPallet = (box: number) => !isUndone(box) && !isClosed(zongpaiOf(d, box));
  const unplanned = firstPlanned - 1;
  const moves = pick(
    range(1, unplanned, (b) => b % 2 === 1 && onOpenPallet(b)),
    n,
    1,
  );
  const undos = pick(
    range(1, unplanned, (b) => b % 2 === 0 && onOpenPallet(b)),
    n,
    2,
  );
  const corrections = pick(range(firstPlanned, d.boxes, onOpenPallet), n, 3);
  const closes = pick(
    range(Math.floor(d.zongpai / 2) + 1, d.zongpai, (z) => !isClosed(z)),
    n,
    4,
  );
  // Registered locations above level 01 (the workload's scans are at levels 00-01), each changed once.
  const changed = pick(range(2000, d.register - 1), n, 5);
  const target = (i: number, not?: number) => {
    const z = openTargets[(i * 7919) % openTargets.length] as number;
    return z === not ? (openTargets[(i * 7919 + 1) % openTargets.length] as number) : z;
  };
  const anyCargo = () => cargoNo(d, rnd.int(1, d.cargo));
  const scan = (i: number) => ({
    cargo_no: cargoNo(d, 1 + ((i * 7919) % d.cargo)),
    location_code: `B-${String(i % 40).padStart(2, '0')}-01`,
    device_id: 'PDA-07',
  });
  /** One scan under its own Idempotency-Key: the same request again is that key's replay. */
  const keyedScan = (i: number): BenchRequest => ({
    method: 'POST',
    path: location,
    body: scan(i),
    headers: { 'idempotency-key': `bench-scan-${i}` },
  });
  const items = (count: number) =>
    Array.from({ length: count }, (_, k) => ({
      item_code: `SKU-${String(k + 1).padStart(5, '0')}`,
      quantity: 1 + (k % 9),
    }));

  /** A read: `samples` GETs of `path`, each answered 200. */
  const read = (name: string, route: string, path: (i: number) => string, as?: BenchRequest['as']): Scenario => ({
    name,
    route,
    class: 'read',
    samples,
    status: 200,
    request: (i) => ({ method: 'GET', path: path(i), ...(as === undefined ? {} : { as }) }),
  });
  /** A write to each of `targets` in turn (its own box or pallet per request), each answered 200. */
  const eachOf = (
    name: string,
    route: string,
    targets: readonly number[],
    request: (target: number, i: number) => BenchRequest,
  ): Scenario => ({
    name,
    route,
    class: 'write',
    samples: within(samples, targets),
    status: 200,
    request: (i) => request(targets[i] as number, i),
  });
  /** A box the workload saves: its planned number, an open zongpai, and `count` items. */
  const saveBody = (kind: 'S' | 'K' | 'L', i: number, count: number) => ({
    box_no: workBoxNo(kind, i + 1),
    zongpai_no: zongpaiNo(target(i)),
    items: items(count),
  });
  /** A supervisor's change of a seeded box, based on the version the seed gave it. */
  const boxChange = (method: 'PATCH' | 'DELETE', box: number, body?: unknown): BenchRequest => ({
    method,
    path: `/v1/box/${boxNo(box)}`,
    as: 'supervisor',
    headers: { 'if-match': `"${versionOf(box)}"` },
    ...(body === undefined ? {} : { body }),
  });

  return [
    read('GET location of a box (on a pallet)', 'LocationGet', () => `${location}/${cargoNo(d, pickBoxCargo(rnd, d))}`),
    read(
      'GET location of a zongpai',
      'LocationGet',
      () => `${location}/${cargoNo(d, 10 * rnd.int(1, Math.max(1, Math.floor(d.cargo / 10))))}`,
    ),
    read('GET location, next page (cursor)', 'LocationGet', (i) => {
      const c = cursors[i % cursors.length];
      return `${location}/${c?.cargo ?? anyCargo()}?limit=5&cursor=${c?.cursor ?? ''}`;
    }),
    read(
      'GET box info (planned box)',
      'BoxInfo',
      () => `/v1/box/info?box_no=${boxNo(rnd.int(firstPlanned, d.boxes + d.planBoxes))}`,
    ),
    read('GET box history', 'BoxHistory', () => `/v1/box/${boxNo(rnd.int(1, d.boxes))}/history`),
    read('GET zongpai (its boxes and totals)', 'ZongpaiGet', () => `/v1/zongpai/${zongpaiNo(rnd.int(1, d.zongpai))}`),
    // Orders of the seeded plan: box i belongs to SO-<i / 10>, ten boxes each (bench/sql/seed.ts).
    read(
      'GET order (its 10 planned boxes, where they are)',
      'OrderGet',
      () =>
        `/v1/orders/SO-${String(Math.floor(rnd.int(firstPlanned + 10, d.boxes + d.planBoxes - 10) / 10)).padStart(7, '0')}`,
    ),
    read(
      'GET packing list of a zongpai',
      'ZongpaiPackingList',
      () => `/v1/zongpai/${zongpaiNo(rnd.int(1, d.zongpai))}/packing-list`,
    ),
    read('GET zongpai list, newest first (20)', 'ZongpaiList', () => '/v1/zongpai?limit=20'),
    read('GET zongpai list, only CLOSED (20)', 'ZongpaiList', () => '/v1/zongpai?status=CLOSED&limit=20'),
    read(
      'GET events, a page of 100 (anywhere in the outbox)',
      'EventsList',
      () => `/v1/events?after=${rnd.int(0, Math.max(0, d.events - 100))}&limit=100`,
      'supervisor',
    ),
    read(
      'GET events, a page of 500',
      'EventsList',
      () => `/v1/events?after=${rnd.int(0, Math.max(0, d.events - 500))}&limit=500`,
      'supervisor',
    ),
    {
      name: 'POST location, one scan',
      route: 'LocationRecord',
      class: 'write',
      samples,
      status: 201,
      request: () => ({
        method: 'POST',
        path: location,
        body: { cargo_no: anyCargo(), location_code: 'C-01-01', device_id: 'PDA-07' },
      }),
    },
    {
      name: 'POST location, one scan, Idempotency-Key (first)',
      route: 'LocationRecord',
      class: 'write',
      samples,
      status: 201,
      request: keyedScan,
    },
    {
      name: 'POST location, one scan, Idempotency-Key (replay)',
      route: 'LocationRecord',
      class: 'write',
      samples,
      status: 201,
      request: keyedScan,
    },
    {
      name: 'POST location, backlog of 500',
      route: 'LocationRecord',
      class: '500',
      samples: bulk,
      status: 201,
      request: (i) => ({
        method: 'POST',
        path: location,
        body: {
          records: Array.from({ length: 500 }, (_, k) => ({
            ...scan(i * 500 + k),
            scanned_at: new Date(Date.now() - (500 - k) * 60_000).toISOString(),
          })),
        },
      }),
    },
    {
      name: 'PUT location (register a new one)',
      route: 'LocationPut',
      class: 'write',
      samples,
      status: 201,
      request: (i) => ({
        method: 'PUT',
        path: `${locations}/Z-NEW-${String(i).padStart(5, '0')}`,
        as: 'supervisor',
        body: { kind: 'SHELF', zone: 'Z', description: 'New shelf' },
      }),
    },
    eachOf('PUT location, change (If-Match)', 'LocationPut', changed, (c) => ({
      method: 'PUT',
      path: `${locations}/${registerCode(c)}`,
      as: 'supervisor',
      headers: { 'if-match': `"${registerVersion(c)}"` },
      body: { kind: registerKind(c), zone: registerCode(c).slice(0, 1), description: 'Relabelled' },
    })),
    {
      name: 'POST locations, import of 500',
      route: 'LocationImport',
      class: '500',
      samples: bulk,
      status: 200,
      request: (i) => ({
        method: 'POST',
        path: locations,
        as: 'supervisor',
        body: {
          locations: Array.from({ length: 500 }, (_, k) => ({
            location_code: `IMP-${String(i).padStart(3, '0')}-${String(k).padStart(3, '0')}`,
            kind: 'SHELF',
            zone: `IMP-${String(i).padStart(3, '0')}`,
          })),
        },
      }),
    },
    {
      // There and back between two staging areas: every request moves the same pallets.
      name: `POST transfer (${d.transferPallets} pallets)`,
      route: 'LocationTransfer',
      class: '500',
      samples,
      status: 201,
      request: (i) => ({
        method: 'POST',
        path: `${locations}/${i % 2 === 0 ? TRANSFER_FROM : TRANSFER_TO}/transfer`,
        body: { to_location_code: i % 2 === 0 ? TRANSFER_TO : TRANSFER_FROM },
      }),
    },
    {
      name: 'POST box, 5 items',
      route: 'BoxSave',
      class: 'write',
      samples,
      status: 201,
      request: (i) => ({ method: 'POST', path: '/v1/box', body: saveBody('S', i, d.itemsPerBox) }),
    },
    {
      name: 'POST box, 5 items, Idempotency-Key',
      route: 'BoxSave',
      class: 'write',
      samples,
      status: 201,
      request: (i) => ({
        method: 'POST',
        path: '/v1/box',
        headers: { 'idempotency-key': `bench-save-${i}` },
        body: saveBody('K', i, d.itemsPerBox),
      }),
    },
    {
      name: 'POST box, 500 items',
      route: 'BoxSave',
      class: '500',
      samples: bulk,
      status: 201,
      request: (i) => ({ method: 'POST', path: '/v1/box', body: saveBody('L', i, LARGE_ITEMS) }),
    },
    {
      name: 'PATCH box, replace its 500 items',
      route: 'BoxEdit',
      class: '500',
      samples: bulk,
      status: 200,
      request: (i) => ({
        method: 'PATCH',
        path: `/v1/box/${workBoxNo('L', i + 1)}`,
        as: 'supervisor',
        headers: { 'if-match': '"1"' },
        body: {
          items: items(LARGE_ITEMS)
            .slice(1)
            .map((item) => ({ ...item, quantity: item.quantity + 1 })),
        },
      }),
    },
    {
      name: 'POST box/simple (the ERP plan)',
      route: 'BoxSimpleSave',
      class: 'write',
      samples,
      status: 201,
      request: (i) => ({
        method: 'POST',
        path: '/v1/box/simple',
        body: { box_no: workBoxNo('Q', i + 1), zongpai_no: zongpaiNo(target(i)) },
      }),
    },
    eachOf('PATCH box, move to another zongpai', 'BoxEdit', moves, (box, i) =>
      boxChange('PATCH', box, { zongpai_no: zongpaiNo(target(i, zongpaiOf(d, box))) }),
    ),
    eachOf('PATCH box, correct its items', 'BoxEdit', corrections, (box) => {
      const kept = Array.from({ length: Math.max(1, d.itemsPerBox - 1) }, (_, k) => ({
        item_code: itemCodeOf(box, k + 1),
        quantity: 1,
      }));
      return boxChange('PATCH', box, { items: kept });
    }),
    eachOf('DELETE box (undo)', 'BoxUndo', undos, (box) => boxChange('DELETE', box)),
    {
      name: 'POST zongpai (register)',
      route: 'ZongpaiRegister',
      class: 'write',
      samples,
      status: 201,
      request: (i) => ({
        method: 'POST',
        path: '/v1/zongpai',
        body: { zongpai_no: `WZ-${String(i + 1).padStart(6, '0')}` },
      }),
    },
    eachOf(`POST zongpai close (${d.boxesPerZongpai} boxes)`, 'ZongpaiClose', closes, (z) => ({
      method: 'POST',
      path: `/v1/zongpai/${zongpaiNo(z)}/close`,
      as: 'supervisor',
    })),
  ];
};

/** A cargo number of the records that is a box (not every 10th, which are pallets). */
const pickBoxCargo = (rnd: ReturnType<typeof random>, d: Dataset): number => {
  const c = rnd.int(1, d.cargo);
  return c % 10 === 0 ? Math.max(1, c - 1) : c;
};
