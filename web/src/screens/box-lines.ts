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
 * One item scan: one more of that item, or refused and not counted when the plan does not have
 * it or has counted all it plans of it (the service would refuse the save: ITEM_NOT_IN_PLAN,
 * QUANTITY_EXCEEDS_PLAN, as it does by default; the app is not told when ENFORCE_ERP_PLAN is
 * off, so it holds to that default). Codes are compared as the service does: trimmed, case kept.
 */
export const addScan = (
  lines: readonly Line[],
  code: string,
): { lines: Line[]; result: 'ok' | 'over' | 'not-in-plan'; line?: Line } => {
  const itemCode = code.trim();
  const found = lines.find((line) => line.item_code === itemCode);
  if (found === undefined) return { lines: [...lines], result: 'not-in-plan' };
  if (found.quantity + 1 > found.planned) return { lines: [...lines], result: 'over', line: found };
  const line = { ...found, quantity: found.quantity + 1 };
  return { lines: lines.map((l) => (l === found ? line : l)), result: 'ok', line };
};

/** One piece less of an item (never below zero): the −1 of its line. */
export const removeOne = (lines: readonly Line[], itemCode: string): Line[] =>
  lines.map((line) => (line.item_code === itemCode ? { ...line, quantity: Math.max(0, line.quantity - 1) } : line));

/** How far a box is from its plan: pieces counted and planned, and each line's missing pieces. */
export const shortfall = (
  lines: readonly Line[],
): { counted: number; planned: number; missing: { item_code: string; missing: number }[] } => ({
  counted: lines.reduce((sum, line) => sum + line.quantity, 0),
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
