import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gs1CheckDigit } from '../../lib/contract/scanned-codes.ts';
import { expectError } from '../support/assertions.ts';
import { barcodeToolsRequired, missingBarcodeTools, readBarcodes } from '../support/barcode-reader.ts';
import { startTestService, type ApiResponse, type TestService } from '../support/service.ts';

let service: TestService;

/** An SSCC: extension digit 0, the company prefix 4012345, serial `serial`, and its check digit. */
const sscc = (serial: string) => {
  const digits = `04012345${serial.padStart(9, '0')}`;
  return `${digits}${gs1CheckDigit(digits)}`;
};
const SSCC_ZONGPAI = sscc('1');
/** A customer's name in Chinese, with the characters XML and ZPL must escape. */
const CHINESE_CUSTOMER = '杭州西湖食品有限公司 <A&B> ^XZ~JR_';

const planFor = (boxNo: string, orderNo: string, customer: string, quantity = 5) =>
  service.stack.db.query(
    `INSERT INTO erp.demo_box_plan (box_no, order_no, customer_name, item_code, item_name, planned_quantity, unit)
     VALUES (:box_no, :order_no, :customer, 'SKU-L', '标签测试', :quantity, 'pcs')`,
    { box_no: boxNo, order_no: orderNo, customer, quantity },
  );
const register = async (zongpaiNo: string) =>
  expect((await service.call('POST', '/v1/zongpai', { body: { zongpai_no: zongpaiNo } })).status).toBe(201);
const save = async (boxNo: string, zongpaiNo: string, quantity = 5) =>
  expect((await service.saveBox(boxNo, zongpaiNo, { 'SKU-L': quantity })).status).toBe(201);

beforeAll(async () => {
  service = await startTestService();
  await planFor('BOX-L01', 'SO-L1', 'Test Customer');
  await planFor('BOX-L02', 'SO-L1', 'Test Customer', 3);
  await planFor('BOX-L03', 'SO-L2', 'Other Customer');
  await planFor('BOX-L04', 'SO-L3', CHINESE_CUSTOMER, 7);
  await planFor('BOX-L05', 'SO-L3', CHINESE_CUSTOMER, 2);
  for (const zongpai of ['PLT-L1', 'PLT-LMIX', 'PLT-LEMPTY', SSCC_ZONGPAI]) await register(zongpai);
  await save('BOX-L01', 'PLT-L1');
  await save('BOX-L02', 'PLT-L1', 3);
  await save('BOX-L03', 'PLT-LMIX');
  await save('BOX-L04', 'PLT-LMIX', 6);
  await save('BOX-L05', SSCC_ZONGPAI, 2);
});
afterAll(async () => service?.close());

/** A label answered 200 in `format` (none: the default), its body the label's text. */
const label = async (path: string, format?: 'zpl' | 'svg', token?: string): Promise<ApiResponse<string>> => {
  const res = await service.call<string>('GET', format === undefined ? path : `${path}?format=${format}`, { token });
  expect(res.status, String(res.body).slice(0, 300)).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  return res;
};
const svg = async (path: string) => {
  const res = await label(path, 'svg');
  expect(res.headers.get('content-type')).toBe('image/svg+xml');
  return res.body;
};
const zpl = async (path: string) => {
  const res = await label(path, 'zpl');
  expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  return res.body;
};
/** The text elements of an SVG label, their XML escapes left as they are. */
const svgTexts = (document: string) => [...document.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((m) => m[1] ?? '');
/** The data of the ^BC field of a ZPL label, with its mode: `{ mode: 'D', data: '(00)…' }`. */
const zplBarcode = (label: string) => {
  const m = /\^BCN,\d+,Y,N,N,([AND])\^FH\^FD([^^]*)\^FS/.exec(label);
  return m === null ? undefined : { mode: m[1], data: m[2] };
};

describe('a ZPL label', () => {
  it('is one 4 × 6 inch label at 203 dpi in UTF-8 (^XA … ^XZ, ^CI28, ^PW812, ^LL1218), the default format', async () => {
    const res = await label('/v1/zongpai/PLT-L1/label');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.body.trimEnd()).toMatch(/^\^XA\n[\s\S]*\n\^XZ$/);
    expect(res.body.match(/\^XA/g)).toHaveLength(1);
    for (const command of ['^CI28', '^PW812', '^LL1218']) expect(res.body).toContain(`\n${command}\n`);
  });

  it("encodes a zongpai's number as Code 128 (^BC, automatic mode) and prints its box count, total, status and its one order", async () => {
    const label = await zpl('/v1/zongpai/PLT-L1/label');
    expect(zplBarcode(label)).toEqual({ mode: 'A', data: 'PLT-L1' });
    for (const line of ['ORDER: SO-L1', 'CUSTOMER: Test Customer', 'BOXES: 2', 'TOTAL QTY: 8', 'STATUS: OPEN'])
      expect(label).toContain(`^FD${line}^FS`);
  });

  it('encodes an SSCC zongpai as GS1-128: ^BC in UCC/EAN mode (D) with (00) and the 18 digits', async () => {
    expect(zplBarcode(await zpl(`/v1/zongpai/${SSCC_ZONGPAI}/label`))).toEqual({
      mode: 'D',
      data: `(00)${SSCC_ZONGPAI}`,
    });
  });

  it('prints a Chinese customer name in UTF-8 and writes ^, ~ and _ of ERP text as hexadecimal, so no name commands the printer', async () => {
    const label = await zpl('/v1/box/BOX-L04/label');
    expect(label).toContain('^FDCUSTOMER: 杭州西湖食品有限公司 <A&B> _5EXZ_7EJR_5F^FS');
    expect(label.match(/\^XZ/g)).toHaveLength(1);
  });
});

