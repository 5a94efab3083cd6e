import { codePatternRange, describePattern } from '../rules/identifiers.ts';

/** The languages of the messages. */
export type Language = 'en' | 'zh';

/** Every language a message is rendered in: a renderer answers each. */
export const LANGUAGES: readonly Language[] = ['en', 'zh'];

/** What a bound of a list or a text counts; a bound without one is of a number. */
export type Counted = 'entries' | 'characters';

/**
 * Why a value is refused, as a code and its parameters: each reason's message is rendered from
 * these (see {@link REASONS}), in every language, never from an English sentence. A reason is
 * the part of a message after the field and the value it names (`box_no 'X' is an SSCC whose
 * GS1 check digit is wrong`), for VALIDATION_ERROR and the identifier codes (INVALID_BOX_NO,
 * INVALID_ZONGPAI).
 */
export interface ReasonParams {
  /** The field is missing. */
  required: object;
  /** The field holds another JSON type than `expected` (Zod's name of it: `int`, `string`, `object`, ...). */
  wrong_type: { readonly expected: string };
  /** Less than `limit`: of a number, or `counted` entries or characters. */
  at_least: { readonly limit: number; readonly counted?: Counted };
  /** More than `limit`: of a number, or `counted` entries or characters. */
  at_most: { readonly limit: number; readonly counted?: Counted };
  /** Not one of the allowed `values`, listed with `, `. */
  one_of: { readonly values: string };
  /** An object holds `fields` the request does not take. */
  unknown_fields: { readonly fields: readonly string[] };
  /** A header, a query parameter or a JSON key given more than once. */
  given_twice: object;
  /** A cursor the service did not issue. */
  not_a_cursor: object;
  /** A location body naming both one scan's fields and `records`. */
  scan_or_records: object;
  /** A box PATCH naming neither `zongpai_no` nor `items`. */
  edit_names_nothing: object;
  /** A zongpai registration naming its number and asking for an SSCC too. */
  number_or_sscc: object;
  /** The body's `version` and If-Match name different versions. */
  differs_from_if_match: object;
  /** An If-Match header naming no version, of a box, a location record or a location. */
  if_match_form: { readonly versioned: 'box' | 'record' | 'location' };
  /** No version in the body nor If-Match, or one below 1: of a box or of a location record. */
  version_missing: { readonly versioned: 'box' | 'record' };
  /** A location version below 1. */
  version_below_one: object;
  /** An Idempotency-Key that is not 1-255 visible ASCII characters. */
  idempotency_key_form: object;
  /** A scan time that is not an ISO date and time with its zone. */
  scan_time_form: object;
  /** A scan time with digits past the millisecond. */
  scan_time_precision: object;
  /** A scan time before the year `year`. */
  scan_time_too_early: { readonly year: number };
  /** A scan time more than `minutes` ahead of the server's clock. */
  scan_time_ahead: { readonly minutes: number };
  /** A location record's id that is not a whole number from 1. */
  record_id: object;
  /** A query parameter that is not a whole number from `min` (to `max`). */
  whole_number: { readonly min: number; readonly max?: number };
  /** A text with control or format characters. */
  printable: object;
  /** A box's items coming to more than `limit` bytes as its record. */
  items_record_too_large: { readonly limit: number };
  /** An import naming a location code it named at `index` already. */
  listed_already: { readonly index: number };
  /** A code that does not match `pattern` (a regular expression's source). */
  pattern: { readonly pattern: string };
  /** A box or zongpai number that matches neither its pattern. */
  no_match: object;
  /** A cargo number that is neither a box's nor a zongpai's. */
  not_cargo: object;
  /** A code longer than allowed or with characters that do not print. */
  not_printable: object;
  /** Query or path parameters API Gateway refused. */
  parameters_invalid: object;
  /** A request API Gateway refused for another reason. */
  gateway_rejected: object;
  /** An 18-digit number whose GS1 check digit is wrong. */
  sscc_check_digit: object;
  /** A zongpai number that is a registered location's code. */
  zongpai_is_a_location: object;
  /** A zongpai number that names a box of the ERP plan. */
  zongpai_is_a_box: object;
}

export type ReasonCode = keyof ReasonParams;

/** A reason and its parameters, as a message's parameters carry them. */
export type Reason = { [K in ReasonCode]: { readonly reason: K } & Readonly<ReasonParams[K]> }[ReasonCode];

type Renderers = {
  readonly [K in ReasonCode]: Readonly<Record<Language, (p: Readonly<ReasonParams[K]>) => string>>;
};

