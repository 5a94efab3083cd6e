import { describe, expect, it } from 'vitest';
import { zplFieldData, zplLabel } from '../../../lib/label/zpl.ts';

const barcodeField = (label: string) => /\^BY(\d),3,240\^BCN,240,Y,N,N,([AD])\^FH\^FD([^^]*)\^FS/.exec(label);

describe('a ZPL label', () => {
  it('writes ^, ~, _ and control characters of a field as hexadecimal UTF-8 bytes, so no text ends the field or the label', () => {
    expect(zplFieldData('A^XZ~JR_\\\r\n中')).toBe('A_5EXZ_7EJR_5F_5C_0D_0A中');
  });

  it('keeps the barcode of the longest number (32 characters) within the label width: 2 dots a module, 3 for a short one', () => {
    const long = zplLabel({ title: 'BOX', number: 'BOX-0123456789-ABCDEFGHIJKLMNOPQ', lines: [] });
    expect(barcodeField(long)?.slice(1)).toEqual(['2', 'A', 'BOX-0123456789-ABCDEFGHIJKLMNOPQ']);
    const short = zplLabel({ title: 'BOX', number: 'BOX-1001', lines: [] });
    expect(barcodeField(short)?.[1]).toBe('3');
  });

  it('draws an SSCC in UCC/EAN mode with (00) before its 18 digits, and an 18-digit number without a valid check digit as plain Code 128', () => {
    expect(barcodeField(zplLabel({ title: 'ZONGPAI', number: '012345678901234560', lines: [] }))?.slice(2)).toEqual([
      'D',
      '(00)012345678901234560',
    ]);
    expect(barcodeField(zplLabel({ title: 'ZONGPAI', number: '012345678901234561', lines: [] }))?.slice(2)).toEqual([
      'A',
      '012345678901234561',
    ]);
  });
});