describe('what a label says', () => {
  it('sets a line too long for the label in narrower characters, as high, and a short one as it is', async () => {
    const long = 'Shanghai Lianhua Trading Company Limited, Pudong Branch';
    await planFor('BOX-L11', 'SO-L11', long);
    const label = await zpl('/v1/box/BOX-L11/label');
    const field = (text: string) => new RegExp(`\\^A0N,(\\d+),(\\d+)\\^FB\\d+,1,0,L\\^FH\\^FD${text}`).exec(label);
    const [, height, width] = field(`CUSTOMER: ${long}`) ?? [];
    expect(Number(height)).toBe(50);
    // 65 characters at about 0.6 em fit the 732 dots between the margins at 18 dots wide.
    expect(Number(width)).toBe(18);
    expect(field('ORDER: SO-L11')?.slice(1)).toEqual(['50', '50']);
  });

  it('says MIXED and the number of orders on a zongpai whose boxes belong to several orders', async () => {
    const texts = svgTexts(await svg('/v1/zongpai/PLT-LMIX/label'));
    expect(texts).toEqual(expect.arrayContaining(['ORDER: MIXED (2 orders)', 'BOXES: 2', 'TOTAL QTY: 11']));
    expect(texts.some((t) => t.startsWith('CUSTOMER'))).toBe(false);
    expect(await zpl('/v1/zongpai/PLT-LMIX/label')).toContain('^FDORDER: MIXED (2 orders)^FS');
  });

  it('labels an empty zongpai with no order, 0 boxes and 0 pieces', async () => {
    const texts = svgTexts(await svg('/v1/zongpai/PLT-LEMPTY/label'));
    expect(texts).toEqual(['ZONGPAI', 'BOXES: 0', 'TOTAL QTY: 0', 'STATUS: OPEN', 'PLT-LEMPTY']);
  });

  it('says the order, customer, zongpai and total quantity of a boxed box', async () => {
    expect(svgTexts(await svg('/v1/box/BOX-L01/label'))).toEqual([
      'BOX',
      'ORDER: SO-L1',
      'CUSTOMER: Test Customer',
      'ZONGPAI: PLT-L1',
      'TOTAL QTY: 5',
      'STATUS: BOXED',
      'BOX-L01',
    ]);
  });

  it('labels a box of the ERP plan that is not boxed yet: its order, customer and the quantity planned, no zongpai', async () => {
    await planFor('BOX-L09', 'SO-L9', 'Test Customer', 12);
    expect(svgTexts(await svg('/v1/box/BOX-L09/label'))).toEqual([
      'BOX',
      'ORDER: SO-L9',
      'CUSTOMER: Test Customer',
      'PLANNED QTY: 12',
      'STATUS: NOT_BOXED',
      'BOX-L09',
    ]);
  });

  it('leaves the customer line out of the label of a box, and of a zongpai of one order, whose plan names no customer', async () => {
    await service.stack.db.query(
      `INSERT INTO erp.demo_box_plan (box_no, order_no, customer_name, item_code, item_name, planned_quantity, unit)
       VALUES ('BOX-L10', 'SO-L10', NULL, 'SKU-L', 'Label', 4, 'pcs')`,
    );
    expect(svgTexts(await svg('/v1/box/BOX-L10/label'))).toEqual([
      'BOX',
      'ORDER: SO-L10',
      'PLANNED QTY: 4',
      'STATUS: NOT_BOXED',
      'BOX-L10',
    ]);
    await register('PLT-L10');
    await save('BOX-L10', 'PLT-L10', 4);
    const texts = svgTexts(await svg('/v1/zongpai/PLT-L10/label'));
    expect(texts).toContain('ORDER: SO-L10');
    expect(texts.some((t) => t.startsWith('CUSTOMER'))).toBe(false);
    expect(await zpl('/v1/box/BOX-L10/label')).not.toContain('CUSTOMER');
  });

  it('writes a Chinese customer name as SVG text, its markup characters escaped', async () => {
    const document = await svg('/v1/box/BOX-L04/label');
    expect(svgTexts(document)).toContain('CUSTOMER: 杭州西湖食品有限公司 &lt;A&amp;B&gt; ^XZ~JR_');
    expect(document).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="4in" height="6in" viewBox="0 0 812 1218">/,
    );
  });

  it("shows an SSCC zongpai's number beneath its barcode as (00) and the 18 digits", async () => {
    expect(svgTexts(await svg(`/v1/zongpai/${SSCC_ZONGPAI}/label`)).at(-1)).toBe(`(00) ${SSCC_ZONGPAI}`);
  });
});