/** `an integer`, `an object`, `a string`: the type Zod expected, with its article. */
const aType = (expected: string): string => {
  const name = expected === 'int' ? 'integer' : expected;
  return `${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}`;
};

const TYPES_ZH: Readonly<Record<string, string>> = {
  int: '必须是整数',
  integer: '必须是整数',
  number: '必须是数字',
  string: '必须是文本',
  boolean: '必须是 true 或 false',
  object: '必须是 JSON 对象',
  array: '必须是列表',
};

const NOUNS: Readonly<Record<Counted, readonly [string, string]>> = {
  entries: ['entry', 'entries'],
  characters: ['character', 'characters'],
};

/** A bound as the field has it: `at least 1 entry`, `at most 32 characters`, `at most 99999` (a number). */
const bound = (which: 'least' | 'most', limit: number, counted: Counted | undefined): string => {
  if (counted === undefined) return `must be at ${which} ${String(limit)}`;
  const [one, many] = NOUNS[counted];
  return `must have at ${which} ${String(limit)} ${limit === 1 ? one : many}`;
};

const boundZh = (which: 'least' | 'most', limit: number, counted: Counted | undefined): string => {
  if (counted === undefined) return `${which === 'least' ? '不能小于' : '不能大于'} ${String(limit)}`;
  return `${which === 'least' ? '至少' : '最多'} ${String(limit)} ${counted === 'entries' ? '项' : '个字符'}`;
};

/** A code's pattern in Chinese: the default form as prose, a configured one as its regular expression. */
export const patternZh = (source: string): string => {
  const range = codePatternRange(source);
  return range === undefined ? `必须符合格式 ${source}` : `必须是 ${range.min}-${range.max} 位 A-Z、0-9 或 -`;
};

const IF_MATCH_EN = {
  box: 'the box version, e.g. "3"',
  record: 'the record version, e.g. "1"',
  location: 'the location version, e.g. "3"',
};
const IF_MATCH_ZH = {
  box: '箱的版本号，例如 "3"',
  record: '记录的版本号，例如 "1"',
  location: '库位的版本号，例如 "3"',
};

/**
 * Every reason in every language. The English is what the API has always answered, word for
 * word; the Chinese follows a field's name in `字段 X 无效：…` (or an identifier's `箱号 'X'无效：…`).
 */
