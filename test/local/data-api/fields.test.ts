import { describe, expect, it } from 'vitest';
import { DEFAULT_RESULT_SET_OPTIONS, toRecords } from '../../../local/data-api/fields.ts';
import type { PgTypeInfo } from '../../../local/data-api/pg-types.ts';

const int8: PgTypeInfo = {
  oid: 20,
  name: 'int8',
  kind: 'long',
  jdbcType: -5,
  precision: 19,
  scale: 0,
  supported: true,
};
const int8Array: PgTypeInfo = {
  oid: 1016,
  name: '_int8',
  kind: 'array',
  jdbcType: 2003,
  precision: 2_147_483_647,
  scale: 0,
  element: int8,
  supported: true,
};
const numeric: PgTypeInfo = {
  oid: 1700,
  name: 'numeric',
  kind: 'decimal',
  jdbcType: 2,
  precision: 0,
  scale: 0,
  supported: true,
};

describe('Data API records on the wire', () => {
  it('writes a 64-bit longValue with its exact digits, beyond 2^53 too', () => {
    const records = toRecords(
      [['9223372036854775807', '{-9007199254740993,1}']],
      [int8, int8Array],
      DEFAULT_RESULT_SET_OPTIONS,
    );
    expect(JSON.stringify(records)).toBe(
      '[[{"longValue":9223372036854775807},{"arrayValue":{"longValues":[-9007199254740993,1]}}]]',
    );
  });

  it('writes an integral numeric as an exact longValue under DOUBLE_OR_LONG', () => {
    const records = toRecords([['12345678901234567890']], [numeric], {
      decimalReturnType: 'DOUBLE_OR_LONG',
      longReturnType: 'LONG',
    });
    expect(JSON.stringify(records)).toBe('[[{"longValue":12345678901234567890}]]');
  });
});
