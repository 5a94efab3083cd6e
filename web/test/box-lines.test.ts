import { describe, expect, it } from 'vitest';
import { addScan, linesToSave, planLines, setQuantity } from '../src/screens/box-lines.ts';
import { unboxedInfo } from './box-info.ts';

const info = unboxedInfo({
  box_no: 'BOX-1001',
  order_no: 'SO-1',
  customer_name: null,
  items: [{ item_code: 'SKU-A', item_name: 'A', unit: 'pcs', planned_quantity: 2, boxed_quantity: 0 }],
});

describe('counting a box', () => {
  it('adds one per item scan, matching codes as the service does (trimmed, upper-cased)', () => {
    const { lines, result } = addScan(addScan(planLines(info), 'SKU-A').lines, ' sku-a ');
    expect(result).toBe('ok');
    expect(lines[0]?.quantity).toBe(2);
  });

  it('says when a scan goes over the plan or is not in it, and keeps it for the service to judge', () => {
    const full = addScan(addScan(planLines(info), 'SKU-A').lines, 'SKU-A').lines;
    expect(addScan(full, 'SKU-A').result).toBe('over');
    const extra = addScan(full, 'SKU-Z');
    expect(extra.result).toBe('not-in-plan');
    expect(linesToSave(extra.lines)).toEqual([
      { item_code: 'SKU-A', quantity: 2 },
      { item_code: 'SKU-Z', quantity: 1 },
    ]);
  });

  it('keeps a typed quantity as typed, never altered, and leaves zero lines out of the save', () => {
    expect(linesToSave(setQuantity(planLines(info), 'SKU-A', 1.5))).toEqual([{ item_code: 'SKU-A', quantity: 1.5 }]);
    expect(linesToSave(setQuantity(planLines(info), 'SKU-A', Number.NaN))).toEqual([]);
  });
});
