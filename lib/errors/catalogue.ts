import { BOX_ITEMS_RECORD_BYTES } from '../box/limits.ts';
import { REASONS, renderReason, type Language, type Reason, type Variant } from './reasons.ts';

export type { Language } from './reasons.ts';

export type ErrorDomain = 'box' | 'zongpai' | 'location' | 'order' | 'request' | 'auth' | 'system';

/** What a message may name besides its reason. `value` is what the client sent, already shortened and cleaned. */
interface Subject {
  readonly field?: string;
  readonly value?: string;
  /** FORBIDDEN: the comma-separated groups that may call the route. */
  readonly rule?: string;
  /** The pattern (a regular expression's source) a code must match (INVALID_BOX_NO, ...). */
  readonly pattern?: string;
  readonly limit?: number;
  /** The version a change was based on (VERSION_CONFLICT). */
  readonly version?: number;
  /** The zongpai and the box a mixing refusal is about, and the order or customer the zongpai holds. */
  readonly zongpai?: string;
  readonly box?: string;
  readonly other?: string;
  /** SSCC_EXHAUSTED: the extension digit. */
  readonly extension?: string | number;
  /** ERP_PLAN_INVALID `too_large`: how many items, coming to how many KB. */
  readonly count?: number;
  readonly size?: number;
}

/**
 * Values a message is rendered from: its subject, and either a {@link Reason} (why a value is
 * refused, with the reason's own parameters) or the {@link Variant} of the code's message.
 */
export type MessageParams = Subject & ({ readonly reason?: Variant } | Reason);

type Template = (p: MessageParams) => string;

interface CatalogueEntry {
  readonly status: number;
  readonly domain: ErrorDomain;
  readonly message: Readonly<Record<Language, Template>>;
  /** Seconds a client waits before retrying (`Retry-After`): every 503 says how long. */
  readonly retryAfter?: number;
}

const quoted = (p: MessageParams) => (p.value === undefined ? '' : ` '${p.value}'`);
/**
 * The zongpai and the box a mixing refusal is about (ZONGPAI_MIXES_ORDERS, ZONGPAI_MIXES_CUSTOMERS);
 * its `value` (the box's order or customer) and `other` (the zongpai's) are absent when there is none.
 */
const zongpaiOf = (p: MessageParams) => (p.zongpai === undefined ? '' : ` '${p.zongpai}'`);
const boxOf = (p: MessageParams) => (p.box === undefined ? '' : ` '${p.box}'`);
const fieldName = (p: MessageParams, fallback: string) => p.field ?? fallback;
/**
 * Where in the body a refused value stands, when that is more than its field's name
 * (`records[1].cargo_no`): the Chinese messages name the field in words, so they say the place first.
 */
