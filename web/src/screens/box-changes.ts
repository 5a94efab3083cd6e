import type { BoxHistory } from '../api-types.ts';
import { number } from '../i18n.ts';

type BoxEvent = BoxHistory['events'][number];

/** What one change did to a box: the zongpai it moved from and to, each item's quantity before and after. */
export interface BoxChange {
  readonly moved?: { readonly from: string; readonly to: string };
  readonly items: readonly { readonly item_code: string; readonly from: number; readonly to: number }[];
}

/**
 * What an edit changed, read from the box history: the event against the one before it (the
 * box as it was saved or last edited). Items are compared by their codes as the service keeps
 * them; an item added was 0 before, one taken out is 0 after.
 *
 * @example
 * ```ts
 * changeOf(saved, edited); // { moved: { from: 'PLT-1', to: 'PLT-2' }, items: [{ item_code: 'SKU-1', from: 6, to: 5 }] }
 * ```
 */
export const changeOf = (before: BoxEvent, after: BoxEvent): BoxChange => {
  const was = new Map(before.items.map((i) => [i.item_code, i.quantity]));
  const now = new Map(after.items.map((i) => [i.item_code, i.quantity]));
  const codes = [...new Set([...was.keys(), ...now.keys()])];
  const items = codes
    .map((item_code) => ({ item_code, from: was.get(item_code) ?? 0, to: now.get(item_code) ?? 0 }))
    .filter((i) => i.from !== i.to);
  const from = before.zongpai_no ?? '';
  const to = after.zongpai_no ?? '';
  return { ...(from === to ? {} : { moved: { from, to } }), items };
};

/** Each edit of the history with what it changed (keyed by its version); saves and undos change nothing to show. */
export const editsOf = (history: BoxHistory): Map<number, BoxChange> => {
  const edits = new Map<number, BoxChange>();
  const { events } = history; // oldest first
  for (const [i, event] of events.entries()) {
    const before = events[i - 1];
    if (event.action === 'EDIT' && before !== undefined) edits.set(event.version, changeOf(before, event));
  }
  return edits;
};

/**
 * A change in words: "moved PLT-1 → PLT-2", "SKU-1: 1,200 → 1,199", the quantities written as the
 * interface's language writes numbers, as on every other screen.
 */
export const changeWords = (change: BoxChange, moved: (from: string, to: string) => string): string[] => [
  ...(change.moved === undefined ? [] : [moved(change.moved.from, change.moved.to)]),
  ...change.items.map((i) => `${i.item_code}: ${number(i.from)} → ${number(i.to)}`),
];
