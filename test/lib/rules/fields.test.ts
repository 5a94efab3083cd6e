import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../lib/config.ts';
import { makeFieldCodes, makeFields } from '../../../lib/rules/fields.ts';

describe('order numbers', () => {
  it('takes 1-64 printable characters unless ORDER_NO_MAX_LENGTH says otherwise', () => {
    const byDefault = makeFields(loadConfig({})).orderNo;
    const short = makeFields(loadConfig({ ORDER_NO_MAX_LENGTH: '8' })).orderNo;
    expect(byDefault.safeParse('O'.repeat(64)).success).toBe(true);
    expect(byDefault.safeParse('O'.repeat(65)).success).toBe(false);
    expect(short.safeParse(' SO-24001 ').data).toBe('SO-24001');
    expect(short.safeParse('SO-240011').success).toBe(false);
  });

  it('says the configured length in INVALID_ORDER_NO', () => {
    expect(makeFieldCodes(loadConfig({ ORDER_NO_MAX_LENGTH: '8' })).order_no).toEqual({
      code: 'INVALID_ORDER_NO',
      params: { limit: 8 },
    });
  });

  it.each(['0', '1001', 'abc'])('refuses ORDER_NO_MAX_LENGTH=%s, naming it', (value) => {
    expect(() => loadConfig({ ORDER_NO_MAX_LENGTH: value })).toThrow(/ORDER_NO_MAX_LENGTH/);
  });
});