describe('the barcode of an SVG label, read back by a standard decoder (rsvg-convert, zbarimg)', () => {
  const missing = missingBarcodeTools();
  const required = barcodeToolsRequired();
  if (missing.length > 0 && !required)
    console.warn(`Skipping the barcode read-back tests: ${missing.join(', ')} not installed`);
  const decodes = missing.length > 0 && !required ? it.skip : it;
  const readBack = async (path: string) => {
    if (missing.length > 0) throw new Error(`reading barcodes back needs ${missing.join(', ')}`);
    return readBarcodes(await svg(path));
  };

  decodes('reads an SSCC zongpai back as 00 and its 18 digits', async () => {
    expect(await readBack(`/v1/zongpai/${SSCC_ZONGPAI}/label`)).toEqual([`00${SSCC_ZONGPAI}`]);
  });

  decodes("reads a zongpai's number back exactly", async () => {
    expect(await readBack('/v1/zongpai/PLT-L1/label')).toEqual(['PLT-L1']);
  });

  decodes('reads back a boxed box, a box not boxed yet and a box with a Chinese customer exactly', async () => {
    for (const box of ['BOX-L01', 'BOX-L09', 'BOX-L04']) expect(await readBack(`/v1/box/${box}/label`)).toEqual([box]);
  });

  decodes('reads back the longest box number the rules allow (32 characters)', async () => {
    const longest = 'BOX-0123456789-ABCDEFGHIJKLMNOPQ';
    expect(longest).toHaveLength(32);
    await planFor(longest, 'SO-L9', 'Test Customer');
    expect(await readBack(`/v1/box/${longest}/label`)).toEqual([longest]);
  });
});

describe('refusals', () => {
  it('answers an unknown zongpai 404 ZONGPAI_NOT_FOUND and an unknown box 404 BOX_NOT_FOUND, as JSON in either format', async () => {
    for (const format of ['zpl', 'svg']) {
      const zongpai = await service.call('GET', `/v1/zongpai/PLT-LNONE/label?format=${format}`);
      expectError(zongpai, 404, 'ZONGPAI_NOT_FOUND', 'zongpai');
      expect(zongpai.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(zongpai.headers.get('cache-control')).toBe('no-store');
      expectError(await service.call('GET', `/v1/box/BOX-LNONE/label?format=${format}`), 404, 'BOX_NOT_FOUND', 'box');
    }
  });

  it('refuses a format other than zpl or svg with 400 VALIDATION_ERROR', async () => {
    for (const format of ['pdf', 'SVG', '', 'zpl,svg'])
      for (const path of ['/v1/zongpai/PLT-L1/label', '/v1/box/BOX-L01/label'])
        expectError(await service.call('GET', `${path}?format=${encodeURIComponent(format)}`), 400, 'VALIDATION_ERROR');
  });

  it('refuses a malformed number with INVALID_ZONGPAI or INVALID_BOX_NO, and an SSCC with a wrong check digit', async () => {
    expectError(await service.call('GET', '/v1/zongpai/P%3B1/label'), 400, 'INVALID_ZONGPAI');
    expectError(await service.call('GET', '/v1/box/B%3B1/label'), 400, 'INVALID_BOX_NO');
    const wrong = `${SSCC_ZONGPAI.slice(0, 17)}${(Number(SSCC_ZONGPAI[17]) + 1) % 10}`;
    expectError(await service.call('GET', `/v1/zongpai/${wrong}/label`), 400, 'INVALID_ZONGPAI');
  });
});

describe('who may print a label', () => {
  it('lets operators, supervisors and integration users read labels; refuses other groups 403 and no token 401', async () => {
    const integration = await service.token('erp', ['integration']);
    const guest = await service.token('gina', ['guest']);
    for (const path of ['/v1/zongpai/PLT-L1/label', '/v1/box/BOX-L01/label']) {
      for (const token of [service.tokens.operator, service.tokens.supervisor, integration])
        expect((await service.call('GET', path, { token })).status).toBe(200);
      expectError(await service.call('GET', path, { token: guest }), 403, 'FORBIDDEN', 'auth');
      expectError(await service.call('GET', path, { token: null }), 401, 'UNAUTHORIZED', 'auth');
    }
  });
});
