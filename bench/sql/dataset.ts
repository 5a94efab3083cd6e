import type { BenchSettings } from '../support/settings.ts';

/**
 * The shape of the seeded data, derived from the settings, and the names the seed and the
 * workload agree on. Numbers are deterministic so the workload can pick valid parameters
 * without asking the database:
 *
 * - box `BX-0000001` .. `BX-{boxes}`: box i sits on zongpai ceil(i / boxesPerZongpai); every 5th
 *   was edited once (version 2), every 50th was undone (NOT_BOXED, version 2), the rest are at 1;
 * - zongpai `ZP-000001` .. : every 10th is CLOSED (shipped pallets), the others OPEN;
 * - the ERP plan covers the last `planBoxes` boxed boxes (same items as boxed) and as many boxes
 *   after them that are planned but not boxed yet;
 * - location records spread over `cargo` cargo numbers: every 10th is a zongpai, the others boxes;
 * - the register holds `register` locations, n = 0, 1, ...: aisle A-Y (n % 25), bay 00-39, level
 *   (n / 1000), so `A-07-01`; aisle X is docks, Y staging areas, the rest shelves; every other bay
 *   of aisle A above level 01 is blocked (2 % of the locations at the default size);
 * - `transferPallets` zongpais `ZT-000001` .. are at the staging area {@link TRANSFER_FROM}, scanned there.
 */
export interface Dataset {
  readonly boxes: number;
  readonly itemsPerBox: number;
  readonly boxesPerZongpai: number;
  readonly zongpai: number;
  /** Boxes with a plan among the boxed ones, and as many planned but not boxed (`BX-{boxes+1}`..). */
  readonly planBoxes: number;
  readonly locations: number;
  readonly cargo: number;
  readonly idempotencyKeys: number;
  /** Events in the outbox: one per seeded location record (1 M is about 2.5 days of a large warehouse, inside EVENTS_RETENTION_DAYS). */
  readonly events: number;
  /** Locations in the register. */
  readonly register: number;
  /** Pallets at {@link TRANSFER_FROM}, which the transfer scenario moves. */
  readonly transferPallets: number;
}

export const dataset = (settings: BenchSettings): Dataset => {
  const planBoxes = Math.max(10, Math.floor(settings.planRows / settings.itemsPerBox / 2));
  return {
    boxes: settings.boxes,
    itemsPerBox: settings.itemsPerBox,
    boxesPerZongpai: settings.boxesPerZongpai,
    zongpai: Math.ceil(settings.boxes / settings.boxesPerZongpai),
    planBoxes: Math.min(planBoxes, Math.floor(settings.boxes / 2)),
    locations: settings.locations,
    cargo: Math.min(settings.cargo, settings.boxes),
    idempotencyKeys: settings.idempotencyKeys,
    events: settings.locations,
    register: settings.registerLocations,
    transferPallets: 50,
  };
};

export const boxNo = (i: number): string => `BX-${String(i).padStart(7, '0')}`;
export const zongpaiNo = (z: number): string => `ZP-${String(z).padStart(6, '0')}`;
export const zongpaiOf = (d: Dataset, box: number): number => Math.ceil(box / d.boxesPerZongpai);
export const isClosed = (z: number): boolean => z % 10 === 0;
export const isUndone = (box: number): boolean => box % 50 === 0;
export const versionOf = (box: number): number => (box % 5 === 0 ? 2 : 1);
/** The item codes of a seeded box, the same in box_item, box_event and the ERP plan (SQL twin in seed.ts). */
export const itemCodeOf = (box: number, k: number): string =>
  `SKU-${String((box * 7 + k * 131) % 5000).padStart(5, '0')}`;
export const quantityOf = (box: number, k: number): number => 1 + ((box + k) % 24);
/** Cargo number c (1-based) of the location records: every 10th a zongpai, else box c. */
export const cargoNo = (d: Dataset, c: number): string =>
  c % 10 === 0 ? zongpaiNo(((c / 10 - 1) % d.zongpai) + 1) : boxNo(c);

/** Boxes the workload saves, planned by the seed (not boxed): `WB-S-000001` ... */
export const workBoxNo = (kind: 'S' | 'Q' | 'L' | 'K' | 'O', i: number): string =>
  `WB-${kind}-${String(i).padStart(6, '0')}`;

/** Register location n (from 0): aisle, bay and level (SQL twin in seed.ts). */
export const registerCode = (n: number): string =>
  `${String.fromCharCode(65 + (n % 25))}-${String(Math.floor(n / 25) % 40).padStart(2, '0')}-${String(Math.floor(n / 1000)).padStart(2, '0')}`;
export const registerKind = (n: number): 'SHELF' | 'DOCK' | 'STAGING' =>
  n % 25 === 23 ? 'DOCK' : n % 25 === 24 ? 'STAGING' : 'SHELF';
/** Every 10th location was changed once since it was registered. */
export const registerVersion = (n: number): number => (n % 10 === 0 ? 2 : 1);
export const isRegisterBlocked = (n: number): boolean => n >= 2000 && n % 50 === 0;
/** The staging areas the transfer scenario moves its pallets between, there and back. */
export const TRANSFER_FROM = registerCode(24);
export const TRANSFER_TO = registerCode(49);
export const transferPalletNo = (p: number): string => `ZT-${String(p).padStart(6, '0')}`;
