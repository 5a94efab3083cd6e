import type { ErrorCode } from './api-types.ts';

/**
 * The app's words in English and Simplified Chinese, and for every error code the service can
 * answer, what the operator should do (the README's table). A `Record` over the generated
 * error codes: a code added to the API fails the type check until both languages say it.
 */
export type Lang = 'en' | 'zh';

const en = {
  app: 'Cargo',
  signIn: 'Sign in',
  signOut: 'Sign out',
  user: 'User name',
  password: 'Password',
  wrongPassword: 'Wrong user name or password.',
  signInOffline: 'No network: sign-in needs the network.',
  language: '中文',
  box: 'Box',
  oneScan: 'One scan',
  locate: 'Locate',
  find: 'Find',
  pallet: 'Pallet',
  supervisor: 'Supervisor',
  order: 'Order',
  scanBox: 'Scan a box',
  scanItem: 'Scan an item',
  scanZongpai: 'Scan the zongpai',
  scanLocation: 'Scan a location',
  scanCargo: 'Scan cargo',
  scanAny: 'Scan a box or zongpai',
  camera: 'Camera',
  closeCamera: 'Close camera',
  item: 'Item',
  planned: 'Plan',
  boxed: 'Boxed',
  quantity: 'Qty',
  complete: 'Complete',
  short: 'Short',
  over: 'Over plan',
  notInPlan: 'Not in plan',
  toZongpai: 'Zongpai ›',
  save: 'Save',
  saving: 'Saving…',
  retrying: 'No answer yet, retrying with the same key…',
  notSaved: 'Not saved: no network. Save again to retry (same key).',
  saved: 'Saved',
  savedOnZongpai: 'Box {box} saved on {zongpai}',
  newBox: 'Next box',
  plan: 'Plan',
  order_: 'Order',
  customer: 'Customer',
  status: 'Status',
  alreadyBoxed: 'Already boxed on {zongpai}',
  location: 'Location',
  offShelf: 'Off shelf',
  onShelf: 'On shelf',
  waiting: '{n} scans waiting to upload',
  allUploaded: 'All scans uploaded',
  offline: 'Offline',
  refusedScans: 'Refused scans',
  dismiss: 'Dismiss',
  queued: '{cargo} at {location}',
  current: 'Now at',
  noCurrent: 'Nowhere: every scan was voided',
  via: 'via {via}',
  history: 'History',
  by: 'by {who}',
  register: 'Register',
  registered: 'Zongpai {zongpai} registered',
  close: 'Close',
  closed: 'Closed',
  open: 'Open',
  boxes: 'Boxes',
  total: 'Total',
  edit: 'Edit',
  move: 'Move to zongpai',
  undo: 'Undo boxing',
  undone: 'Box {box} undone',
  edited: 'Box {box} changed',
  version: 'Version',
  confirmUndo: 'Tap again to undo',
  supervisorOnly: 'Only supervisors can do this.',
  network: 'No network',
  errorCode: 'Code',
  scanOk: 'OK',
  scanOrder: 'Scan or type an order number',
  boxesBoxed: '{boxed} of {total} boxes boxed',
  packed: '{percent} % packed',
  orderDone: 'Order fully boxed',
  notLocated: 'Not located',
  packingList: 'Packing list',
  itemTotals: 'Totals per item',
  pallets: 'Zongpais',
  openOnly: 'Open only',
  reopen: 'Reopen',
  reopened: '{zongpai} reopened',
  whatIsHere: 'What is here',
  nothingHere: 'Nothing is here.',
  hereCount: '{n} at {location}',
  more: 'More',
  voidScan: 'Void',
  confirmVoid: 'Tap again to void',
  voided: 'Voided by {who}',
  scanVoided: 'Scan of {cargo} at {location} voided',
} as const;

export type Key = keyof typeof en;
type Words = Record<Key, string>;

