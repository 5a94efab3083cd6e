import { describe, expect, it } from 'vitest';
import { toSqlParameters } from '../../../lib/db/params.ts';
import { json } from '../../../lib/db/types.ts';

describe('Data API parameters', () => {
  it('maps plain values to their Field types', () => {
    expect(toSqlParameters({ s: 'a', n: 5, d: 1.5, b: true, z: null })).toEqual([
      { name: 's', value: { stringValue: 'a' } },
      { name: 'n', value: { longValue: 5 } },
      { name: 'd', value: { doubleValue: 1.5 } },
      { name: 'b', value: { booleanValue: true } },
      { name: 'z', value: { isNull: true } },
    ]);
  });

  it('sends typed values as strings with their type hint', () => {
    expect(
      toSqlParameters({
        at: { hint: 'TIMESTAMP', value: '2026-11-21 08:30:00.123' },
        doc: json([{ a: 1 }]),
        amount: { hint: 'DECIMAL', value: '12.50' },
        id: { hint: 'UUID', value: '6f1c1f4e-8f0e-4c56-9d55-0f1d1b2a3c4d' },
      }),
    ).toEqual([
      { name: 'at', value: { stringValue: '2026-11-21 08:30:00.123' }, typeHint: 'TIMESTAMP' },
      { name: 'doc', value: { stringValue: '[{"a":1}]' }, typeHint: 'JSON' },
      { name: 'amount', value: { stringValue: '12.50' }, typeHint: 'DECIMAL' },
      { name: 'id', value: { stringValue: '6f1c1f4e-8f0e-4c56-9d55-0f1d1b2a3c4d' }, typeHint: 'UUID' },
    ]);
  });

  it('refuses arrays, which the Data API rejects, before any round trip', () => {
    expect(() => toSqlParameters({ list: [1, 2] as never })).toThrow(/json\(list\)/);
  });

  it('refuses non-finite numbers', () => {
    expect(() => toSqlParameters({ n: Number.NaN })).toThrow(TypeError);
  });
});
