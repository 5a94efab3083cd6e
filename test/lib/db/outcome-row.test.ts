import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { outcomeRow } from '../../../lib/db/outcome-row.ts';

describe('a write’s outcome row', () => {
  const VoidRow = outcomeRow({ id: z.string(), version: z.int() });

  it('reads a problem’s row, every written column NULL', () => {
    expect(VoidRow.parse({ error_code: 'RECORD_NOT_FOUND', id: null, version: null })).toEqual({
      error_code: 'RECORD_NOT_FOUND',
      id: null,
      version: null,
    });
  });

  it('reads a written row by the columns’ own schemas', () => {
    expect(VoidRow.parse({ error_code: null, id: '42', version: 2, extra: 'x' })).toEqual({
      error_code: null,
      id: '42',
      version: 2,
    });
    expect(VoidRow.safeParse({ error_code: null, id: '42', version: 1.5 }).success).toBe(false);
  });

  it('refuses a row without its error code or one of its columns', () => {
    expect(VoidRow.safeParse({ id: '42', version: 2 }).success).toBe(false);
    expect(VoidRow.safeParse({ error_code: null, id: '42' }).success).toBe(false);
  });
});