export const REASONS: Renderers = {
  required: { en: () => 'is required', zh: () => '必填' },
  wrong_type: { en: (p) => `must be ${aType(p.expected)}`, zh: (p) => TYPES_ZH[p.expected] ?? '类型不符' },
  at_least: { en: (p) => bound('least', p.limit, p.counted), zh: (p) => boundZh('least', p.limit, p.counted) },
  at_most: { en: (p) => bound('most', p.limit, p.counted), zh: (p) => boundZh('most', p.limit, p.counted) },
  one_of: { en: (p) => `must be one of ${p.values}`, zh: (p) => `必须是以下之一：${p.values}` },
  unknown_fields: {
    en: (p) =>
      `has ${p.fields.length === 1 ? 'a field' : 'fields'} this request does not take: ${p.fields.map((f) => `'${f}'`).join(', ')}`,
    zh: (p) => `含有本请求不接受的字段：${p.fields.map((f) => `'${f}'`).join(', ')}`,
  },
  given_twice: { en: () => 'must be given once', zh: () => '只能给出一次' },
  not_a_cursor: { en: () => 'is not a cursor this service issued', zh: () => '不是本服务给出的游标' },
  scan_or_records: {
    en: () => 'holds one scan or records, not both',
    zh: () => '只能是一次扫描或 records，不能两者都有',
  },
  edit_names_nothing: {
    en: () => 'must name a zongpai_no or items to change',
    zh: () => '必须给出要修改的 zongpai_no 或 items',
  },
  number_or_sscc: {
    en: () => 'must name either a zongpai_no or sscc: true, not both',
    zh: () => '只能给出 zongpai_no 或 sscc: true 其中之一，不能两者都有',
  },
  differs_from_if_match: { en: () => 'differs from If-Match', zh: () => '与 If-Match 不一致' },
  if_match_form: { en: (p) => `must be ${IF_MATCH_EN[p.versioned]}`, zh: (p) => `必须是${IF_MATCH_ZH[p.versioned]}` },
  version_missing: {
    en: (p) =>
      p.versioned === 'box'
        ? 'is required (body field or If-Match header) and must be at least 1'
        : 'is required (body field or If-Match header): 1 for a record not voided',
    zh: (p) =>
      p.versioned === 'box'
        ? '必填（请求体字段或 If-Match 头），且至少为 1'
        : '必填（请求体字段或 If-Match 头）：未作废的记录为 1',
  },
  version_below_one: { en: () => 'must be 1 or more', zh: () => '不能小于 1' },
  idempotency_key_form: {
    en: () => 'must be 1-255 visible ASCII characters, e.g. a UUID',
    zh: () => '必须是 1-255 个可见 ASCII 字符，例如 UUID',
  },
  scan_time_form: {
    en: () => 'must be a date and time with its time zone, such as 2026-11-24T08:00:00Z',
    zh: () => '必须是带时区的日期时间，例如 2026-11-24T08:00:00Z',
  },
  scan_time_precision: {
    en: () => 'must be given to the millisecond at most: scan times are kept in milliseconds',
    zh: () => '最多精确到毫秒：扫描时间按毫秒保存',
  },
  scan_time_too_early: {
    en: (p) => `must be a time from the year ${p.year} on: check the device's date and time`,
    zh: (p) => `必须是 ${p.year} 年及以后的时间：请检查设备的日期和时间`,
  },
  scan_time_ahead: {
    en: (p) =>
      `must not be more than ${p.minutes} minutes ahead of the server's clock: check the device's date and time`,
    zh: (p) => `不能比服务器时间快 ${p.minutes} 分钟以上：请检查设备的日期和时间`,
  },
  record_id: { en: () => 'must be a record id: a whole number from 1', zh: () => '必须是记录编号：从 1 起的整数' },
  whole_number: {
    en: (p) => `must be a whole number from ${p.min}${p.max === undefined ? '' : ` to ${p.max}`}`,
    zh: (p) => (p.max === undefined ? `必须是不小于 ${p.min} 的整数` : `必须是 ${p.min} 到 ${p.max} 的整数`),
  },
  printable: { en: () => 'must be printable characters', zh: () => '必须是可打印字符' },
  items_record_too_large: {
    en: (p) => `must come to at most ${p.limit} bytes as the box's record: fewer items or shorter item codes`,
    zh: (p) => `作为一箱的记录最多 ${p.limit} 字节：请减少物料或缩短物料编码`,
  },
  listed_already: { en: (p) => `is listed at index ${p.index} already`, zh: (p) => `已在索引 ${p.index} 处列出` },
  pattern: {
    en: (p) => `must be ${describePattern(p.pattern)}`,
    zh: (p) => patternZh(p.pattern),
  },
  no_match: { en: () => 'does not match', zh: () => '格式不符' },
  not_cargo: { en: () => 'is not a box or zongpai number', zh: () => '不是箱号或总牌号' },
  not_printable: { en: () => 'is not printable', zh: () => '含有不可打印的字符或过长' },
  parameters_invalid: { en: () => 'are invalid', zh: () => '参数无效' },
  gateway_rejected: { en: () => 'was rejected by the API gateway', zh: () => '被网关拒绝' },
  sscc_check_digit: { en: () => 'is an SSCC whose GS1 check digit is wrong', zh: () => 'SSCC 校验位错误' },
  zongpai_is_a_location: {
    en: () => 'is a registered location: scan the zongpai label',
    zh: () => '这是已登记的库位，请扫描总牌标签',
  },
  zongpai_is_a_box: {
    en: () => 'is the number of a box in the ERP plan: scan the zongpai label',
    zh: () => '这是 ERP 计划中的箱号，请扫描总牌标签',
  },
};

/**
 * Which of its messages an error code answers with, where it has more than one (BOX_NOT_FOUND
 * `not_boxed`, VERSION_CONFLICT `location_record`, ...): rendered by the code's own entry of
 * the catalogue. OFF_SHELF_MISMATCH's are the `off_shelf` the register holds for the location.
 */
export const VARIANTS = [
  'not_boxed',
  'location_record',
  'location',
  'too_large',
  'items_too_large',
  'too_many_items',
  'true',
  'false',
] as const;

export type Variant = (typeof VARIANTS)[number];

export const isVariant = (value: unknown): value is Variant => (VARIANTS as readonly unknown[]).includes(value);

export const isReasonCode = (value: unknown): value is ReasonCode =>
  typeof value === 'string' && Object.hasOwn(REASONS, value);

/**
 * A reason in `language`, from its code and parameters; undefined when the parameters name no
 * reason (or, unchecked, one this table does not know).
 *
 * @example
 * ```ts
 * renderReason({ reason: 'at_most', limit: 9 }, 'zh'); // '不能大于 9'
 * ```
 */
export const renderReason = (params: { readonly reason?: unknown }, language: Language): string | undefined => {
  if (!isReasonCode(params.reason)) return undefined;
  return (REASONS[params.reason][language] as (p: object) => string)(params);
};
