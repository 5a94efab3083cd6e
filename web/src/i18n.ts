import type { ErrorCode } from './api-types.ts';

/**
 * The app's words in English and Simplified Chinese, and for every error code the service can
 * answer, what the operator should do (docs/HANDHELD.md's table). A `Record` over the generated
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
  signInNewPassword: 'This account still has its temporary password.',
  signInNewPasswordDetail: 'Ask a supervisor to set a permanent password for it, then sign in with that.',
  signInChallenge: 'This account asks for a step the handheld does not offer ({step}).',
  signInChallengeDetail: 'Ask a supervisor to check the account in the user pool.',
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
  keyboard: 'Keyboard',
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
  retrying: 'No answer yet, trying again…',
  scanNotTaken: '{code} not taken: still saving',
  scanAgainWhenSaved: 'Scan it again when the save is answered.',
  scanNotTakenLoading: '{code} not taken: the box plan is still loading',
  scanAgainWhenLoaded: 'Scan it again when the plan is shown.',
  nothingCounted: 'Nothing counted: not saved',
  countOneItem: 'Count at least one item, then scan the zongpai.',
  notSaved: 'Not saved: no network.',
  scanZongpaiAgain: 'Scan the zongpai again to save it (it is never saved twice).',
  tapAgain: 'Tap it again when the network is back (it is never done twice).',
  emptyEdit: 'Every quantity is 0: not changed',
  emptyEditUndo: 'To empty the box, use Undo boxing.',
  deviceClock: "This device's date and time are wrong",
  scansRestamped:
    "Its scans were kept and sent with the service's time. Set the device's date and time right, or tell the supervisor.",
  requestId: 'Request id',
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
  'waiting#one': '{n} scan waiting to upload',
  allUploaded: 'All scans uploaded',
  waitingOthers: '({n} more wait for the user who scanned them to sign in)',
  signOutWaiting: '{n} scans not uploaded yet',
  'signOutWaiting#one': '{n} scan not uploaded yet',
  signOutWaitingDetail: 'They upload when you sign in again. Tap again to sign out anyway.',
  confirmSignOut: 'Tap again to sign out',
  offline: 'Offline',
  refusedScans: 'Refused scans',
  dismiss: 'Dismiss',
  queued: '{cargo} at {location}',
  scanRefused: '{cargo} at {location} refused',
  moreRefused: '(and {n} more: see Locate)',
  boxCount: '{n} boxes',
  'boxCount#one': '{n} box',
  details: 'Details',
  locationSwitched: 'Location {location}',
  kindSHELF: 'Shelf',
  kindSTAGING: 'Staging',
  kindDOCK: 'Dock',
  kindFLOOR: 'Floor',
  kindQUARANTINE: 'Quarantine',
  zone: 'zone {zone}',
  unregistered: 'Not in the location register',
  registerSize: '{n} locations known on this device',
  'registerSize#one': '{n} location known on this device',
  notLocatedYet: 'Not scanned at a location yet',
  onZongpai: 'On zongpai {zongpai}',
  locateTheZongpai: 'Scan the zongpai at its location (Locate) to place its boxes.',
  notCargo: '{code} is a location, not cargo',
  current: 'Now at',
  noCurrent: 'Nowhere: every scan was voided',
  via: 'via {via}',
  history: 'History',
  by: 'by {who}',
  register: 'Register',
  registered: 'Zongpai {zongpai} registered',
  notRegisteredYet: '{zongpai} is not registered yet',
  tapRegister: 'Tap Register {zongpai} to register it.',
  close: 'Close',
  closed: 'Closed',
  open: 'Open',
  boxes: 'Boxes',
  total: 'Total',
  edit: 'Edit',
  move: 'Move to zongpai',
  scanNewZongpai: 'Scan the new zongpai',
  editToMove: 'Tap Edit to move the box.',
  undo: 'Undo boxing',
  undone: 'Box {box} undone',
  edited: 'Box {box} changed',
  version: 'Version',
  statusBoxed: 'Boxed',
  statusNotBoxed: 'Not boxed',
  actionSave: 'Saved',
  actionEdit: 'Edited',
  actionUndo: 'Undone',
  confirmUndo: 'Tap again to undo',
  supervisorOnly: 'Only supervisors can do this.',
  network: 'No network',
  errorCode: 'Code',
  scanOk: 'OK',
  scanOrder: 'Scan or type an order number',
  boxesBoxed: '{boxed} of {n} boxes boxed',
  'boxesBoxed#one': '{boxed} of {n} box boxed',
  packed: '{percent} packed',
  orderDone: 'Order fully boxed',
  notLocated: 'Not located',
  moreBoxes: 'More boxes ({shown} of {total} shown)',
  packingList: 'Packing list',
  itemTotals: 'Totals per item',
  printLabel: 'Print label',
  printPackingList: 'Print packing list',
  print: 'Print',
  printDone: 'Done',
  preparingPrint: 'Preparing the print…',
  printedAt: 'Printed {when}',
  itemName: 'Name',
  newSsccPallet: 'New SSCC pallet',
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
  confirmClose: 'Tap again to close',
  confirmReopen: 'Tap again to reopen',
  notInPlanRefused: '{item} is not in this box: not counted',
  notInPlanWhat: 'Put it aside: only the items of the plan go in this box.',
  overPlanRefused: '{item}: all {planned} are counted: not counted',
  overPlanWhat: 'Put this piece aside: the plan has no more of it.',
  notInPlanCounted: '{item} is not in the plan: counted +1',
  notInPlanCountedWhat: 'This warehouse takes items beyond the plan: check it belongs in this box.',
  overPlanCounted: '{item}: more than the {planned} planned: counted +1',
  overPlanCountedWhat: 'This warehouse takes pieces beyond the plan: check the count.',
  oneLess: 'One less {item}',
  shortQuestion: '{n} of {m} pieces: save short?',
  shortMissing: 'Missing: {lines}',
  saveShort: 'Save short ›',
  savedShort: 'Box {box} saved short on {zongpai}: {n} of {m} pieces',
  scannedAgain: '{zongpai} again: box {box} is already saved on it',
  movedFromTo: 'moved {from} → {to}',
  editedWhat: 'Box {box} changed: {changes}',
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
  signInNewPassword: '此账号仍在使用临时密码。',
  signInNewPasswordDetail: '请主管为其设置正式密码，然后用正式密码登录。',
  signInChallenge: '此账号要求手持终端不支持的验证步骤（{step}）。',
  signInChallengeDetail: '请主管在用户池中检查此账号。',
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
  keyboard: '键盘',
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
  retrying: '尚未收到回复，正在重试…',
  scanNotTaken: '{code} 未接收：仍在保存',
  scanAgainWhenSaved: '保存有回复后请再扫一次。',
  scanNotTakenLoading: '{code} 未接收：箱计划仍在加载',
  scanAgainWhenLoaded: '箱计划显示后请再扫一次。',
  nothingCounted: '没有清点任何物料：未保存',
  countOneItem: '请至少清点一件物料，然后扫描总牌。',
  notSaved: '未保存：没有网络。',
  scanZongpaiAgain: '请再扫一次总牌以保存（不会重复保存）。',
  tapAgain: '网络恢复后请再点一次（不会重复执行）。',
  emptyEdit: '所有数量都是 0：未修改',
  emptyEditUndo: '要清空此箱，请使用“撤销装箱”。',
  deviceClock: '本设备的日期和时间不正确',
  scansRestamped: '扫描已保留，并按服务器时间上传。请调整设备的日期和时间，或告诉主管。',
  requestId: '请求编号',
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
  'waiting#one': '{n} 条扫描等待上传',
  allUploaded: '扫描已全部上传',
  waitingOthers: '（另有 {n} 条等待扫描人登录后上传）',
  signOutWaiting: '还有 {n} 条扫描未上传',
  'signOutWaiting#one': '还有 {n} 条扫描未上传',
  signOutWaitingDetail: '您再次登录后会上传。仍要退出请再点一次。',
  confirmSignOut: '再点一次以退出',
  offline: '离线',
  refusedScans: '被拒绝的扫描',
  dismiss: '知道了',
  queued: '{cargo} 在 {location}',
  scanRefused: '{cargo} 在 {location} 被拒绝',
  moreRefused: '（另有 {n} 条：见定位页面）',
  boxCount: '{n} 箱',
  'boxCount#one': '{n} 箱',
  details: '详情',
  locationSwitched: '库位 {location}',
  kindSHELF: '货架',
  kindSTAGING: '暂存区',
  kindDOCK: '码头',
  kindFLOOR: '地面',
  kindQUARANTINE: '隔离区',
  zone: '{zone} 区',
  unregistered: '不在库位登记中',
  registerSize: '本设备已知 {n} 个库位',
  'registerSize#one': '本设备已知 {n} 个库位',
  notLocatedYet: '尚未在库位扫描',
  onZongpai: '在总牌 {zongpai} 上',
  locateTheZongpai: '请在总牌所在库位扫描它（定位），其箱子随之定位。',
  notCargo: '{code} 是库位，不是货物',
  current: '当前位置',
  noCurrent: '无当前位置：所有扫描均已作废',
  via: '经由 {via}',
  history: '历史',
  by: '操作人 {who}',
  register: '登记',
  registered: '总牌 {zongpai} 已登记',
  notRegisteredYet: '{zongpai} 尚未登记',
  tapRegister: '点“登记 {zongpai}”即可登记。',
  close: '关闭',
  closed: '已关闭',
  open: '开放',
  boxes: '箱',
  total: '合计',
  edit: '修改',
  move: '移到总牌',
  scanNewZongpai: '扫描新总牌',
  editToMove: '点“修改”以移动该箱。',
  undo: '撤销装箱',
  undone: '箱 {box} 已撤销',
  edited: '箱 {box} 已修改',
  version: '版本',
  statusBoxed: '已装箱',
  statusNotBoxed: '未装箱',
  actionSave: '保存',
  actionEdit: '修改',
  actionUndo: '撤销',
  confirmUndo: '再点一次以撤销',
  supervisorOnly: '只有主管可以执行此操作。',
  network: '没有网络',
  errorCode: '代码',
  scanOk: '好',
  scanOrder: '扫描或输入订单号',
  boxesBoxed: '{n} 箱中已装 {boxed} 箱',
  'boxesBoxed#one': '{n} 箱中已装 {boxed} 箱',
  packed: '已装 {percent}',
  orderDone: '订单已全部装箱',
  notLocated: '未定位',
  moreBoxes: '更多箱子（已显示 {shown}/{total}）',
  packingList: '装箱单',
  itemTotals: '按物料合计',
  printLabel: '打印标签',
  printPackingList: '打印装箱单',
  print: '打印',
  printDone: '完成',
  preparingPrint: '正在准备打印…',
  printedAt: '打印时间 {when}',
  itemName: '名称',
  newSsccPallet: '新建 SSCC 总牌',
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
  confirmClose: '再点一次以关闭',
  confirmReopen: '再点一次以重新开放',
  notInPlanRefused: '{item} 不在此箱计划内：未计数',
  notInPlanWhat: '请放到一边：此箱只装计划内的物料。',
  overPlanRefused: '{item}：计划的 {planned} 件已全部清点：未计数',
  overPlanWhat: '请把这件放到一边：计划里没有更多了。',
  notInPlanCounted: '{item} 不在计划内：已计数 +1',
  notInPlanCountedWhat: '本仓库允许计划外的物料：请确认它属于此箱。',
  overPlanCounted: '{item}：超过计划的 {planned} 件：已计数 +1',
  overPlanCountedWhat: '本仓库允许超出计划的数量：请核对数量。',
  oneLess: '{item} 减一',
  shortQuestion: '{n} / {m} 件：按不足保存？',
  shortMissing: '缺少：{lines}',
  saveShort: '按不足保存 ›',
  savedShort: '箱 {box} 已按不足保存到 {zongpai}：{n} / {m} 件',
  scannedAgain: '再次扫描 {zongpai}：箱 {box} 已保存在上面',
  movedFromTo: '从 {from} 移到 {to}',
  editedWhat: '箱 {box} 已修改：{changes}',
};

/** The app's own refusals, said as the service's are: a scan time the device's clock got wrong. */
export type RefusalCode = ErrorCode | 'DEVICE_CLOCK';