const zh: Words = {
  app: '货物',
  signIn: '登录',
  signOut: '退出',
  user: '用户名',
  password: '密码',
  wrongPassword: '用户名或密码错误。',
  signInOffline: '没有网络：登录需要网络。',
  language: 'English',
  box: '装箱',
  oneScan: '一扫装箱',
  locate: '定位',
  find: '查找',
  pallet: '总牌',
  supervisor: '主管',
  order: '订单',
  scanBox: '扫描箱号',
  scanItem: '扫描物料',
  scanZongpai: '扫描总牌',
  scanLocation: '扫描库位',
  scanCargo: '扫描货物',
  scanAny: '扫描箱号或总牌',
  camera: '相机',
  closeCamera: '关闭相机',
  item: '物料',
  planned: '计划',
  boxed: '已装',
  quantity: '数量',
  complete: '齐套',
  short: '不足',
  over: '超出计划',
  notInPlan: '不在计划内',
  toZongpai: '总牌 ›',
  save: '保存',
  saving: '正在保存…',
  retrying: '尚未收到回复，正在用同一键重试…',
  notSaved: '未保存：没有网络。再次保存即可重试（同一键）。',
  saved: '已保存',
  savedOnZongpai: '箱 {box} 已保存到 {zongpai}',
  newBox: '下一箱',
  plan: '计划',
  order_: '订单',
  customer: '客户',
  status: '状态',
  alreadyBoxed: '已装箱于 {zongpai}',
  location: '库位',
  offShelf: '不在货架',
  onShelf: '在货架',
  waiting: '{n} 条扫描等待上传',
  allUploaded: '扫描已全部上传',
  offline: '离线',
  refusedScans: '被拒绝的扫描',
  dismiss: '知道了',
  queued: '{cargo} 在 {location}',
  current: '当前位置',
  noCurrent: '无当前位置：所有扫描均已作废',
  via: '经由 {via}',
  history: '历史',
  by: '操作人 {who}',
  register: '登记',
  registered: '总牌 {zongpai} 已登记',
  close: '关闭',
  closed: '已关闭',
  open: '开放',
  boxes: '箱',
  total: '合计',
  edit: '修改',
  move: '移到总牌',
  undo: '撤销装箱',
  undone: '箱 {box} 已撤销',
  edited: '箱 {box} 已修改',
  version: '版本',
  confirmUndo: '再点一次以撤销',
  supervisorOnly: '只有主管可以执行此操作。',
  network: '没有网络',
  errorCode: '代码',
  scanOk: '好',
  scanOrder: '扫描或输入订单号',
  boxesBoxed: '{total} 箱中已装 {boxed} 箱',
  packed: '已装 {percent} %',
  orderDone: '订单已全部装箱',
  notLocated: '未定位',
  packingList: '装箱单',
  itemTotals: '按物料合计',
  pallets: '总牌',
  openOnly: '只看开放的',
  reopen: '重新开放',
  reopened: '{zongpai} 已重新开放',
  whatIsHere: '这里有什么',
  nothingHere: '这里没有货物。',
  hereCount: '{location} 有 {n} 件',
  more: '更多',
  voidScan: '作废',
  confirmVoid: '再点一次以作废',
  voided: '已由 {who} 作废',
  scanVoided: '{cargo} 在 {location} 的扫描已作废',
};

/** What the operator does about each refusal (README, "What each error means for the operator"). */
const enWhatToDo: Record<ErrorCode, string> = {
  INVALID_BOX_NO: 'Not a valid box number: scan the box label again.',
  INVALID_ZONGPAI: 'Not a valid zongpai number (a box label is not a zongpai): scan the zongpai again.',
  INVALID_LOCATION_CODE: 'Not a valid location code: scan the location label again.',
  INVALID_ITEM_CODE: 'Not a valid item code: scan the item again.',
  INVALID_ORDER_NO: 'Not a valid order number: scan or type it again.',
  INVALID_QUANTITY: 'A quantity must be a whole number from 1 to 99 999.',
  DUPLICATE_BOX_ITEM: 'The same item is listed twice: merge the lines.',
  VALIDATION_ERROR: 'The app sent something malformed: report it to the supervisor.',
  MALFORMED_JSON: 'The app sent something malformed: report it to the supervisor.',
  UNAUTHORIZED: 'Sign in again.',
  FORBIDDEN: 'This needs a supervisor.',
  BOX_NOT_FOUND: 'The box is not in the ERP plan (or not boxed): check the label.',
  ZONGPAI_NOT_FOUND: 'Register the zongpai first (Pallet screen).',
  CARGO_NOT_FOUND: 'This cargo was never scanned at a location.',
  ORDER_NOT_FOUND: 'The ERP plans no box for this order: check the number as the ERP writes it.',
  RECORD_NOT_FOUND: "That scan is not in this cargo's history: reload it.",
  ROUTE_NOT_FOUND: 'The app and the service do not match: report it to the supervisor.',
  BOX_ALREADY_BOXED: 'The box is already boxed: a supervisor can edit or undo it.',
  ZONGPAI_CLOSED: 'The zongpai is closed: use another one.',
  ZONGPAI_ALREADY_EXISTS: 'The zongpai is already registered: just use it.',
  VERSION_CONFLICT: 'Someone changed the box meanwhile: load it again and redo the change.',
  PAYLOAD_TOO_LARGE: 'The app sent too much at once: report it to the supervisor.',
  UNSUPPORTED_MEDIA_TYPE: 'The app sent something malformed: report it to the supervisor.',
  ITEM_NOT_IN_PLAN: 'An item is not planned for this box: check the goods.',
  QUANTITY_EXCEEDS_PLAN: 'More than planned: check the goods.',
  ERP_PLAN_INVALID: 'This box cannot be boxed in one scan: box it item by item and tell the ERP team.',
  IDEMPOTENCY_KEY_REUSED: 'The app reused a key: report it to the supervisor.',
  THROTTLED: 'Too many requests: try again in a moment.',
  INTERNAL_ERROR: 'Try again; if it persists, report the request id.',
  DATABASE_UNAVAILABLE: 'The service is waking up: the app retries by itself.',
  ERP_VIEW_UNAVAILABLE: 'The ERP plan cannot be read: tell the supervisor.',
};