const placed = (p: MessageParams) => p.field !== undefined && /[.[]/.test(p.field);
const zhAt = (p: MessageParams) => (placed(p) ? `${p.field}：` : '');
/** The same in English, for the messages that do not start with their field's name. */
const enAt = (p: MessageParams) => (placed(p) ? `${p.field}: ` : '');

/** The default pattern of a code field whose shortest is `min` characters. */
const defaultPattern = (min: number): string => `^[A-Z0-9-]{${min},32}$`;

/** Why a code is refused in `language`: its reason, or else the pattern it does not match. */
const codeReason = (p: MessageParams, language: Language, min: number): string =>
  renderReason(p, language) ?? REASONS.pattern[language]({ pattern: p.pattern ?? defaultPattern(min) });

/** The groups of the SPEC, as an operator knows them in Chinese. */
const ZH_GROUPS: Readonly<Record<string, string>> = { operator: '操作员', supervisor: '主管', integration: 'ERP 集成' };

/** FORBIDDEN's `rule`: the comma-separated groups that may call the route. */
const groupsOf = (p: MessageParams): string[] => (p.rule ?? 'supervisor').split(',');

/** `a`, `a or b`, `a, b or c` (`a、b或c`). */
const anyOf = (items: readonly string[], comma: string, or: string): string =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(comma)}${or}${items.at(-1)}`;

const entry = (
  status: number,
  domain: ErrorDomain,
  en: Template,
  zh: Template,
  retryAfter?: number,
): CatalogueEntry => ({
  status,
  domain,
  message: { en, zh },
  ...(retryAfter === undefined ? {} : { retryAfter }),
});

/** A zongpai refusing a box of another order or customer (`ZONGPAI_MIXING`): `what` names which, in each language. */
const mixes = (what: Readonly<Record<Language, string>>): CatalogueEntry =>
  entry(
    409,
    'zongpai',
    (p) =>
      `Zongpai${zongpaiOf(p)} holds boxes ${p.other === undefined ? `with no ${what.en}` : `of ${what.en} '${p.other}'`}: box${boxOf(p)} ${p.value === undefined ? `with no ${what.en}` : `of ${what.en}${quoted(p)}`} may not join it`,
    (p) =>
      `总牌${zongpaiOf(p)}装有${p.other === undefined ? `无${what.zh}` : `${what.zh} '${p.other}' `}的箱：${p.value === undefined ? `无${what.zh}` : `${what.zh}${quoted(p)}`}的箱${boxOf(p)}不能加入`,
  );

/**
 * The error catalogue: every error code the service answers with, its HTTP status, its
 * domain and its message in English and Simplified Chinese.
 *
 * One table instead of one class per error keeps the SPEC's error table and the code
 * side by side; {@link AppError} looks its status up here, so one generic renderer turns
 * any error into a response.
 *
 * @example
 * ```ts
 * errorCatalogue.INVALID_BOX_NO.status; // 400
 * errorCatalogue.INVALID_BOX_NO.message.en({ field: 'box_no', value: 'ab' });
 * ```
 */
export const errorCatalogue = {
  INVALID_BOX_NO: entry(
    400,
    'box',
    (p) => `${fieldName(p, 'box_no')}${quoted(p)} ${codeReason(p, 'en', 4)}`,
    (p) => `${zhAt(p)}箱号${quoted(p)}无效：${codeReason(p, 'zh', 4)}`,
  ),
  INVALID_QUANTITY: entry(
    400,
    'box',
    (p) => `${fieldName(p, 'quantity')}${quoted(p)} must be a whole number from 1 to ${p.limit ?? 99_999}`,
    (p) => `${zhAt(p)}数量${quoted(p)}无效：必须是 1 到 ${p.limit ?? 99_999} 之间的整数`,
  ),
  INVALID_ZONGPAI: entry(
    400,
    'zongpai',
    (p) => `${fieldName(p, 'zongpai_no')}${quoted(p)} ${codeReason(p, 'en', 4)}`,
    (p) => `${zhAt(p)}总牌号${quoted(p)}无效：${codeReason(p, 'zh', 4)}`,
  ),
  INVALID_ITEM_CODE: entry(
    400,
    'box',
    (p) => `${fieldName(p, 'item_code')}${quoted(p)} must be 1-${p.limit ?? 64} printable characters`,
    (p) => `${zhAt(p)}物料编码${quoted(p)}无效：必须是 1-${p.limit ?? 64} 个可打印字符`,
  ),
  INVALID_LOCATION_CODE: entry(
    400,
    'location',
    (p) =>
      `${fieldName(p, 'location_code')}${quoted(p)} ${REASONS.pattern.en({ pattern: p.pattern ?? defaultPattern(2) })}`,
    (p) => `${zhAt(p)}库位编码${quoted(p)}无效：${REASONS.pattern.zh({ pattern: p.pattern ?? defaultPattern(2) })}`,
  ),
  INVALID_ORDER_NO: entry(
    400,
    'order',
    (p) => `${fieldName(p, 'order_no')}${quoted(p)} must be 1-${p.limit ?? 64} printable characters`,
    (p) => `${zhAt(p)}订单号${quoted(p)}无效：必须是 1-${p.limit ?? 64} 个可打印字符`,
  ),
  DUPLICATE_BOX_ITEM: entry(
    400,
    'box',
    (p) => `item_code${quoted(p)} appears more than once in this box`,
    (p) => `物料编码${quoted(p)}在同一箱中重复`,
  ),
  VALIDATION_ERROR: entry(
    400,
    'request',
    (p) => `${fieldName(p, 'request')} ${renderReason(p, 'en') ?? 'is invalid'}`,
    (p) => {
      if (p.field === undefined) return '请求无效';
      const reason = renderReason(p, 'zh');
      return reason === undefined ? `字段 ${p.field} 无效` : `字段 ${p.field} 无效：${reason}`;
    },
  ),
  MALFORMED_JSON: entry(
    400,
    'request',
    () => 'The request body is not valid JSON in UTF-8',
    () => '请求体不是有效的 UTF-8 编码 JSON',
  ),
  UNAUTHORIZED: entry(
    401,
    'auth',
    () => 'Sign in first: the request has no valid token',
    () => '请先登录：请求没有有效的令牌',
  ),
  FORBIDDEN: entry(
    403,
    'auth',
    (p) => `This action needs the group ${anyOf(groupsOf(p), ', ', ' or ')}`,
    (p) => {
      const groups = groupsOf(p).map((g) => `“${ZH_GROUPS[g] ?? g}”`);
      return groups.length === 1
        ? `此操作需要${groups[0]}用户组`
        : `此操作需要以下用户组之一：${anyOf(groups, '、', '或')}`;
    },
  ),
  BOX_NOT_FOUND: entry(
    404,
    'box',
    (p) =>
      p.reason === 'not_boxed'
        ? `Box${quoted(p)} is not boxed; save it first`
        : `Box${quoted(p)} is not in the ERP box plan`,
    (p) => (p.reason === 'not_boxed' ? `箱${quoted(p)}尚未装箱，请先保存装箱` : `箱号${quoted(p)}不在 ERP 装箱计划中`),
  ),
  ZONGPAI_NOT_FOUND: entry(
    404,
    'zongpai',
    (p) => `Zongpai${quoted(p)} is not registered`,
    (p) => `总牌${quoted(p)}未登记`,
  ),
  CARGO_NOT_FOUND: entry(
    404,
    'location',
    (p) => `Cargo${quoted(p)} has never been scanned at a location`,
    (p) => `货物${quoted(p)}从未在任何库位扫描过`,
  ),
  RECORD_NOT_FOUND: entry(
    404,
    'location',
    (p) => `Location record${quoted(p)} is not a scan of this cargo`,
    (p) => `库位记录${quoted(p)}不是此货物的扫描记录`,
  ),
  LOCATION_NOT_FOUND: entry(
    404,
    'location',
    (p) => `${enAt(p)}Location${quoted(p)} is not in the location register`,
    (p) => `${zhAt(p)}库位${quoted(p)}未在库位登记册中登记`,
  ),
  ORDER_NOT_FOUND: entry(
    404,
    'order',
    (p) => `Order${quoted(p)} has no box in the ERP box plan`,
    (p) => `订单${quoted(p)}在 ERP 装箱计划中没有箱`,
  ),
  ROUTE_NOT_FOUND: entry(
    404,
    'request',
    (p) => `No route ${p.value ?? ''}`.trimEnd(),
    (p) => `没有此接口 ${p.value ?? ''}`.trimEnd(),
  ),
  BOX_ALREADY_BOXED: entry(
    409,
    'box',
    (p) => `Box${quoted(p)} is already boxed; change it with PATCH`,
    (p) => `箱${quoted(p)}已装箱；请用修改功能更正`,
  ),
  ZONGPAI_CLOSED: entry(
    409,
    'zongpai',
    (p) => `Zongpai${quoted(p)} is closed`,
    (p) => `总牌${quoted(p)}已关闭`,
  ),
  ZONGPAI_ALREADY_EXISTS: entry(
    409,
    'zongpai',
    (p) => `Zongpai${quoted(p)} is already registered`,
    (p) => `总牌${quoted(p)}已登记`,
  ),
  SSCC_NOT_CONFIGURED: entry(
    409,
    'zongpai',
    () =>
      'SSCC numbers are not set up: GS1_COMPANY_PREFIX must name the company prefix; register the zongpai with its own number',
    () => '未配置 SSCC 编号：需设置 GS1 厂商识别代码 GS1_COMPANY_PREFIX；请用总牌自己的编号登记',
  ),
  SSCC_EXHAUSTED: entry(
    409,
    'zongpai',
    (p) =>
      `Every SSCC serial reference of GS1 company prefix${quoted(p)} with extension digit ${p.extension ?? '?'} is used: configure another extension digit or prefix`,
    (p) =>
      `GS1 厂商识别代码${quoted(p)}（扩展位 ${p.extension ?? '?'}）的 SSCC 序列号已用完：请配置其他扩展位或厂商识别代码`,
  ),
  ZONGPAI_MIXES_ORDERS: mixes({ en: 'order', zh: '订单' }),
  ZONGPAI_MIXES_CUSTOMERS: mixes({ en: 'customer', zh: '客户' }),
  VERSION_CONFLICT: entry(
    409,
    'box',
    (p) =>
      p.reason === 'location_record'
        ? `Location record${quoted(p)} was changed by someone else: version ${p.version ?? '?'} is not the current one (1 until voided, 2 after); reload the history and try again`
        : p.reason === 'location'
          ? `Location${quoted(p)} was changed by someone else: version ${p.version ?? '?'} is not the current one; reload the location and try again`
          : `Box${quoted(p)} was changed by someone else: version ${p.version ?? '?'} is not the current one; reload the box and try again`,
    (p) =>
      p.reason === 'location_record'
        ? `库位记录${quoted(p)}已被他人修改：版本 ${p.version ?? '?'} 不是当前版本（作废前为 1，作废后为 2），请刷新记录后重试`
        : p.reason === 'location'
          ? `库位${quoted(p)}已被他人修改：版本 ${p.version ?? '?'} 不是当前版本，请刷新后重试`
          : `箱${quoted(p)}已被他人修改：版本 ${p.version ?? '?'} 不是当前版本，请刷新后重试`,
  ),
  LOCATION_BLOCKED: entry(
    409,
    'location',
    (p) => `${enAt(p)}Location${quoted(p)} is blocked; put the cargo somewhere else`,
    (p) => `${zhAt(p)}库位${quoted(p)}已封锁，请将货物放到其他库位`,
  ),
  PAYLOAD_TOO_LARGE: entry(
    413,
    'request',
    (p) => `The request body is larger than ${p.limit ?? 262_144} bytes`,
    (p) => `请求体超过 ${p.limit ?? 262_144} 字节`,
  ),
  UNSUPPORTED_MEDIA_TYPE: entry(
    415,
    'request',
    () => 'Send the body as application/json in UTF-8',
    () => '请求体必须是 UTF-8 编码的 application/json',
  ),
  ITEM_NOT_IN_PLAN: entry(
    422,
    'box',
    (p) => `Item${quoted(p)} is not in the ERP plan of this box`,
    (p) => `物料${quoted(p)}不在此箱的 ERP 计划中`,
  ),
  QUANTITY_EXCEEDS_PLAN: entry(
    422,
    'box',
    (p) => `Item${quoted(p)}: quantity is more than the planned ${p.limit ?? ''}`.trimEnd(),
    (p) => `物料${quoted(p)}：数量超过计划数 ${p.limit ?? ''}`.trimEnd(),
  ),
  ERP_PLAN_INVALID: entry(
    422,
    'box',
    (p) =>
      p.reason === 'too_large'
        ? `The ERP plan of box${quoted(p)} has ${p.count ?? ''} items coming to ${p.size ?? ''} KB, more than one answer carries (${p.limit ?? ''} KB); have the ERP plan corrected`
        : p.reason === 'items_too_large'
          ? `The ERP plan of box${quoted(p)} has item codes coming to ${p.limit ?? ''} bytes, more than one box's record carries (${BOX_ITEMS_RECORD_BYTES}); have the ERP plan corrected`
          : p.reason === 'too_many_items'
            ? `The ERP plan of box${quoted(p)} has ${p.limit ?? 'too many'} items, more than one box save holds; have the ERP plan corrected`
            : p.limit === undefined
              ? `The ERP plan of box${quoted(p)} has no line that can be boxed; save the box with its items, or have the ERP plan corrected`
              : `The ERP plans ${p.limit} of item${quoted(p)} for this box, more than one box may hold; save the box with its items, or have the ERP plan corrected`,
    (p) =>
      p.reason === 'too_large'
        ? `箱${quoted(p)}的 ERP 计划有 ${p.count ?? ''} 种物料，共 ${p.size ?? ''} KB，超过一次应答可承载的大小（${p.limit ?? ''} KB）；请 ERP 更正计划`
        : p.reason === 'items_too_large'
          ? `箱${quoted(p)}的 ERP 计划中物料编码共 ${p.limit ?? ''} 字节，超过一箱记录可承载的大小（${BOX_ITEMS_RECORD_BYTES}）；请 ERP 更正计划`
          : p.reason === 'too_many_items'
            ? `箱${quoted(p)}的 ERP 计划有 ${p.limit ?? '过多'} 种物料，超过一次装箱可保存的数量；请 ERP 更正计划`
            : p.limit === undefined
              ? `箱${quoted(p)}的 ERP 计划中没有可装箱的行；请逐项录入物料保存，或请 ERP 更正计划`
              : `ERP 计划此箱装物料${quoted(p)}共 ${p.limit} 件，超过一箱可装的数量；请逐项录入物料保存，或请 ERP 更正计划`,
  ),
  LOCATION_IS_CARGO: entry(
    422,
    'location',
    (p) =>
      `${fieldName(p, 'location_code')}${quoted(p)} is the number of a box or zongpai, not a location: scan the location label`,
    (p) => `${zhAt(p)}库位编码${quoted(p)}是箱号或总牌号，不是库位：请扫描库位标签`,
  ),
  CARGO_IS_LOCATION: entry(
    422,
    'location',
    (p) => `${fieldName(p, 'cargo_no')}${quoted(p)} is a registered location, not cargo: scan the box or zongpai label`,
    (p) => `${zhAt(p)}货物编号${quoted(p)}是已登记的库位，不是货物：请扫描箱或总牌标签`,
  ),
  OFF_SHELF_MISMATCH: entry(
    422,
    'location',
    (p) =>
      `${fieldName(p, 'off_shelf')}: location${quoted(p)} is ${p.reason === 'true' ? 'off the shelf' : 'a shelf'} in the location register; send off_shelf ${p.reason === 'true' ? 'true' : 'false'} or leave it out`,
    (p) =>
      `${zhAt(p)}库位${quoted(p)}在库位登记册中${p.reason === 'true' ? '不是货架' : '是货架'}，与扫描的“不在货架”标记不符：请更正或不填该标记`,
  ),
  TRANSFER_TOO_LARGE: entry(
    422,
    'location',
    (p) =>
      `Location${quoted(p)} holds ${p.limit ?? 'too many'} pieces of cargo, more than the 500 one transfer moves; move them in scans or backlogs`,
    (p) => `库位${quoted(p)}有 ${p.limit ?? '过多'} 件货物，超过一次转移的上限 500 件；请分批扫描转移`,
  ),
  IDEMPOTENCY_KEY_REUSED: entry(
    422,
    'request',
    () => 'This Idempotency-Key was already used for a different request',
    () => '此 Idempotency-Key 已用于另一个请求',
  ),
  THROTTLED: entry(
    429,
    'request',
    () => 'Too many requests; retry shortly',
    () => '请求过多，请稍后重试',
  ),
  INTERNAL_ERROR: entry(
    500,
    'system',
    () => 'Something went wrong on our side; the request was not completed',
    () => '服务器内部错误，请求未完成',
  ),
  DATABASE_UNAVAILABLE: entry(
    503,
    'system',
    () => 'The database is starting or busy; retry after the time in Retry-After',
    () => '数据库正在启动或繁忙，请按 Retry-After 的时间后重试',
    5,
  ),
  ERP_VIEW_UNAVAILABLE: entry(
    503,
    'system',
    () => 'The ERP view of box plans is missing or unreadable; ask operations to check it',
    () => 'ERP 装箱计划视图缺失或不可读，请联系运维检查',
    // Operations must act first: a client retrying every few seconds would not help.
    60,
  ),
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof errorCatalogue;

export const isErrorCode = (value: string): value is ErrorCode => Object.hasOwn(errorCatalogue, value);