/**
 * What the operator does about each refusal (docs/HANDHELD.md, "What each error means for the
 * operator"): shown under its headline, so it says what to do and does not say again what happened.
 */
const enWhatToDo: Record<RefusalCode, string> = {
  INVALID_BOX_NO: 'Scan the box label again.',
  INVALID_ZONGPAI: 'Scan the zongpai label again (a box label cannot be a zongpai).',
  INVALID_LOCATION_CODE: 'Scan the location label again.',
  INVALID_ITEM_CODE: 'Scan the item again.',
  INVALID_ORDER_NO: 'Scan or type the order number again.',
  INVALID_QUANTITY: 'Type a whole number from 1 to 99 999.',
  DUPLICATE_BOX_ITEM: 'Merge its lines into one.',
  VALIDATION_ERROR: 'Report it to the supervisor.',
  MALFORMED_JSON: 'Report it to the supervisor.',
  UNAUTHORIZED: 'Sign in again.',
  FORBIDDEN: 'Ask a supervisor to do it.',
  BOX_NOT_FOUND: 'The box is not in the ERP plan (or not boxed): check the label.',
  ZONGPAI_NOT_FOUND: 'Register the zongpai first (Pallet screen).',
  CARGO_NOT_FOUND: 'Scan it at its location on Locate first.',
  ORDER_NOT_FOUND: 'The ERP plans no box for this order: check the number as the ERP writes it.',
  RECORD_NOT_FOUND: 'Scan the cargo again to see its history as it is now.',
  ROUTE_NOT_FOUND: 'The app and the service do not match: report it to the supervisor.',
  BOX_ALREADY_BOXED: 'A supervisor can edit or undo it.',
  ZONGPAI_CLOSED: 'Use another zongpai.',
  ZONGPAI_ALREADY_EXISTS: 'Just use it.',
  SSCC_NOT_CONFIGURED: 'Register the zongpai with its own label.',
  SSCC_EXHAUSTED: 'Register the zongpai with its own label and tell the supervisor.',
  ZONGPAI_MIXES_ORDERS: 'Put this box on another zongpai.',
  ZONGPAI_MIXES_CUSTOMERS: 'Put this box on another zongpai.',
  VERSION_CONFLICT: 'Scan it again and redo the change.',
  PAYLOAD_TOO_LARGE: 'Report it to the supervisor.',
  UNSUPPORTED_MEDIA_TYPE: 'Report it to the supervisor.',
  ITEM_NOT_IN_PLAN: 'Check the goods.',
  QUANTITY_EXCEEDS_PLAN: 'Check the goods.',
  ERP_PLAN_INVALID: 'Box it item by item (Box screen) and tell the ERP team.',
  IDEMPOTENCY_KEY_REUSED: 'The app mixed up two requests: report it to the supervisor.',
  THROTTLED: 'Too many requests: try again in a moment.',
  INTERNAL_ERROR: 'Try again; if it persists, report the request id.',
  DATABASE_UNAVAILABLE: 'Scan again (or tap again) in a few seconds.',
  ERP_VIEW_UNAVAILABLE: 'Tell the supervisor.',
  LOCATION_NOT_FOUND: 'Scan a registered location label, or ask the supervisor to register it.',
  LOCATION_BLOCKED: 'Put the cargo somewhere else.',
  LOCATION_IS_CARGO: 'Scan the location label.',
  CARGO_IS_LOCATION: 'Scan the box or zongpai label.',
  OFF_SHELF_MISMATCH: 'Clear the Off shelf switch and scan again.',
  TRANSFER_TOO_LARGE: 'Scan it in smaller groups.',
  DEVICE_CLOCK: "Set the device's date and time right, or tell the supervisor.",
};

