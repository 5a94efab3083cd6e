import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../lib/config.ts';
import { errorCatalogue, type ErrorCode, type MessageParams } from '../../../lib/errors/catalogue.ts';
import { makeFieldCodes } from '../../../lib/rules/fields.ts';
import { describePattern } from '../../../lib/rules/identifiers.ts';

/**
 * A Chinese message is wholly Chinese: apart from what it quotes (the field name, the value the
 * client sent, a number) and a few names that stay as they are everywhere (JSON, ERP, SSCC, HTTP
 * header names, media types, A-Z), no Latin word may remain, whatever rule it renders.
 */
const KEPT = [
  'Idempotency-Key',
  'Retry-After',
  'application/json',
  'UTF-8',
  'JSON',
  'ERP',
  'SSCC',
  'GS1',
  'A-Z',
  'PATCH',
];

const defaults = loadConfig({});
const custom = loadConfig({
  BOX_NO_PATTERN: '^BX[0-9]{6}$',
  ZONGPAI_NO_PATTERN: '^P[0-9]{4,8}$',
  LOCATION_CODE_PATTERN: '^[A-Z]{2}-[0-9]{2}$',
});
/** A configured pattern is quoted as it is: it is a value, not prose. */
const PATTERNS = [custom.boxNoPattern.source, custom.zongpaiNoPattern.source, custom.locationCodePattern.source];

const latinWords = (message: string, params: MessageParams): string[] => {
  let rest = message;
  for (const quoted of [params.value, params.field, ...PATTERNS, ...KEPT])
    if (quoted !== undefined) rest = rest.replaceAll(String(quoted), ' ');
  return rest.match(/[A-Za-z]{2,}/g) ?? [];
};

/** FORBIDDEN's `rule`: the groups that may call the route. */
const roleSets: MessageParams[] = [
  {},
  { rule: 'supervisor' },
  { rule: 'operator,supervisor' },
  { rule: 'supervisor,integration' },
  { rule: 'operator,supervisor,integration' },
];

/** Every parameter set a message is rendered with: each field's own rule (default and custom patterns), and the bare message. */
const paramSets = (): MessageParams[] => {
  const sets: MessageParams[] = [{}, { value: 'X1', limit: 5 }, { value: 'BOX-1', reason: 'not_boxed' }];
  for (const config of [defaults, custom]) {
    for (const [field, { params }] of Object.entries(makeFieldCodes(config)))
      sets.push({ ...params, field, value: 'ab' });
    sets.push({
      field: 'box_no',
      value: '106141411234567890',
      rule: describePattern(config.boxNoPattern),
      reason: 'is an SSCC whose GS1 check digit is wrong',
    });
    sets.push({ field: 'cursor', reason: 'is not a cursor this service issued' });
    sets.push({ field: 'scanned_at', value: '0000-01-01T00:00:00Z', reason: 'must be a time from the year 0001 on' });
  }
  return sets;
};

describe('Chinese messages', () => {
  it.each(Object.keys(errorCatalogue) as ErrorCode[])(
    '%s in Chinese holds no English words, whatever rule it renders',
    (code) => {
      for (const params of code === 'FORBIDDEN' ? roleSets : paramSets()) {
        const message = errorCatalogue[code].message.zh(params);
        expect(latinWords(message, params), message).toEqual([]);
        expect(message).toMatch(/[\u4e00-\u9fff]/);
      }
    },
  );

  it('renders the default code rule in Chinese', () => {
    const { params } = makeFieldCodes(defaults).zongpai_no ?? {};
    expect(errorCatalogue.INVALID_ZONGPAI.message.zh({ ...params, field: 'zongpai_no', value: 'ab' })).toBe(
      "总牌号 'ab'无效：必须是 4-32 位 A-Z、0-9 或 -",
    );
  });
});
