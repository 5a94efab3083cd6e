import { describe, expect, it } from 'vitest';
import { decodeRecords } from '../../../lib/db/decode.ts';

describe('Data API result decoding', () => {
  it('decodes each column by its type name', () => {
    const rows = decodeRecords(
      [
        [
          { stringValue: '2026-11-21 08:30:00.123456' },
          { stringValue: '2026-11-21 08:30:00' },
          { stringValue: '{"a":[1,2]}' },
          { stringValue: '12345678901234567890.5' },
          { longValue: 42 },
          { booleanValue: false },
          { isNull: true },
          { stringValue: 'BOX-1001' },
        ],
      ],
      [
        { name: 'at', typeName: 'timestamptz' },
        { name: 'plain', typeName: 'timestamp' },
        { name: 'doc', typeName: 'jsonb' },
        { name: 'amount', typeName: 'numeric' },
        { name: 'n', typeName: 'int4' },
        { name: 'flag', typeName: 'bool' },
        { name: 'missing', typeName: 'text' },
        { name: 'box_no', typeName: 'text' },
      ],
    );
    expect(rows).toEqual([
      {
        at: '2026-11-21T08:30:00.123Z',
        plain: '2026-11-21T08:30:00.000Z',
        doc: { a: [1, 2] },
        amount: '12345678901234567890.5',
        n: 42,
        flag: false,
        missing: null,
        box_no: 'BOX-1001',
      },
    ]);
  });

  it('refuses an int8 beyond 2^53 instead of rounding it', () => {
    expect(() => decodeRecords([[{ longValue: 2 ** 53 + 2 }]], [{ name: 'id', typeName: 'int8' }])).toThrow(/as text/);
  });

  it('uses the column label when the statement renamed a column', () => {
    expect(decodeRecords([[{ longValue: 1 }]], [{ name: 'count', label: 'total', typeName: 'int8' }])).toEqual([
      { total: 1 },
    ]);
  });

  it('answers no rows for a statement without a result set', () => {
    expect(decodeRecords(undefined, undefined)).toEqual([]);
  });
});
