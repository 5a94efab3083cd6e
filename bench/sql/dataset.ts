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
 * - location records spread over `cargo` cargo numbers: every 10th is a zongpai, the others boxes.
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
