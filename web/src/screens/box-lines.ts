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
 * One item scan: one more of that item. An item the plan does not have, or a piece beyond what
 * it plans, is what the service refuses at the save where it enforces the plan (ENFORCE_ERP_PLAN,
 * its default: ITEM_NOT_IN_PLAN, QUANTITY_EXCEEDS_PLAN): then it is refused here and not counted
 * (`counted` false). Where the service takes it (`enforcePlan` false, from config.json), it is
 * counted and told apart by its `result` (an item not in the plan gets a line planned at 0).
 * Codes are compared as the service does: trimmed, case kept.
 */
export const addScan = (
  lines: readonly Line[],
  code: string,
  enforcePlan = true,
): { lines: Line[]; result: 'ok' | 'over' | 'not-in-plan'; counted: boolean; line?: Line } => {
  const itemCode = code.trim();
  const found = lines.find((line) => line.item_code === itemCode);
  if (found === undefined) {
    if (enforcePlan) return { lines: [...lines], result: 'not-in-plan', counted: false };
    const line = { item_code: itemCode, item_name: null, planned: 0, quantity: 1 };
    return { lines: [...lines, line], result: 'not-in-plan', counted: true, line };
  }
  const over = found.quantity + 1 > found.planned;
  if (over && enforcePlan) return { lines: [...lines], result: 'over', counted: false, line: found };
  const line = { ...found, quantity: found.quantity + 1 };
  return { lines: lines.map((l) => (l === found ? line : l)), result: over ? 'over' : 'ok', counted: true, line };
};

/** One piece less of an item (never below zero): the −1 of its line. */
export const removeOne = (lines: readonly Line[], itemCode: string): Line[] =>
  lines.map((line) => (line.item_code === itemCode ? { ...line, quantity: Math.max(0, line.quantity - 1) } : line));

/**
 * How far a box is from its plan: the plan's pieces counted (a line counts up to its plan: more
 * of one item does not make up for another that is short) and planned, and each line's missing
 * pieces.
 */
export const shortfall = (
  lines: readonly Line[],
): { counted: number; planned: number; missing: { item_code: string; missing: number }[] } => ({
  counted: lines.reduce((sum, line) => sum + Math.min(line.quantity, line.planned), 0),
  planned: lines.reduce((sum, line) => sum + line.planned, 0),
  missing: lines
    .filter((line) => line.quantity < line.planned)
    .map((line) => ({ item_code: line.item_code, missing: line.planned - line.quantity })),
});

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
