import { describe, expect, it } from 'vitest';
import type { BoxHistory } from '../src/api-types.ts';
import { changeWords, editsOf } from '../src/screens/box-changes.ts';

const event = (
  action: 'SAVE' | 'EDIT' | 'UNDO',
  version: number,
  zongpai_no: string | null,
  items: [string, number][],
): BoxHistory['events'][number] => ({
  action,
  version,
  actor: 'sam',
  at: '2026-05-01T08:00:00.000Z',
  zongpai_no,
  items: items.map(([item_code, quantity]) => ({ item_code, quantity })),
});
const moved = (from: string, to: string) => `moved ${from} → ${to}`;

describe('what a supervisor changed', () => {
  it('names the move and each item whose quantity changed, against the event before', () => {
    const history: BoxHistory = {
      box_no: 'BOX-1',
      events: [
        event('SAVE', 1, 'PLT-1', [
          ['SKU-A', 6],
          ['SKU-B', 2],
        ]),
        event('EDIT', 2, 'PLT-2', [
          ['SKU-A', 5],
          ['SKU-B', 2],
          ['SKU-C', 1],
        ]),
        event('EDIT', 3, 'PLT-2', [['SKU-A', 5]]),
      ],
    };
    const edits = editsOf(history);
    expect(changeWords(edits.get(2)!, moved)).toEqual(['moved PLT-1 → PLT-2', 'SKU-A: 6 → 5', 'SKU-C: 0 → 1']);
    expect(changeWords(edits.get(3)!, moved)).toEqual(['SKU-B: 2 → 0', 'SKU-C: 1 → 0']);
    expect(edits.has(1)).toBe(false);
  });

  it("writes the quantities as the interface's language writes numbers", () => {
    const history: BoxHistory = {
      box_no: 'BOX-1',
      events: [event('SAVE', 1, 'PLT-1', [['SKU-A', 12_000]]), event('EDIT', 2, 'PLT-1', [['SKU-A', 1_500]])],
    };
    expect(changeWords(editsOf(history).get(2)!, moved)).toEqual(['SKU-A: 12,000 → 1,500']);
  });
});
