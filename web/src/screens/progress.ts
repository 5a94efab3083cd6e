import type { CargoLocation, OrderProgress } from '../api-types.ts';

/**
 * What the Order and Find screens show, worked out from the service's answers: how far a line
 * is packed, how far an order is, and which scans a supervisor can still void.
 */
export type LineState = 'complete' | 'short' | 'over';

/** A planned line against what is boxed of it. */
export const lineState = (planned: number, boxed: number): LineState =>
  boxed === planned ? 'complete' : boxed < planned ? 'short' : 'over';

/**
 * How much of an order is packed, in percent of its planned quantity: a line counts up to its
 * plan (more than planned does not make up for a short line), rounded down so 100 % is only
 * ever shown for an order with every line complete.
 */
export const packedPercent = (order: Pick<OrderProgress, 'totals'>): number => {
  const planned = order.totals.reduce((sum, line) => sum + line.planned_quantity, 0);
  if (planned === 0) return 0;
  const packed = order.totals.reduce((sum, line) => sum + Math.min(line.boxed_quantity, line.planned_quantity), 0);
  return Math.floor((packed * 100) / planned);
};

type Record_ = CargoLocation['history'][number];

/** A scan a supervisor can void: one not voided yet (a voided one stays in the history, marked). */
export const canVoid = (record: Record_, supervisor: boolean): boolean => supervisor && record.voided_at === null;
