import { describe, expect, it } from 'vitest';
import { addScan, linesToSave, planLines, removeOne, setQuantity, shortfall } from '../src/screens/box-lines.ts';
import { unboxedInfo } from './box-info.ts';

const info = unboxedInfo({
  box_no: 'BOX-1001',
  order_no: 'SO-1',
  customer_name: null,
  items: [{ item_code: 'SKU-A', item_name: 'A', unit: 'pcs', planned_quantity: 2, boxed_quantity: 0 }],
});

describe('counting a box', () => {
  it('adds one per item scan, matching codes as the service does (trimmed, case kept)', () => {
    const { lines, result } = addScan(addScan(planLines(info), 'SKU-A').lines, ' SKU-A ');
    expect(result).toBe('ok');
    expect(lines[0]?.quantity).toBe(2);
    const lower = addScan(lines, 'sku-a');
    expect(lower.result).toBe('not-in-plan');
  });

  it('refuses and does not count a piece beyond the plan or an item not in it', () => {
    const full = addScan(addScan(planLines(info), 'SKU-A').lines, 'SKU-A').lines;
    const over = addScan(full, 'SKU-A');
    expect(over.result).toBe('over');
    expect(linesToSave(over.lines)).toEqual([{ item_code: 'SKU-A', quantity: 2 }]);
    const extra = addScan(full, 'SKU-Z');
    expect(extra.result).toBe('not-in-plan');
    expect(linesToSave(extra.lines)).toEqual([{ item_code: 'SKU-A', quantity: 2 }]);
  });

  it('counts a piece beyond the plan and an item not in it where the service does not enforce the plan', () => {
    const full = addScan(addScan(planLines(info), 'SKU-A').lines, 'SKU-A').lines;
    const over = addScan(full, 'SKU-A', false);
    expect(over).toMatchObject({ result: 'over', counted: true });
    expect(linesToSave(over.lines)).toEqual([{ item_code: 'SKU-A', quantity: 3 }]);
    const extra = addScan(over.lines, ' SKU-Z ', false);
    expect(extra).toMatchObject({ result: 'not-in-plan', counted: true, line: { item_code: 'SKU-Z', planned: 0 } });
    expect(linesToSave(extra.lines)).toEqual([
      { item_code: 'SKU-A', quantity: 3 },
      { item_code: 'SKU-Z', quantity: 1 },
    ]);
    // Enforced, as by default: neither is counted.
    expect(addScan(full, 'SKU-A', true).counted).toBe(false);
    expect(addScan(full, 'SKU-Z').counted).toBe(false);
  });

  it('counts a line up to its plan only: more of one item does not make up for another that is short', () => {
    const two = unboxedInfo({
      ...info,
      items: [
        { item_code: 'SKU-A', item_name: 'A', unit: 'pcs', planned_quantity: 2, boxed_quantity: 0 },
        { item_code: 'SKU-B', item_name: 'B', unit: 'pcs', planned_quantity: 2, boxed_quantity: 0 },
      ],
    });
    const lines = setQuantity(setQuantity(planLines(two), 'SKU-A', 3), 'SKU-B', 1);
    expect(shortfall(lines)).toEqual({ counted: 3, planned: 4, missing: [{ item_code: 'SKU-B', missing: 1 }] });
  });

  it('takes one piece off a line with −1, never below zero', () => {
    const one = addScan(planLines(info), 'SKU-A').lines;
    expect(removeOne(one, 'SKU-A')[0]?.quantity).toBe(0);
    expect(removeOne(removeOne(one, 'SKU-A'), 'SKU-A')[0]?.quantity).toBe(0);
  });

  it('names what a box short of its plan is missing', () => {
    expect(shortfall(addScan(planLines(info), 'SKU-A').lines)).toEqual({
      counted: 1,
      planned: 2,
      missing: [{ item_code: 'SKU-A', missing: 1 }],
    });
  });

  it('keeps a typed quantity as typed, never altered, and leaves zero lines out of the save', () => {
    expect(linesToSave(setQuantity(planLines(info), 'SKU-A', 1.5))).toEqual([{ item_code: 'SKU-A', quantity: 1.5 }]);
    expect(linesToSave(setQuantity(planLines(info), 'SKU-A', Number.NaN))).toEqual([]);
  });
});