const zhWhatToDo: Record<RefusalCode, string> = {
  INVALID_BOX_NO: '请重新扫描箱标签。',
  INVALID_ZONGPAI: '请重新扫描总牌标签（箱标签不能当总牌）。',
  INVALID_LOCATION_CODE: '请重新扫描库位标签。',
  INVALID_ITEM_CODE: '请重新扫描物料。',
  INVALID_ORDER_NO: '请重新扫描或输入。',
  INVALID_QUANTITY: '请输入 1 到 99 999 的整数。',
  DUPLICATE_BOX_ITEM: '请把这几行合并为一行。',
  VALIDATION_ERROR: '请报告主管。',
  MALFORMED_JSON: '请报告主管。',
  UNAUTHORIZED: '请重新登录。',
  FORBIDDEN: '请主管来操作。',
  BOX_NOT_FOUND: '该箱不在 ERP 计划中（或尚未装箱）：请检查标签。',
  ZONGPAI_NOT_FOUND: '请先登记总牌（总牌页面）。',
  CARGO_NOT_FOUND: '请先到定位页面，扫描它所处的库位和它本身。',
  ORDER_NOT_FOUND: 'ERP 中没有该订单的箱：请按 ERP 的写法核对订单号。',
  RECORD_NOT_FOUND: '请重新扫描该货物，查看最新历史。',
  ROUTE_NOT_FOUND: '应用与服务不匹配：请报告主管。',
  BOX_ALREADY_BOXED: '主管可以修改或撤销。',
  ZONGPAI_CLOSED: '请使用另一个总牌。',
  ZONGPAI_ALREADY_EXISTS: '直接使用即可。',
  SSCC_NOT_CONFIGURED: '请用总牌自己的标签登记。',
  SSCC_EXHAUSTED: '请用总牌自己的标签登记并告知主管。',
  ZONGPAI_MIXES_ORDERS: '请把此箱放到另一个总牌。',
  ZONGPAI_MIXES_CUSTOMERS: '请把此箱放到另一个总牌。',
  VERSION_CONFLICT: '请重新扫描后再修改。',
  PAYLOAD_TOO_LARGE: '请报告主管。',
  UNSUPPORTED_MEDIA_TYPE: '请报告主管。',
  ITEM_NOT_IN_PLAN: '请检查货物。',
  QUANTITY_EXCEEDS_PLAN: '请检查货物。',
  ERP_PLAN_INVALID: '请在装箱页面逐个物料装箱，并通知 ERP 团队。',
  IDEMPOTENCY_KEY_REUSED: '应用混淆了两个请求：请报告主管。',
  THROTTLED: '请求过多：请稍后再试。',
  INTERNAL_ERROR: '请重试；如仍出现，请报告请求编号。',
  DATABASE_UNAVAILABLE: '请过几秒再扫描（或再点一次）。',
  ERP_VIEW_UNAVAILABLE: '请通知主管。',
  LOCATION_NOT_FOUND: '请扫描已登记的库位标签，或请主管登记此库位。',
  LOCATION_BLOCKED: '请将货物放到其他库位。',
  LOCATION_IS_CARGO: '请扫描库位标签。',
  CARGO_IS_LOCATION: '请扫描箱或总牌标签。',
  OFF_SHELF_MISMATCH: '请关闭这个开关后重新扫描。',
  TRANSFER_TOO_LARGE: '请分批扫描。',
  DEVICE_CLOCK: '请调整设备的日期和时间，或告诉主管。',
};

