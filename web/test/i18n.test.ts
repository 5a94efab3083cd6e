import { describe, expect, it } from 'vitest';
import { errorCatalogue } from '../../lib/errors/catalogue.ts';
import { deviceLang, headlineFor, instructionFor, messageFor, number, percent, translate } from '../src/i18n.ts';

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
      headlineFor('zh', 'THROTTLED'),
    );
    expect(messageFor('en', { error_code: 'THROTTLED', message: 'Too Many Requests' })).toBe('Too Many Requests');
  });

  it("shows its own words for a refusal that names an internal field path, the service's otherwise", () => {
    const error = { error_code: 'INVALID_BOX_NO', message: "records[0].cargo_no 'bad code!' must be a box number" };
    expect(messageFor('en', error)).toBe(headlineFor('en', 'INVALID_BOX_NO'));
    const quantity = { error_code: 'INVALID_QUANTITY', message: "items[0].quantity '1.5' must be a whole number" };
    expect(messageFor('en', quantity)).toBe(headlineFor('en', 'INVALID_QUANTITY'));
    const plain = { error_code: 'ZONGPAI_NOT_FOUND', message: "Zongpai 'PLT-9' is not registered" };
    expect(messageFor('en', plain)).toBe(plain.message);
  });

  it('fills the values into the words', () => {
    expect(translate('en', 'savedOnZongpai', { box: 'BOX-1', zongpai: 'PLT-1' })).toBe('Box BOX-1 saved on PLT-1');
    expect(translate('zh', 'waiting', { n: 3 })).toBe('3 条扫描等待上传');
  });

  it("counts boxes of an order in the plural their total takes, and writes numbers and shares the language's way", () => {
    expect(translate('en', 'boxesBoxed', { boxed: 1, n: 1 })).toBe('1 of 1 box boxed');
    expect(translate('en', 'boxesBoxed', { boxed: 1, n: 2 })).toBe('1 of 2 boxes boxed');
    expect(translate('zh', 'boxesBoxed', { boxed: 1, n: 1 })).toBe('1 箱中已装 1 箱');
    expect(translate('en', 'packed', { percent: percent(0.38, 'en') })).toBe('38% packed');
    expect(translate('zh', 'packed', { percent: percent(0.38, 'zh') })).toBe('已装 38%');
    expect(number(12_000, 'en')).toBe('12,000');
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
    expect(instructionFor('en', 'DATABASE_UNAVAILABLE')).toMatch(/scan again/i);
    expect(instructionFor('en', 'DATABASE_UNAVAILABLE')).not.toMatch(/retries by itself/);
  });

  /**
   * The headline says what happened and the instruction under it what to do: no run of three
   * words (English) or three characters (Chinese) of the headline is said again under it.
   */
  const repeated = (lang: 'en' | 'zh', headline: string, instruction: string): string[] => {
    const runs = (text: string) => {
      const parts =
        lang === 'en' ? (text.toLowerCase().match(/[a-z0-9'-]+/g) ?? []) : [...text.replace(/[^\p{Script=Han}]/gu, '')];
      return parts.slice(0, -2).map((_, i) => parts.slice(i, i + 3).join(lang === 'en' ? ' ' : ''));
    };
    const said = new Set(runs(headline));
    return runs(instruction).filter((run) => said.has(run));
  };

  it.each(['en', 'zh'] as const)(
    'never says a refusal twice: its instruction does not repeat its headline (%s)',
    (lang) => {
      for (const code of [...Object.keys(errorCatalogue), 'DEVICE_CLOCK'])
        expect(repeated(lang, headlineFor(lang, code), instructionFor(lang, code)), code).toEqual([]);
    },
  );

  it('has no developer jargon in its own words', () => {
    for (const lang of ['en', 'zh'] as const)
      for (const key of ['retrying', 'notSaved'] as const) expect(translate(lang, key), key).not.toMatch(API_TALK);
  });
});
