import { describe, expect, it } from 'vitest';
import { byteaToBase64, parsePgArray, stripUtcOffset } from '../../../local/data-api/pg-text.ts';

describe('PostgreSQL text formats', () => {
  it('parses nested array literals with NULL elements', () => {
    expect(parsePgArray('{{1,2},{3,NULL}}')).toEqual([
      ['1', '2'],
      ['3', null],
    ]);
  });

  it('parses quoted array elements with escapes, commas and the text "NULL"', () => {
    expect(parsePgArray('{"a,b","say \\"hi\\"","NULL",""}')).toEqual(['a,b', 'say "hi"', 'NULL', '']);
  });

  it('parses an array literal with explicit bounds', () => {
    expect(parsePgArray('[0:1]={7,8}')).toEqual(['7', '8']);
  });

  it('turns bytea hex into base64', () => {
    expect(byteaToBase64('\\x68656c6c6f')).toBe('aGVsbG8=');
  });

  it('drops the UTC offset of a timestamptz, keeping the fraction', () => {
    expect(stripUtcOffset('2026-11-21 08:30:00.123456+00')).toBe('2026-11-21 08:30:00.123456');
    expect(stripUtcOffset('2026-11-21 08:30:00+00')).toBe('2026-11-21 08:30:00');
  });
});