/** What happened, as the operator says it: the headline of each refusal (never a field name or a pattern). */
const enHeadline: Record<RefusalCode, string> = {
  INVALID_BOX_NO: 'This is not a box number',
  INVALID_ZONGPAI: 'This is not a zongpai number',
  INVALID_LOCATION_CODE: 'This is not a location code',
  INVALID_ITEM_CODE: 'This is not an item code',
  INVALID_ORDER_NO: 'This is not an order number',
  INVALID_QUANTITY: 'This quantity cannot be',
  DUPLICATE_BOX_ITEM: 'An item is listed twice',
  VALIDATION_ERROR: 'The app sent something wrong',
  MALFORMED_JSON: 'The app sent something wrong',
  UNAUTHORIZED: 'You are signed out',
  FORBIDDEN: 'Only a supervisor can do this',
  BOX_NOT_FOUND: 'This box is unknown',
  ZONGPAI_NOT_FOUND: 'This zongpai is not registered',
  CARGO_NOT_FOUND: 'Never scanned at a location',
  ORDER_NOT_FOUND: 'This order is unknown',
  RECORD_NOT_FOUND: 'That scan is gone',
  ROUTE_NOT_FOUND: 'The app needs an update',
  BOX_ALREADY_BOXED: 'This box is already boxed',
  ZONGPAI_CLOSED: 'This zongpai is closed',
  ZONGPAI_ALREADY_EXISTS: 'This zongpai is already registered',
  SSCC_NOT_CONFIGURED: 'No SSCC here',
  SSCC_EXHAUSTED: 'No SSCC left',
  ZONGPAI_MIXES_ORDERS: 'Another order is on this zongpai',
  ZONGPAI_MIXES_CUSTOMERS: "Another customer's boxes are on this zongpai",
  VERSION_CONFLICT: 'Changed by someone else',
  PAYLOAD_TOO_LARGE: 'Too much at once',
  UNSUPPORTED_MEDIA_TYPE: 'The app sent something wrong',
  ITEM_NOT_IN_PLAN: 'This item is not planned for this box',
  QUANTITY_EXCEEDS_PLAN: 'More than planned',
  ERP_PLAN_INVALID: 'This box cannot be boxed in one scan',
  IDEMPOTENCY_KEY_REUSED: 'Nothing was changed',
  THROTTLED: 'The service is busy',
  INTERNAL_ERROR: 'Something went wrong',
  DATABASE_UNAVAILABLE: 'The service is starting up',
  ERP_VIEW_UNAVAILABLE: 'The ERP plan cannot be read',
  LOCATION_NOT_FOUND: 'This location is not registered',
  LOCATION_BLOCKED: 'This location is blocked',
  LOCATION_IS_CARGO: 'This is cargo, not a location',
  CARGO_IS_LOCATION: 'This is a location, not cargo',
  OFF_SHELF_MISMATCH: 'Off shelf does not match this location',
  TRANSFER_TOO_LARGE: 'Too much cargo to move at once',
  DEVICE_CLOCK: "This device's clock is wrong",
};

