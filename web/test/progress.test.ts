import { describe, expect, it } from 'vitest';
import type { CargoLocation } from '../src/api-types.ts';
import { canVoid, lineState, packedPercent } from '../src/screens/progress.ts';

const totals = (...lines: [planned: number, boxed: number][]) => ({
  totals: lines.map(([planned, boxed], i) => ({
    item_code: `SKU-${i}`,
    item_name: null,
    unit: null,
    planned_quantity: planned,
    boxed_quantity: boxed,
  })),
});

describe('order progress', () => {
  it('shows a line as complete, short or over its plan', () => {
    expect([lineState(6, 6), lineState(6, 5), lineState(6, 7), lineState(0, 0)]).toEqual([
      'complete',
      'short',
      'over',
      'complete',
    ]);
  });

  it('counts an order packed by its planned quantity, a line at most up to its plan', () => {
    expect(packedPercent(totals([24, 24], [6, 0]))).toBe(80);
    // Over plan on one line does not make up for a short one.
    expect(packedPercent(totals([10, 20], [10, 0]))).toBe(50);
  });

  it('shows 100 % only when every line is complete', () => {
    expect(packedPercent(totals([999, 998], [1, 1]))).toBe(99);
    expect(packedPercent(totals([999, 999], [1, 1]))).toBe(100);
    expect(packedPercent(totals())).toBe(0);
  });
});

describe('voiding a location scan', () => {
  const record = (voided: boolean): CargoLocation['history'][number] => ({
    id: '7',
    cargo_no: 'BOX-1003',
    location_code: 'A-01-01',
    off_shelf: false,
    scanned_at: null,
    recorded_at: '2026-01-05T08:00:00Z',
    recorded_by: 'olga',
    device_id: null,
    occurred_at: '2026-01-05T08:00:00Z',
    via: 'BOX',
    voided_at: voided ? '2026-01-05T09:00:00Z' : null,
    voided_by: voided ? 'sam' : null,
    version: voided ? 2 : 1,
  });

  it('offers a supervisor to void a scan not voided yet, and nobody a voided one or an operator any', () => {
    expect(canVoid(record(false), true)).toBe(true);
    expect(canVoid(record(true), true)).toBe(false);
    expect(canVoid(record(false), false)).toBe(false);
  });
});
