/**
 * The reasons of VALIDATION_ERROR in Simplified Chinese. A reason is written once, in English,
 * where the rule is (the schemas, the If-Match and cursor checks); this table renders it for a
 * request that prefers `zh`. A reason it does not know leaves the Chinese message at "字段 X 无效".
 */

/** Reasons written out in full. */
const EXACT: Readonly<Record<string, string>> = {
  'is required': '必填',
  'must be an integer': '必须是整数',
  'must be a number': '必须是数字',
  'must be a string': '必须是文本',
  'must be a boolean': '必须是 true 或 false',
  'must be an object': '必须是 JSON 对象',
  'must be an array': '必须是列表',
  'must be given once': '只能给出一次',
  'is not a cursor this service issued': '不是本服务给出的游标',
  'holds one scan or records, not both': '只能是一次扫描或 records，不能两者都有',
  'must name a zongpai_no or items to change': '必须给出要修改的 zongpai_no 或 items',
  'differs from If-Match': '与 If-Match 不一致',
  'must be 1-255 visible ASCII characters, e.g. a UUID': '必须是 1-255 个可见 ASCII 字符，例如 UUID',
  'must be given to the millisecond at most: scan times are kept in milliseconds': '最多精确到毫秒：扫描时间按毫秒保存',
  'must be a date and time with its time zone, such as 2026-11-24T08:00:00Z':
    '必须是带时区的日期时间，例如 2026-11-24T08:00:00Z',
  'must be the box version, e.g. "3"': '必须是箱的版本号，例如 "3"',
  'must be the record version, e.g. "1"': '必须是记录的版本号，例如 "1"',
  'is required (body field or If-Match header) and must be at least 1': '必填（请求体字段或 If-Match 头），且至少为 1',
  'is required (body field or If-Match header): 1 for a record not voided':
    '必填（请求体字段或 If-Match 头）：未作废的记录为 1',
  'must be a record id: a whole number from 1': '必须是记录编号：从 1 起的整数',
  'must be printable characters': '必须是可打印字符',
};

/** Reasons with a number or a name in them. */
const PATTERNS: readonly (readonly [RegExp, (m: RegExpExecArray) => string])[] = [
  [/^must be at least (\S+)$/, (m) => `不能小于 ${m[1]}`],
  [/^must be at most (\S+)$/, (m) => `不能大于 ${m[1]}`],
  [/^must have at least (\d+) (?:entry|entries)$/, (m) => `至少 ${m[1]} 项`],
  [/^must have at most (\d+) (?:entry|entries)$/, (m) => `最多 ${m[1]} 项`],
  [/^must have at least (\d+) characters?$/, (m) => `至少 ${m[1]} 个字符`],
  [/^must have at most (\d+) characters?$/, (m) => `最多 ${m[1]} 个字符`],
  [/^must be one of (.+)$/, (m) => `必须是以下之一：${m[1]}`],
  [
    /^must come to at most (\d+) bytes as the box's record: fewer items or shorter item codes$/,
    (m) => `作为一箱的记录最多 ${m[1]} 字节：请减少物料或缩短物料编码`,
  ],
  [/^must be a whole number from (\d+) to (\d+)$/, (m) => `必须是 ${m[1]} 到 ${m[2]} 的整数`],
  [/^must be a whole number from (\d+)$/, (m) => `必须是不小于 ${m[1]} 的整数`],
  [/^has (?:a field|fields) this request does not take: (.+)$/, (m) => `含有本请求不接受的字段：${m[1]}`],
  [
    /^must be a time from the year (\d+) on: check the device's date and time$/,
    (m) => `必须是 ${m[1]} 年及以后的时间：请检查设备的日期和时间`,
  ],
  [
    /^must not be more than (\d+) minutes ahead of the server's clock: check the device's date and time$/,
    (m) => `不能比服务器时间快 ${m[1]} 分钟以上：请检查设备的日期和时间`,
  ],
];

/**
 * A VALIDATION_ERROR reason in Chinese, or undefined for one this table does not know.
 *
 * @example
 * ```ts
 * zhReason('must be at most 2147483647'); // '不能大于 2147483647'
 * ```
 */
export const zhReason = (reason: string | undefined): string | undefined => {
  if (reason === undefined) return undefined;
  const exact = EXACT[reason];
  if (exact !== undefined) return exact;
  for (const [pattern, render] of PATTERNS) {
    const match = pattern.exec(reason);
    if (match !== null) return render(match);
  }
  return undefined;
};
