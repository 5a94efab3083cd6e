import { describe, expect, it } from 'vitest';
import {
  gs1CheckDigit,
  isValidSscc,
  normaliseCargoNo,
  normaliseCode,
  normaliseItemCode,
} from '../../../lib/contract/scanned-codes.ts';

const PATTERN = /^[A-Z0-9-]{4,32}$/;

describe('box and zongpai number normalisation', () => {
  it('trims whitespace and a trailing CR/LF and upper-cases', () => {
    expect(normaliseCargoNo('  box-1001\r\n', PATTERN)).toEqual({ ok: true, value: 'BOX-1001' });
  });

  it('strips an AIM symbology prefix such as ]C1', () => {
    expect(normaliseCode(']C1box-1001')).toBe('BOX-1001');
  });

  it('normalises a GS1-128 scan (00)+18 digits to the SSCC', () => {
    expect(normaliseCargoNo('(00)106141411234567897', PATTERN)).toEqual({ ok: true, value: '106141411234567897' });
  });

  it('normalises a GS1-128 scan 00+18 digits to the SSCC', () => {
    expect(normaliseCargoNo(']C100106141411234567897', PATTERN)).toEqual({ ok: true, value: '106141411234567897' });
  });

  it('rejects an 18-digit SSCC whose check digit is wrong', () => {
    expect(normaliseCargoNo('106141411234567890', PATTERN)).toEqual({
      ok: false,
      value: '106141411234567890',
      reason: 'sscc_check_digit',
    });
  });

  it('rejects values outside the pattern instead of altering them', () => {
    expect(normaliseCargoNo('AB', PATTERN).ok).toBe(false);
    expect(normaliseCargoNo('BOX_1001', PATTERN).ok).toBe(false);
    expect(normaliseCargoNo('BOX 1001', PATTERN).ok).toBe(false);
    expect(normaliseCargoNo('X'.repeat(33), PATTERN).ok).toBe(false);
  });
});

describe('GS1 mod-10 check digit', () => {
  it('computes the check digit of the GS1 example SSCC', () => {
    expect(gs1CheckDigit('10614141123456789')).toBe(7);
    expect(isValidSscc('106141411234567897')).toBe(true);
  });

  it('accepts every SSCC built with its own check digit', () => {
    for (const body of ['00000000000000000', '12345678901234567', '99999999999999999', '03800000000000001']) {
      expect(isValidSscc(`${body}${gs1CheckDigit(body)}`)).toBe(true);
      expect(isValidSscc(`${body}${(gs1CheckDigit(body) + 1) % 10}`)).toBe(false);
    }
  });
});

describe('item codes', () => {
  it('trims and keeps 1-64 printable characters as they are', () => {
    expect(normaliseItemCode('  sku-Tea 250 \n', 64)).toEqual({ ok: true, value: 'sku-Tea 250' });
    expect(normaliseItemCode('茶叶-250', 64).ok).toBe(true);
  });

  it('rejects empty, control characters and over-long codes', () => {
    expect(normaliseItemCode('   ', 64).ok).toBe(false);
    expect(normaliseItemCode('A\u0000B', 64).ok).toBe(false);
    expect(normaliseItemCode('x'.repeat(65), 64).ok).toBe(false);
  });
});

describe('only ASCII letters change case', () => {
  const ZONGPAI = /^[A-Z0-9-]{4,32}$/;

  it.each([
    'plt-\uFB01',
    'plt-\uFB0101',
    '\u017Ftage-\u0131',
    'stra\u00DFe',
    'plt-\uFB00',
    'plt-\uFB02',
    'plt-\uFB03',
    'plt-\uFB04',
    'plt-\uFB05',
    'plt-\uFB06',
    'plt-\u0131',
  ])('refuses %s instead of upper-casing it into the pattern', (raw) => {
    expect(ZONGPAI.test(normaliseCode(raw))).toBe(false);
    expect(normaliseCargoNo(raw, ZONGPAI).ok).toBe(false);
  });

  it('upper-cases a-z and leaves every other character as it was', () => {
    expect(normaliseCode('plt-\uFB01')).toBe('PLT-\uFB01');
    expect(normaliseCode('\u017Ftage-\u0131')).toBe('\u017FTAGE-\u0131');
    expect(normaliseCode('box-\u00e9')).toBe('BOX-\u00e9');
  });
});

describe('trimming strips what a scanner sends, nothing else', () => {
  it('strips spaces, tabs, CR and LF around codes and item codes', () => {
    expect(normaliseCode(' \t box-1001\r\n')).toBe('BOX-1001');
    expect(normaliseItemCode('\t SKU-1 \r\n', 64)).toEqual({ ok: true, value: 'SKU-1' });
  });

  it.each(['FEFF', '00A0', '2003', '3000', '2028', '000B', '000C'])(
    'keeps U+%s around a code, so the code is refused',
    (hex) => {
      const space = String.fromCodePoint(Number.parseInt(hex, 16));
      expect(normaliseCargoNo(`${space}BOX-1001`, /^[A-Z0-9-]{4,32}$/).ok).toBe(false);
      expect(normaliseCargoNo(`BOX-1001${space}`, /^[A-Z0-9-]{4,32}$/).ok).toBe(false);
    },
  );

  it('refuses an item code wrapped in a byte-order mark rather than removing it', () => {
    expect(normaliseItemCode('\uFEFFSKU-1', 64).ok).toBe(false);
  });
});