const zhHeadline: Record<RefusalCode, string> = {
  INVALID_BOX_NO: '这不是箱号',
  INVALID_ZONGPAI: '这不是总牌号',
  INVALID_LOCATION_CODE: '这不是库位码',
  INVALID_ITEM_CODE: '这不是物料码',
  INVALID_ORDER_NO: '这不是订单号',
  INVALID_QUANTITY: '数量不对',
  DUPLICATE_BOX_ITEM: '同一物料列了两次',
  VALIDATION_ERROR: '应用发送的数据有误',
  MALFORMED_JSON: '应用发送的数据有误',
  UNAUTHORIZED: '您已退出登录',
  FORBIDDEN: '只有主管可以执行',
  BOX_NOT_FOUND: '不认识这个箱号',
  ZONGPAI_NOT_FOUND: '总牌未登记',
  CARGO_NOT_FOUND: '从未在库位扫描过',
  ORDER_NOT_FOUND: '不认识这个订单',
  RECORD_NOT_FOUND: '该扫描记录已不存在',
  ROUTE_NOT_FOUND: '应用需要更新',
  BOX_ALREADY_BOXED: '该箱已装箱',
  ZONGPAI_CLOSED: '总牌已关闭',
  ZONGPAI_ALREADY_EXISTS: '总牌已登记',
  SSCC_NOT_CONFIGURED: '此处没有 SSCC',
  SSCC_EXHAUSTED: 'SSCC 已用完',
  ZONGPAI_MIXES_ORDERS: '总牌上有其他订单',
  ZONGPAI_MIXES_CUSTOMERS: '总牌上有其他客户的箱',
  VERSION_CONFLICT: '已被他人修改',
  PAYLOAD_TOO_LARGE: '一次发送太多',
  UNSUPPORTED_MEDIA_TYPE: '应用发送的数据有误',
  ITEM_NOT_IN_PLAN: '该物料不在此箱计划内',
  QUANTITY_EXCEEDS_PLAN: '超出计划',
  ERP_PLAN_INVALID: '该箱不能一扫装箱',
  IDEMPOTENCY_KEY_REUSED: '没有任何更改',
  THROTTLED: '服务繁忙',
  INTERNAL_ERROR: '出错了',
  DATABASE_UNAVAILABLE: '服务正在启动',
  ERP_VIEW_UNAVAILABLE: '无法读取 ERP 计划',
  LOCATION_NOT_FOUND: '该库位未登记',
  LOCATION_BLOCKED: '该库位已封锁',
  LOCATION_IS_CARGO: '这是货物，不是库位',
  CARGO_IS_LOCATION: '这是库位，不是货物',
  OFF_SHELF_MISMATCH: '“不在货架”与该库位不符',
  TRANSFER_TOO_LARGE: '货物太多，无法一次转移',
  DEVICE_CLOCK: '本设备时间不正确',
};