const zhWhatToDo: Record<ErrorCode, string> = {
  INVALID_BOX_NO: '箱号无效：请重新扫描箱标签。',
  INVALID_ZONGPAI: '总牌号无效（箱标签不是总牌）：请重新扫描总牌。',
  INVALID_LOCATION_CODE: '库位码无效：请重新扫描库位标签。',
  INVALID_ITEM_CODE: '物料码无效：请重新扫描物料。',
  INVALID_ORDER_NO: '订单号无效：请重新扫描或输入。',
  INVALID_QUANTITY: '数量必须是 1 到 99 999 的整数。',
  DUPLICATE_BOX_ITEM: '同一物料出现两次：请合并。',
  VALIDATION_ERROR: '应用发送了格式错误的数据：请报告主管。',
  MALFORMED_JSON: '应用发送了格式错误的数据：请报告主管。',
  UNAUTHORIZED: '请重新登录。',
  FORBIDDEN: '此操作需要主管。',
  BOX_NOT_FOUND: '该箱不在 ERP 计划中（或尚未装箱）：请检查标签。',
  ZONGPAI_NOT_FOUND: '请先登记总牌（总牌页面）。',
  CARGO_NOT_FOUND: '该货物从未在库位扫描过。',
  ORDER_NOT_FOUND: 'ERP 中没有该订单的箱：请按 ERP 的写法核对订单号。',
  RECORD_NOT_FOUND: '该扫描记录不在此货物的历史中：请重新加载。',
  ROUTE_NOT_FOUND: '应用与服务不匹配：请报告主管。',
  BOX_ALREADY_BOXED: '该箱已装箱：主管可以修改或撤销。',
  ZONGPAI_CLOSED: '总牌已关闭：请使用另一个。',
  ZONGPAI_ALREADY_EXISTS: '总牌已登记：直接使用即可。',
  VERSION_CONFLICT: '有人同时修改了该箱：请重新加载后再修改。',
  PAYLOAD_TOO_LARGE: '应用一次发送的数据过多：请报告主管。',
  UNSUPPORTED_MEDIA_TYPE: '应用发送了格式错误的数据：请报告主管。',
  ITEM_NOT_IN_PLAN: '有物料不在该箱计划内：请检查货物。',
  QUANTITY_EXCEEDS_PLAN: '超出计划数量：请检查货物。',
  ERP_PLAN_INVALID: '该箱不能一扫装箱：请逐个物料装箱并通知 ERP 团队。',
  IDEMPOTENCY_KEY_REUSED: '应用重复使用了键：请报告主管。',
  THROTTLED: '请求过多：请稍后再试。',
  INTERNAL_ERROR: '请重试；如仍出现，请报告请求编号。',
  DATABASE_UNAVAILABLE: '服务正在启动：应用会自动重试。',
  ERP_VIEW_UNAVAILABLE: '无法读取 ERP 计划：请通知主管。',
};

const words: Record<Lang, Words> = { en, zh };
const whatToDo: Record<Lang, Record<ErrorCode, string>> = { en: enWhatToDo, zh: zhWhatToDo };

/**
 * The device's language: the one chosen in the app, else the browser's.
 *
 * @example
 * ```ts
 * deviceLang('zh-CN') // 'zh'
 * ```
 */
export const deviceLang = (browser: string | undefined, chosen?: string | null): Lang =>
  chosen === 'en' || chosen === 'zh' ? chosen : browser?.toLowerCase().startsWith('zh') === true ? 'zh' : 'en';

/** The `Accept-Language` the API gets for a language. */
export const acceptLanguage = (lang: Lang) => (lang === 'zh' ? 'zh-CN, zh;q=0.9, en;q=0.5' : 'en');

export const translate = (lang: Lang, key: Key, vars: Record<string, string | number> = {}): string =>
  words[lang][key].replace(/\{(\w+)\}/g, (_, name: string) => String(vars[name] ?? `{${name}}`));

/** The instruction for an error code; unknown codes (a newer service) get the generic one. */
export const instructionFor = (lang: Lang, code: string): string =>
  whatToDo[lang][code as ErrorCode] ?? whatToDo[lang].INTERNAL_ERROR;

const HAN = /\p{Script=Han}/u;

/**
 * The message to show for a refusal: the server's, which the service wrote in the device's
 * language; API Gateway's own refusals are English only, so in Chinese the app shows its own
 * words for the code instead.
 */
export const messageFor = (lang: Lang, error: { error_code: string; message: string }): string =>
  lang === 'zh' && !HAN.test(error.message) ? instructionFor('zh', error.error_code) : error.message;

/** When something happened, short, as the device's own locale writes dates and times. */
export const when = (iso: string): string =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });
