import type { BoxInfo, BoxItem } from '../api-types.ts';

/** A line of the box being packed: its plan and what the operator counted. */
export interface Line {
  readonly item_code: string;
  readonly item_name: string | null;
  readonly planned: number;
  readonly quantity: number;
}

/** The plan of a box as lines to count, starting at zero. */
export const planLines = (info: BoxInfo): Line[] =>
  info.items.map((item) => ({
    item_code: item.item_code,
    item_name: item.item_name,
    planned: item.planned_quantity,
    quantity: 0,
  }));

/**
 * One item scan: one more of that item; a code the plan does not have becomes a line of its
 * own (the service decides whether it may be boxed). Codes are compared as the service does:
 * trimmed, letters upper-cased.
 */
export const addScan = (
  lines: readonly Line[],
  code: string,
): { lines: Line[]; result: 'ok' | 'over' | 'not-in-plan' } => {
  const itemCode = code.trim().toUpperCase();
  const found = lines.find((line) => line.item_code.toUpperCase() === itemCode);
  if (found === undefined)
    return {
      lines: [...lines, { item_code: itemCode, item_name: null, planned: 0, quantity: 1 }],
      result: 'not-in-plan',
    };
  const next = lines.map((line) => (line === found ? { ...line, quantity: line.quantity + 1 } : line));
  return { lines: next, result: found.quantity + 1 > found.planned ? 'over' : 'ok' };
};

/**
 * A quantity typed by the operator, kept as typed (the service refuses what is not a whole
 * number from 1 to 99 999, and the operator sees why); an emptied field is zero: not boxed.
 */
export const setQuantity = (lines: readonly Line[], itemCode: string, quantity: number): Line[] =>
  lines.map((line) =>
    line.item_code === itemCode ? { ...line, quantity: Number.isNaN(quantity) ? 0 : quantity } : line,
  );

/** What is saved: every line with a quantity; a line at zero is not in the box. */
export const linesToSave = (lines: readonly Line[]): BoxItem[] =>
  lines.filter((line) => line.quantity !== 0).map((line) => ({ item_code: line.item_code, quantity: line.quantity }));
