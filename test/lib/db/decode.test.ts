import { describe, expect, it } from 'vitest';
import { decodeRecords } from '../../../lib/db/decode.ts';

describe('Data API result decoding', () => {
  it('keeps the era of a time before 1 AD, written as ISO 8601 years 0000 and -000001', () => {
    const rows = decodeRecords(
      [[{ stringValue: '0001-12-31 23:56:00.5 BC' }, { stringValue: '0002-06-01 00:00:00 BC' }]],
      [
        { name: 'one_bc', typeName: 'timestamptz' },
        { name: 'two_bc', typeName: 'timestamptz' },
      ],
    );
    expect(rows).toEqual([{ one_bc: '0000-12-31T23:56:00.500Z', two_bc: '-000001-06-01T00:00:00.000Z' }]);
  });

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
