import { describe, expect, it } from 'vitest';
import { errorCatalogue } from '../../lib/errors/catalogue.ts';
import { deviceLang, instructionFor, messageFor, translate } from '../src/i18n.ts';

describe('the languages of the app', () => {
  it('has an instruction in English and Chinese for every error code the service has', () => {
    for (const code of Object.keys(errorCatalogue)) {
      // A code without its own instruction would fall back to INTERNAL_ERROR's.
      if (code !== 'INTERNAL_ERROR')
        expect(instructionFor('en', code), code).not.toBe(instructionFor('en', 'INTERNAL_ERROR'));
      expect(instructionFor('zh', code), code).toMatch(/\p{Script=Han}/u);
    }
  });

  it('chooses Chinese on a Chinese device unless the operator chose otherwise', () => {
    expect(deviceLang('zh-CN')).toBe('zh');
    expect(deviceLang('zh-TW')).toBe('zh');
    expect(deviceLang('en-GB')).toBe('en');
    expect(deviceLang('zh-CN', 'en')).toBe('en');
  });

  it("shows the service's message, but its own Chinese for API Gateway's English-only refusals", () => {
    expect(messageFor('zh', { error_code: 'BOX_NOT_FOUND', message: '箱号不存在' })).toBe('箱号不存在');
    expect(messageFor('zh', { error_code: 'THROTTLED', message: 'Too Many Requests' })).toBe(
      instructionFor('zh', 'THROTTLED'),
    );
    expect(messageFor('en', { error_code: 'THROTTLED', message: 'Too Many Requests' })).toBe('Too Many Requests');
  });

  it("shows its own words for a refusal that names an internal field path, the service's otherwise", () => {
    const error = { error_code: 'INVALID_BOX_NO', message: "records[0].cargo_no 'bad code!' must be a box number" };
    expect(messageFor('en', error)).toBe(instructionFor('en', 'INVALID_BOX_NO'));
    const quantity = { error_code: 'INVALID_QUANTITY', message: "items[0].quantity '1.5' must be a whole number" };
    expect(messageFor('en', quantity)).toBe(instructionFor('en', 'INVALID_QUANTITY'));
    const plain = { error_code: 'ZONGPAI_NOT_FOUND', message: "Zongpai 'PLT-9' is not registered" };
    expect(messageFor('en', plain)).toBe(plain.message);
  });

  it('fills the values into the words', () => {
    expect(translate('en', 'savedOnZongpai', { box: 'BOX-1', zongpai: 'PLT-1' })).toBe('Box BOX-1 saved on PLT-1');
    expect(translate('zh', 'waiting', { n: 3 })).toBe('3 条扫描等待上传');
  });
});

describe('words for an operator, not for a developer', () => {
  /** What an operator cannot act on: HTTP methods and headers, request internals. */
  const API_TALK =
    /PATCH|If-Match|Idempotency|Retry-After|\bkey\b|JSON|application\/|token|route|request body|version \d|键|令牌|接口/i;
  const params = { value: 'BOX-1001', field: 'box_no', version: 3, limit: 5, rule: 'supervisor' };

  it.each(['en', 'zh'] as const)('shows no API talk for any refusal the service can answer (%s)', (lang) => {
    for (const [code, entry] of Object.entries(errorCatalogue)) {
      const message = entry.message[lang](params);
      expect(messageFor(lang, { error_code: code, message }), code).not.toMatch(API_TALK);
      expect(instructionFor(lang, code), code).not.toMatch(API_TALK);
    }
  });

  it('says what to do about a scan time the service refuses: the device clock is wrong', () => {
    expect(instructionFor('en', 'DEVICE_CLOCK')).toMatch(/date and time/);
    expect(instructionFor('zh', 'DEVICE_CLOCK')).toMatch(/日期和时间/);
  });

  it('says a waking service is asked again by a new scan, not that the app retries by itself', () => {
    expect(instructionFor('en', 'DATABASE_UNAVAILABLE')).toMatch(/scan again/);
    expect(instructionFor('en', 'DATABASE_UNAVAILABLE')).not.toMatch(/retries by itself/);
  });

  it('has no developer jargon in its own words', () => {
    for (const lang of ['en', 'zh'] as const)
      for (const key of ['retrying', 'notSaved'] as const) expect(translate(lang, key), key).not.toMatch(API_TALK);
  });
});