const words: Record<Lang, Words> = { en, zh };
const headlines: Record<Lang, Record<RefusalCode, string>> = { en: enHeadline, zh: zhHeadline };
const whatToDo: Record<Lang, Record<RefusalCode, string>> = { en: enWhatToDo, zh: zhWhatToDo };

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

/** The interface's language, set by the app as it renders: dates and numbers are written in it. */
let interfaceLang: Lang = 'en';
export const setInterfaceLang = (lang: Lang): void => {
  interfaceLang = lang;
};

/**
 * The locale that writes dates and numbers for a language: the device's own when it speaks that
 * language (en-GB stays en-GB), else the language's usual one.
 */
export const localeOf = (lang: Lang, device: string | undefined = globalThis.navigator?.language): string =>
  device?.toLowerCase().startsWith(lang) === true ? device : lang === 'zh' ? 'zh-CN' : 'en-US';

const pluralRules = new Map<string, Intl.PluralRules>();
const numberFormats = new Map<string, Intl.NumberFormat>();
const cached = <T>(map: Map<string, T>, locale: string, make: (locale: string) => T): T => {
  const found = map.get(locale);
  if (found !== undefined) return found;
  const made = make(locale);
  map.set(locale, made);
  return made;
};

/**
 * A phrase in a language, its `{name}` places filled; numbers written as the language's locale
 * writes them, and a phrase with a count `n` in the plural form that count takes there
 * (`waiting#one` for 1 in English; Chinese has one form).
 */
