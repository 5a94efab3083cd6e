import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../lib/config.ts';
import { errorCatalogue, type ErrorCode, type MessageParams } from '../../../lib/errors/catalogue.ts';
import { makeFieldCodes } from '../../../lib/rules/fields.ts';
import { renderReason, type Reason } from '../../../lib/errors/reasons.ts';

/**
 * A Chinese message is wholly Chinese: apart from what it quotes (the field name, the value the
 * client sent, a number) and a few names that stay as they are everywhere (JSON, ERP, SSCC, a setting, HTTP
 * header names, media types, A-Z), no Latin word may remain, whatever rule it renders.
 */
const KEPT = [
  'GS1_COMPANY_PREFIX',
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
      pattern: config.boxNoPattern.source,
      reason: 'sscc_check_digit',
    });
    sets.push({ field: 'cursor', reason: 'not_a_cursor' });
    sets.push({ field: 'scanned_at', value: '0000-01-01T00:00:00Z', reason: 'scan_time_too_early', year: 2000 });
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

describe('the reason of a VALIDATION_ERROR in Chinese', () => {
  /** Every reason the service writes (lib/http/validate.ts, the schemas, the If-Match, key and cursor checks), with numbers where they have some, and its English. */
  const REASONS: readonly (readonly [string, Reason])[] = [
    ['is required', { reason: 'required' }],
    ['must be an integer', { reason: 'wrong_type', expected: 'int' }],
    ['must be a string', { reason: 'wrong_type', expected: 'string' }],
    ['must be a boolean', { reason: 'wrong_type', expected: 'boolean' }],
    ['must be an object', { reason: 'wrong_type', expected: 'object' }],
    ['must be an array', { reason: 'wrong_type', expected: 'array' }],
    ['must be at least 1', { reason: 'at_least', limit: 1 }],
    ['must be at most 2147483647', { reason: 'at_most', limit: 2147483647 }],
    ['must have at least 1 entry', { reason: 'at_least', limit: 1, counted: 'entries' }],
    ['must have at most 500 entries', { reason: 'at_most', limit: 500, counted: 'entries' }],
    ['must have at most 64 characters', { reason: 'at_most', limit: 64, counted: 'characters' }],
    ['must be one of OPEN, CLOSED', { reason: 'one_of', values: 'OPEN, CLOSED' }],
    ["has a field this request does not take: 'scaned_at'", { reason: 'unknown_fields', fields: ['scaned_at'] }],
    ['must be given once', { reason: 'given_twice' }],
    ['must be 1-255 visible ASCII characters, e.g. a UUID', { reason: 'idempotency_key_form' }],
    ['is not a cursor this service issued', { reason: 'not_a_cursor' }],
    ['holds one scan or records, not both', { reason: 'scan_or_records' }],
    ['must name a zongpai_no or items to change', { reason: 'edit_names_nothing' }],
    ['differs from If-Match', { reason: 'differs_from_if_match' }],
    [
      'must be given to the millisecond at most: scan times are kept in milliseconds',
      { reason: 'scan_time_precision' },
    ],
    [
      "must be a time from the year 2000 on: check the device's date and time",
      { reason: 'scan_time_too_early', year: 2000 },
    ],
    ['must be a date and time with its time zone, such as 2026-11-24T08:00:00Z', { reason: 'scan_time_form' }],
    [
      "must not be more than 5 minutes ahead of the server's clock: check the device's date and time",
      { reason: 'scan_time_ahead', minutes: 5 },
    ],
    ['must be the box version, e.g. "3"', { reason: 'if_match_form', versioned: 'box' }],
    ['must be the record version, e.g. "1"', { reason: 'if_match_form', versioned: 'record' }],
    [
      'is required (body field or If-Match header) and must be at least 1',
      { reason: 'version_missing', versioned: 'box' },
    ],
    [
      'is required (body field or If-Match header): 1 for a record not voided',
      { reason: 'version_missing', versioned: 'record' },
    ],
    ['must be a record id: a whole number from 1', { reason: 'record_id' }],
    ['must be printable characters', { reason: 'printable' }],
    ['must be a whole number from 1 to 100', { reason: 'whole_number', min: 1, max: 100 }],
    ['must be a whole number from 0', { reason: 'whole_number', min: 0 }],
  ];

  it.each(REASONS)('says "%s" in Chinese after the field it names', (english, reason) => {
    expect(renderReason(reason, 'en')).toBe(english);
    const message = errorCatalogue.VALIDATION_ERROR.message.zh({ ...reason, field: 'records[0].scanned_at' });
    expect(message).toMatch(/^字段 records\[0\]\.scanned_at 无效：\S/);
    expect(message.slice('字段 records[0].scanned_at 无效：'.length)).toMatch(/[\u4e00-\u9fff]/);
  });

  it('keeps the bare message for a reason it does not know', () => {
    expect(errorCatalogue.VALIDATION_ERROR.message.zh({ field: 'x', reason: 'is something new' as never })).toBe(
      '字段 x 无效',
    );
  });
});
