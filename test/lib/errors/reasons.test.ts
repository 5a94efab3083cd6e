import { describe, expect, it } from 'vitest';
import { errorCatalogue, type ErrorCode, type MessageParams } from '../../../lib/errors/catalogue.ts';
import {
  LANGUAGES,
  REASONS,
  renderReason,
  VARIANTS,
  type Reason,
  type ReasonCode,
  type ReasonParams,
  type Variant,
} from '../../../lib/errors/reasons.ts';

/**
 * Each reason with the parameters it is rendered with, and the error code that names it. The
 * type asks for every reason: a reason added without an example here does not compile.
 */
const EXAMPLES: { readonly [K in ReasonCode]: { readonly code: ErrorCode; readonly params: ReasonParams[K] } } = {
  required: { code: 'VALIDATION_ERROR', params: {} },
  wrong_type: { code: 'VALIDATION_ERROR', params: { expected: 'int' } },
  at_least: { code: 'VALIDATION_ERROR', params: { limit: 1, counted: 'entries' } },
  at_most: { code: 'VALIDATION_ERROR', params: { limit: 64, counted: 'characters' } },
  one_of: { code: 'VALIDATION_ERROR', params: { values: 'OPEN, CLOSED' } },
  unknown_fields: { code: 'VALIDATION_ERROR', params: { fields: ['scaned_at', 'x'] } },
  given_twice: { code: 'VALIDATION_ERROR', params: {} },
  not_a_cursor: { code: 'VALIDATION_ERROR', params: {} },
  scan_or_records: { code: 'VALIDATION_ERROR', params: {} },
  edit_names_nothing: { code: 'VALIDATION_ERROR', params: {} },
  number_or_sscc: { code: 'VALIDATION_ERROR', params: {} },
  differs_from_if_match: { code: 'VALIDATION_ERROR', params: {} },
  if_match_form: { code: 'VALIDATION_ERROR', params: { versioned: 'location' } },
  version_missing: { code: 'VALIDATION_ERROR', params: { versioned: 'record' } },
  version_below_one: { code: 'VALIDATION_ERROR', params: {} },
  idempotency_key_form: { code: 'VALIDATION_ERROR', params: {} },
  scan_time_form: { code: 'VALIDATION_ERROR', params: {} },
  scan_time_precision: { code: 'VALIDATION_ERROR', params: {} },
  scan_time_too_early: { code: 'VALIDATION_ERROR', params: { year: 2000 } },
  scan_time_ahead: { code: 'VALIDATION_ERROR', params: { minutes: 5 } },
  record_id: { code: 'VALIDATION_ERROR', params: {} },
  whole_number: { code: 'VALIDATION_ERROR', params: { min: 1, max: 100 } },
  printable: { code: 'VALIDATION_ERROR', params: {} },
  items_record_too_large: { code: 'VALIDATION_ERROR', params: { limit: 65_536 } },
  listed_already: { code: 'VALIDATION_ERROR', params: { index: 0 } },
  pattern: { code: 'VALIDATION_ERROR', params: { pattern: '^[A-Z0-9-]{1,32}$' } },
  no_match: { code: 'VALIDATION_ERROR', params: {} },
  not_cargo: { code: 'VALIDATION_ERROR', params: {} },
  not_printable: { code: 'VALIDATION_ERROR', params: {} },
  parameters_invalid: { code: 'VALIDATION_ERROR', params: {} },
  gateway_rejected: { code: 'VALIDATION_ERROR', params: {} },
  sscc_check_digit: { code: 'INVALID_BOX_NO', params: {} },
  zongpai_is_a_location: { code: 'INVALID_ZONGPAI', params: {} },
  zongpai_is_a_box: { code: 'INVALID_ZONGPAI', params: {} },
};

/** The error code each variant of a message belongs to. */
const VARIANT_OF: Readonly<Record<Variant, ErrorCode>> = {
  not_boxed: 'BOX_NOT_FOUND',
  location_record: 'VERSION_CONFLICT',
  location: 'VERSION_CONFLICT',
  too_large: 'ERP_PLAN_INVALID',
  items_too_large: 'ERP_PLAN_INVALID',
  too_many_items: 'ERP_PLAN_INVALID',
  true: 'OFF_SHELF_MISMATCH',
  false: 'OFF_SHELF_MISMATCH',
};

/** Names that stay as they are in a Chinese message (see zh-messages.test.ts), and the field names quoted. */
const KEPT =
  /If-Match|ERP|ASCII|UUID|SSCC|zongpai_no|items|records|sscc|true|false|OPEN|CLOSED|scaned_at|A-Z|\d{4}-\d{2}-\d{2}T[\d:]+Z/g;

const reasons = Object.keys(REASONS) as ReasonCode[];

describe('every reason, in every language', () => {
  it('has an example for every reason and a renderer for every language', () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual([...reasons].sort());
    for (const code of reasons) expect(Object.keys(REASONS[code]).sort(), code).toEqual([...LANGUAGES].sort());
  });

  it.each(reasons)('renders %s in English and in Chinese, within the message of its code', (code) => {
    const example = EXAMPLES[code];
    const reason = { reason: code, ...example.params } as Reason;
    const en = renderReason(reason, 'en');
    const zh = renderReason(reason, 'zh');
    expect(en).toMatch(/^[\x20-\x7e]+$/);
    expect(zh).toMatch(/[\u4e00-\u9fff]/);
    expect(zh?.replace(KEPT, '').match(/[A-Za-z]{2,}/g) ?? [], zh).toEqual([]);
    const params = { ...reason, field: 'f', value: 'X1' } as MessageParams;
    expect(errorCatalogue[example.code].message.en(params)).toContain(en);
    expect(errorCatalogue[example.code].message.zh(params)).toContain(zh);
  });

  it.each([...VARIANTS])('renders the variant %s of its code in English and in Chinese', (variant) => {
    const entry = errorCatalogue[VARIANT_OF[variant]];
    const params: MessageParams = { value: 'X1', reason: variant, version: 2, count: 3, size: 70, limit: 64 };
    const others = VARIANTS.filter((v) => v !== variant && VARIANT_OF[v] === VARIANT_OF[variant]);
    for (const language of LANGUAGES) {
      const message = entry.message[language](params);
      const plain = entry.message[language]({ value: 'X1', version: 2, count: 3, size: 70, limit: 64 });
      // Each variant says something of its own: none falls back to the code's other message.
      if (variant !== 'false') expect(message, language).not.toBe(plain);
      for (const other of others)
        expect(message, `${language} ${other}`).not.toBe(entry.message[language]({ ...params, reason: other }));
    }
    expect(entry.message.zh(params)).toMatch(/[\u4e00-\u9fff]/);
  });
});