export const translate = (lang: Lang, key: Key, vars: Record<string, string | number> = {}): string => {
  const locale = localeOf(lang);
  const n = vars.n;
  const form =
    typeof n === 'number' ? `${key}#${cached(pluralRules, locale, (l) => new Intl.PluralRules(l)).select(n)}` : key;
  const phrase = (words[lang] as Record<string, string>)[form] ?? words[lang][key];
  return phrase.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = vars[name];
    return value === undefined ? `{${name}}` : typeof value === 'number' ? number(value, lang) : value;
  });
};

/**
 * A number as the interface's language writes it (`12,000` in English, in the device's locale
 * where it speaks that language).
 */
export const number = (value: number, lang: Lang = interfaceLang): string =>
  cached(numberFormats, localeOf(lang), (l) => new Intl.NumberFormat(l)).format(value);

const percentFormats = new Map<string, Intl.NumberFormat>();
/** A share of 0 to 1 as a percentage the language's way (`38%` in English and in Chinese). */
export const percent = (share: number, lang: Lang = interfaceLang): string =>
  cached(percentFormats, localeOf(lang), (l) => new Intl.NumberFormat(l, { style: 'percent' })).format(share);

/** Two sentences, as the language joins them. */
export const sentences = (lang: Lang, first: string, second: string): string =>
  `${first}${lang === 'zh' ? '。' : '. '}${second}`;

/** What happened, in the operator's words, for an error code; an unknown code (a newer service) gets the generic one. */
export const headlineFor = (lang: Lang, code: string): string =>
  headlines[lang][code as RefusalCode] ?? headlines[lang].INTERNAL_ERROR;

/** The instruction for an error code; unknown codes (a newer service) get the generic one. */
export const instructionFor = (lang: Lang, code: string): string =>
  whatToDo[lang][code as RefusalCode] ?? whatToDo[lang].INTERNAL_ERROR;

const HAN = /\p{Script=Han}/u;
/** A message about a field of the request (`records[0].cargo_no …`): its path means nothing to an operator. */
const FIELD_PATH = /^[a-z][a-z0-9_]*(?:\[\d+\]|\.[a-z])/;

/**
 * Refusals whose service message speaks to a developer (PATCH, Idempotency-Key, Retry-After,
 * tokens, routes, request bodies, versions): the operator reads the app's words for the code.
 */
const API_TALK: ReadonlySet<string> = new Set<RefusalCode>([
  'BOX_ALREADY_BOXED',
  'IDEMPOTENCY_KEY_REUSED',
  'DATABASE_UNAVAILABLE',
  'VALIDATION_ERROR',
  'MALFORMED_JSON',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'UNAUTHORIZED',
  'ROUTE_NOT_FOUND',
  'VERSION_CONFLICT',
]);

/**
 * What happened, for a refusal shown with its instruction: the server's message, which the
 * service wrote in the device's language; API Gateway's own refusals are English only, so in
 * Chinese the app says what happened in its own words for the code (the headline) instead, as it
 * does for a message that names a field of the request or speaks to a developer.
 */
export const messageFor = (lang: Lang, error: { error_code: string; message: string }): string =>
  (lang === 'zh' && !HAN.test(error.message)) || FIELD_PATH.test(error.message) || API_TALK.has(error.error_code)
    ? headlineFor(lang, error.error_code)
    : error.message;

const dateFormats = new Map<string, Intl.DateTimeFormat>();
/** When something happened, short, as the interface's language (in the device's locale where it speaks it) writes dates and times. */
export const when = (iso: string, lang: Lang = interfaceLang): string =>
  cached(
    dateFormats,
    localeOf(lang),
    (l) => new Intl.DateTimeFormat(l, { dateStyle: 'short', timeStyle: 'short' }),
  ).format(new Date(iso));
