import { describe, expect, it } from 'vitest';
import { AppError, errorBody } from '../../../lib/errors/app-error.ts';
import { errorCatalogue, type ErrorCode } from '../../../lib/errors/catalogue.ts';
import { preferredLanguage } from '../../../lib/errors/language.ts';

/** The SPEC's error table, row by row. */
const SPEC: Record<ErrorCode, [number, string]> = {
  INVALID_BOX_NO: [400, 'box'],
  INVALID_QUANTITY: [400, 'box'],
  INVALID_ZONGPAI: [400, 'zongpai'],
  INVALID_ITEM_CODE: [400, 'box'],
  INVALID_LOCATION_CODE: [400, 'location'],
  DUPLICATE_BOX_ITEM: [400, 'box'],
  VALIDATION_ERROR: [400, 'request'],
  MALFORMED_JSON: [400, 'request'],
  INVALID_ORDER_NO: [400, 'order'],
  UNAUTHORIZED: [401, 'auth'],
  FORBIDDEN: [403, 'auth'],
  BOX_NOT_FOUND: [404, 'box'],
  ZONGPAI_NOT_FOUND: [404, 'zongpai'],
  CARGO_NOT_FOUND: [404, 'location'],
  RECORD_NOT_FOUND: [404, 'location'],
  ROUTE_NOT_FOUND: [404, 'request'],
  ORDER_NOT_FOUND: [404, 'order'],
  LOCATION_NOT_FOUND: [404, 'location'],
  BOX_ALREADY_BOXED: [409, 'box'],
  ZONGPAI_CLOSED: [409, 'zongpai'],
  ZONGPAI_ALREADY_EXISTS: [409, 'zongpai'],
  SSCC_NOT_CONFIGURED: [409, 'zongpai'],
  SSCC_EXHAUSTED: [409, 'zongpai'],
  ZONGPAI_MIXES_ORDERS: [409, 'zongpai'],
  ZONGPAI_MIXES_CUSTOMERS: [409, 'zongpai'],
  VERSION_CONFLICT: [409, 'box'],
  LOCATION_BLOCKED: [409, 'location'],
  PAYLOAD_TOO_LARGE: [413, 'request'],
  UNSUPPORTED_MEDIA_TYPE: [415, 'request'],
  ITEM_NOT_IN_PLAN: [422, 'box'],
  QUANTITY_EXCEEDS_PLAN: [422, 'box'],
  ERP_PLAN_INVALID: [422, 'box'],
  IDEMPOTENCY_KEY_REUSED: [422, 'request'],
  LOCATION_IS_CARGO: [422, 'location'],
  CARGO_IS_LOCATION: [422, 'location'],
  OFF_SHELF_MISMATCH: [422, 'location'],
  TRANSFER_TOO_LARGE: [422, 'location'],
  THROTTLED: [429, 'request'],
  INTERNAL_ERROR: [500, 'system'],
  DATABASE_UNAVAILABLE: [503, 'system'],
  ERP_VIEW_UNAVAILABLE: [503, 'system'],
};

describe('error catalogue', () => {
  it('holds exactly the SPEC error codes with their status and domain', () => {
    const actual = Object.fromEntries(Object.entries(errorCatalogue).map(([code, e]) => [code, [e.status, e.domain]]));
    expect(actual).toEqual(SPEC);
  });

  it.each(Object.keys(SPEC) as ErrorCode[])('%s has a non-empty English and Chinese message', (code) => {
    const en = errorCatalogue[code].message.en({ value: 'X1', field: 'f', limit: 5 });
    const zh = errorCatalogue[code].message.zh({ value: 'X1', field: 'f', limit: 5 });
    expect(en.length).toBeGreaterThan(5);
    expect(zh).toMatch(/[\u4e00-\u9fff]/);
  });

  it('renders the SPEC example message for a short box number', () => {
    const body = errorBody(new AppError('INVALID_BOX_NO', { field: 'box_no', value: 'ab' }), 'en', 'req-1');
    expect(body).toEqual({
      error_code: 'INVALID_BOX_NO',
      message: "box_no 'ab' must be 4-32 characters of A-Z, 0-9 and '-'",
      domain: 'box',
      request_id: 'req-1',
    });
  });

  it('answers every 503 with Retry-After in whole seconds, as the API reference says', () => {
    const unavailable = (Object.keys(errorCatalogue) as ErrorCode[]).filter((c) => errorCatalogue[c].status === 503);
    expect(unavailable).toEqual(['DATABASE_UNAVAILABLE', 'ERP_VIEW_UNAVAILABLE']);
    for (const code of unavailable) expect(new AppError(code).headers['Retry-After'], code).toMatch(/^[1-9]\d*$/);
  });

  it('lists details only when several fields are bad', () => {
    const error = new AppError('INVALID_QUANTITY', { field: 'items[0].quantity' }, [
      { field: 'items[0].quantity', code: 'INVALID_QUANTITY', params: { value: '0' } },
      { field: 'items[1].item_code', code: 'INVALID_ITEM_CODE', params: {} },
    ]);
    expect(errorBody(error, 'en').details?.map((d) => [d.field, d.error_code])).toEqual([
      ['items[0].quantity', 'INVALID_QUANTITY'],
      ['items[1].item_code', 'INVALID_ITEM_CODE'],
    ]);
  });
});

describe('Accept-Language', () => {
  it.each([
    [undefined, 'en'],
    ['zh-CN', 'zh'],
    ['zh-CN,zh;q=0.9,en;q=0.8', 'zh'],
    ['en-US,en;q=0.9,zh;q=0.8', 'en'],
    ['fr-FR, zh;q=0.5', 'zh'],
    ['fr-FR', 'en'],
    ['zh;q=abc', 'en'],
  ])('%s prefers %s', (header, language) => {
    expect(preferredLanguage(header)).toBe(language);
  });
});
