import type { BenchRequest, BenchResponse } from '../support/service.ts';

/** How a request stands to the idempotency store. */
export type KeyUse = 'no key' | 'key, first' | 'key, replay' | 'key, other body';

/** One request of the round-trip walk, and the answer it must get. */
export interface RoundTripStep {
  /** The route table id (infra/routes.ts) the request is served by. */
  readonly route: string;
  readonly case: string;
  readonly key: KeyUse;
  /** The request, or how to make it from the answer to the step before (e.g. a cursor). */
  readonly request: BenchRequest | ((previous: BenchResponse | undefined) => BenchRequest);
  readonly status: number;
}

/** Boxes planned for the walk, beside the demo plan: box number → item → quantity. */
export const WALK_PLAN: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  'RT-BOX-01': { 'SKU-A': 5, 'SKU-B': 2 },
  'RT-BOX-02': { 'SKU-A': 5, 'SKU-B': 2 },
  'RT-BOX-03': { 'SKU-A': 5 },
  'RT-BOX-04': { 'SKU-A': 5 },
  'RT-BOX-05': { 'SKU-C': 1 },
};

const keyed = (key: string) => ({ 'idempotency-key': key });

/** A write three times: without a key, with a new key, and that key's retry. */
const writeThrice = (
  route: string,
  what: string,
  plain: BenchRequest,
  first: BenchRequest,
  status: number,
): RoundTripStep[] => [
  { route, case: what, key: 'no key', request: plain, status },
  { route, case: what, key: 'key, first', request: first, status },
  { route, case: what, key: 'key, replay', request: first, status },
];

/** A request sent once, without an idempotency key. */
const once = (route: string, what: string, request: RoundTripStep['request'], status: number): RoundTripStep => ({
  route,
  case: what,
  key: 'no key',
  request,
  status,
});

/** An operator's GET of `path`, sent once. */
const get = (route: string, what: string, path: string, status: number): RoundTripStep =>
  once(route, what, { method: 'GET', path }, status);

/** A supervisor's read of the change feed, its query made from the answer to the step before. */
const eventsPage = (what: string, query: (previous: BenchResponse | undefined) => string): RoundTripStep =>
  once(
    'EventsList',
    what,
    (previous) => ({ method: 'GET', path: `/v1/events?${query(previous)}`, as: 'supervisor' }),
    200,
  );

/** The page after the one the step before answered (`path` with its `next_cursor`). */
const nextPage = (route: string, path: string): RoundTripStep =>
  once(
    route,
    'next page (cursor)',
    (previous) => ({ method: 'GET', path: `${path}&cursor=${String(previous?.body?.next_cursor)}` }),
    200,
  );

/** A supervisor's close or reopening of the walk's pallets: RT-PLT-1 without a key, RT-PLT-2 with one. */
const palletAction = (route: string, action: 'close' | 'reopen'): RoundTripStep[] =>
  writeThrice(
    route,
    action,
    { method: 'POST', path: `/v1/zongpai/RT-PLT-1/${action}`, as: 'supervisor' },
    { method: 'POST', path: `/v1/zongpai/RT-PLT-2/${action}`, as: 'supervisor', headers: keyed(`rt-${action}-2`) },
    200,
  );

/** The id of the record a step before answered: the first record of a scan, or the voided record. */
const recordId = (previous: BenchResponse | undefined): string =>
  String(previous?.body?.records?.[0]?.id ?? previous?.body?.id);

/** A supervisor's void of version 1 of a record. */
const voidRecord = (
  location: string,
  cargoNo: string,
  id: string,
  headers: Record<string, string> = {},
): BenchRequest => ({
  method: 'DELETE',
  path: `${location}/${cargoNo}/records/${id}`,
  as: 'supervisor',
  headers: { 'if-match': '"1"', ...headers },
});

/** A supervisor's edit or undo of a walk box, based on its `version`. */
const boxChange = (
  method: 'PATCH' | 'DELETE',
  boxNo: string,
  version: number,
  { body, headers = {} }: { body?: unknown; headers?: Record<string, string> } = {},
): BenchRequest => ({
  method,
  path: `/v1/box/${boxNo}`,
  as: 'supervisor',
  headers: { 'if-match': `"${version}"`, ...headers },
  ...(body === undefined ? {} : { body }),
});

const backlog = (n: number) => ({
  records: Array.from({ length: n }, (_, i) => ({
    cargo_no: `RT-CARGO-${String(i % 50).padStart(3, '0')}`,
    location_code: `A-${String(i % 40).padStart(2, '0')}-01`,
    scanned_at: new Date(Date.now() - (n - i) * 1000).toISOString(),
    device_id: 'PDA-01',
  })),
});

/** An import of 500 shelves into the register, all in one zone. */
const registerImport = (zone: string) => ({
  locations: Array.from({ length: 500 }, (_, i) => ({
    location_code: `${zone}-${String(i).padStart(3, '0')}`,
    kind: 'SHELF',
    zone,
  })),
});

/**
 * Every route of the route table, in an order that makes each request meaningful (a zongpai
 * exists before boxes are appended to it, a box is saved before it is edited), with keyed
 * writes sent once and replayed, and the usual refusals.
 */
export const roundTripWalk = (prefix: string): RoundTripStep[] => {
  const location = `/v1/${prefix}/location`;
  const locations = `/v1/${prefix}/locations`;
  /** A supervisor blocks RT-DOCK-1: sent with If-Match it changes the dock, sent again it finds it so. */
  const blockDock: BenchRequest = {
    method: 'PUT',
    path: `${locations}/RT-DOCK-1`,
    as: 'supervisor',
    body: { kind: 'DOCK', zone: 'RT', blocked: true },
  };
  return [
    ...writeThrice(
      'ZongpaiRegister',
      'register',
      { method: 'POST', path: '/v1/zongpai', body: { zongpai_no: 'RT-PLT-1' } },
      { method: 'POST', path: '/v1/zongpai', body: { zongpai_no: 'RT-PLT-2' }, headers: keyed('rt-zp-2') },
      201,
    ),
    once(
      'ZongpaiRegister',
      'already registered',
      { method: 'POST', path: '/v1/zongpai', body: { zongpai_no: 'RT-PLT-1' } },
      409,
    ),
    ...writeThrice(
      'LocationRecord',
      'one scan',
      { method: 'POST', path: location, body: { cargo_no: 'RT-BOX-01', location_code: 'A-01-01' } },
      {
        method: 'POST',
        path: location,
        body: { cargo_no: 'RT-BOX-02', location_code: 'A-01-02' },
        headers: keyed('rt-loc-1'),
      },
      201,
    ),
    ...writeThrice(
      'LocationRecord',
      'backlog of 500',
      { method: 'POST', path: location, body: backlog(500) },
      { method: 'POST', path: location, body: backlog(500), headers: keyed('rt-loc-500') },
      201,
    ),
    once(
      'LocationRecord',
      'pallet scan',
      { method: 'POST', path: location, body: { cargo_no: 'RT-PLT-1', location_code: 'DOCK-1', off_shelf: true } },
      201,
    ),
    once(
      'LocationRecord',
      'bad location code',
      { method: 'POST', path: location, body: { cargo_no: 'RT-BOX-01', location_code: '?' } },
      400,
    ),
    ...writeThrice(
      'LocationPut',
      'register',
      { method: 'PUT', path: `${locations}/RT-DOCK-1`, as: 'supervisor', body: { kind: 'DOCK', zone: 'RT' } },
      {
        method: 'PUT',
        path: `${locations}/RT-DOCK-2`,
        as: 'supervisor',
        body: { kind: 'DOCK', zone: 'RT' },
        headers: keyed('rt-put-2'),
      },
      201,
    ),
    once('LocationPut', 'change (If-Match)', { ...blockDock, headers: { 'if-match': '"1"' } }, 200),
    once('LocationPut', 'unchanged', blockDock, 200),
    once(
      'LocationPut',
      'stale version',
      { method: 'PUT', path: `${locations}/RT-DOCK-1`, as: 'supervisor', body: { kind: 'DOCK', version: 1 } },
      409,
    ),
    once(
      'LocationPut',
      'a zongpai number',
      { method: 'PUT', path: `${locations}/RT-PLT-1`, as: 'supervisor', body: { kind: 'FLOOR' } },
      422,
    ),
    ...writeThrice(
      'LocationImport',
      'import of 500',
      { method: 'POST', path: locations, as: 'supervisor', body: registerImport('RT-A') },
      {
        method: 'POST',
        path: locations,
        as: 'supervisor',
        body: registerImport('RT-B'),
        headers: keyed('rt-import-b'),
      },
      200,
    ),
    get('LocationInfo', 'registered', `${locations}/RT-DOCK-1`, 200),
    get('LocationInfo', 'not registered', `${locations}/RT-NOPE-1`, 404),
    get('LocationList', 'first page of 20, one zone', `${locations}?zone=RT-A&limit=20`, 200),
    nextPage('LocationList', `${locations}?zone=RT-A&limit=20`),
    get('LocationList', 'only blocked', `${locations}?blocked=true`, 200),
    get('BoxInfo', 'planned box', '/v1/box/info?box_no=RT-BOX-01', 200),
    get('BoxInfo', 'unknown box', '/v1/box/info?box_no=RT-NOPE-1', 404),
    ...writeThrice(
      'BoxSave',
      'save',
      {
        method: 'POST',
        path: '/v1/box',
        body: {
          box_no: 'RT-BOX-01',
          zongpai_no: 'RT-PLT-1',
          items: [
            { item_code: 'SKU-A', quantity: 5 },
            { item_code: 'SKU-B', quantity: 2 },
          ],
        },
      },
      {
        method: 'POST',
        path: '/v1/box',
        body: { box_no: 'RT-BOX-02', zongpai_no: 'RT-PLT-1', items: [{ item_code: 'SKU-A', quantity: 4 }] },
        headers: keyed('rt-save-2'),
      },
      201,
    ),
    once(
      'BoxSave',
      'already boxed',
      {
        method: 'POST',
        path: '/v1/box',
        body: { box_no: 'RT-BOX-01', zongpai_no: 'RT-PLT-1', items: [{ item_code: 'SKU-A', quantity: 1 }] },
      },
      409,
    ),
    once(
      'BoxSave',
      'over the plan',
      {
        method: 'POST',
        path: '/v1/box',
        body: { box_no: 'RT-BOX-05', zongpai_no: 'RT-PLT-1', items: [{ item_code: 'SKU-C', quantity: 9 }] },
      },
      422,
    ),
    ...writeThrice(
      'BoxSimpleSave',
      'one-scan save',
      { method: 'POST', path: '/v1/box/simple', body: { box_no: 'RT-BOX-03', zongpai_no: 'RT-PLT-2' } },
      {
        method: 'POST',
        path: '/v1/box/simple',
        body: { box_no: 'RT-BOX-04', zongpai_no: 'RT-PLT-2' },
        headers: keyed('rt-simple-4'),
      },
      201,
    ),
    get('LocationGet', 'box on a scanned pallet', `${location}/RT-BOX-01`, 200),
    get('LocationGet', 'first page of 5', `${location}/RT-CARGO-001?limit=5`, 200),
    nextPage('LocationGet', `${location}/RT-CARGO-001?limit=5`),
    get('LocationGet', 'never scanned', `${location}/RT-NOPE-1`, 404),
    get('LocationContent', 'first page of 1', `${locations}/A-10-01/cargo?limit=1`, 200),
    nextPage('LocationContent', `${locations}/A-10-01/cargo?limit=1`),
    get('LocationContent', 'pallet with its boxes', `${locations}/DOCK-1/cargo`, 200),
    get('LocationContent', 'nothing there', `${locations}/EMPTY-1/cargo`, 200),
    once(
      'LocationTransfer',
      'loose cargo to a dock',
      { method: 'POST', path: `${locations}/A-10-01/transfer`, body: { to_location_code: 'RT-DOCK-2' } },
      201,
    ),
    once(
      'LocationTransfer',
      'nothing there',
      { method: 'POST', path: `${locations}/EMPTY-1/transfer`, body: { to_location_code: 'RT-DOCK-2' } },
      201,
    ),
    once(
      'LocationTransfer',
      'to a blocked location',
      { method: 'POST', path: `${locations}/DOCK-1/transfer`, body: { to_location_code: 'RT-DOCK-1' } },
      409,
    ),
    once(
      'LocationRecord',
      'a wrong scan',
      { method: 'POST', path: location, body: { cargo_no: 'RT-VOID-1', location_code: 'WRONG-1' } },
      201,
    ),
    once('LocationVoid', 'void', (previous) => voidRecord(location, 'RT-VOID-1', recordId(previous)), 200),
    once(
      'LocationVoid',
      'record of another cargo',
      (previous) => voidRecord(location, 'RT-VOID-2', recordId(previous)),
      404,
    ),
    once(
      'LocationRecord',
      'a wrong scan',
      { method: 'POST', path: location, body: { cargo_no: 'RT-VOID-2', location_code: 'WRONG-2' } },
      201,
    ),
    ...(['key, first', 'key, replay'] as const).map((key): RoundTripStep => ({
      route: 'LocationVoid',
      case: 'void',
      key,
      status: 200,
      request: (previous) => voidRecord(location, 'RT-VOID-2', recordId(previous), keyed('rt-void-2')),
    })),
    once(
      'LocationVoid',
      'already voided (stale version)',
      (previous) => voidRecord(location, 'RT-VOID-2', recordId(previous)),
      409,
    ),
    ...writeThrice(
      'BoxEdit',
      'move',
      boxChange('PATCH', 'RT-BOX-01', 1, { body: { zongpai_no: 'RT-PLT-2' } }),
      boxChange('PATCH', 'RT-BOX-02', 1, {
        headers: keyed('rt-edit-2'),
        body: {
          items: [
            { item_code: 'SKU-A', quantity: 5 },
            { item_code: 'SKU-B', quantity: 1 },
          ],
        },
      }),
      200,
    ),
    once('BoxEdit', 'stale version', boxChange('PATCH', 'RT-BOX-01', 1, { body: { zongpai_no: 'RT-PLT-1' } }), 409),
    get('BoxHistory', 'saved and moved', '/v1/box/RT-BOX-01/history', 200),
    ...writeThrice(
      'BoxUndo',
      'undo',
      boxChange('DELETE', 'RT-BOX-01', 2),
      boxChange('DELETE', 'RT-BOX-02', 2, { headers: keyed('rt-undo-2') }),
      200,
    ),
    get('ZongpaiGet', 'with boxes', '/v1/zongpai/RT-PLT-2', 200),
    get('ZongpaiGet', 'unknown', '/v1/zongpai/RT-NOPE-1', 404),
    ...palletAction('ZongpaiClose', 'close'),
    once(
      'BoxSimpleSave',
      'onto a closed zongpai',
      { method: 'POST', path: '/v1/box/simple', body: { box_no: 'RT-BOX-05', zongpai_no: 'RT-PLT-1' } },
      409,
    ),
    get('ZongpaiPackingList', 'closed, with boxes', '/v1/zongpai/RT-PLT-2/packing-list', 200),
    get('ZongpaiPackingList', 'unknown', '/v1/zongpai/RT-NOPE-1/packing-list', 404),
    get('ZongpaiLabel', 'ZPL, with boxes', '/v1/zongpai/RT-PLT-2/label', 200),
    get('ZongpaiLabel', 'SVG', '/v1/zongpai/RT-PLT-2/label?format=svg', 200),
    get('ZongpaiLabel', 'unknown', '/v1/zongpai/RT-NOPE-1/label', 404),
    get('BoxLabel', 'ZPL, boxed', '/v1/box/RT-BOX-03/label', 200),
    get('BoxLabel', 'SVG, not boxed', '/v1/box/RT-BOX-01/label?format=svg', 200),
    get('BoxLabel', 'unknown', '/v1/box/RT-NOPE-1/label', 404),
    get('ZongpaiList', 'first page of 1', '/v1/zongpai?limit=1', 200),
    nextPage('ZongpaiList', '/v1/zongpai?limit=1'),
    get('ZongpaiList', 'only CLOSED', '/v1/zongpai?status=CLOSED', 200),
    get('OrderGet', 'order of 5 boxes', '/v1/orders/SO-RT', 200),
    get('OrderGet', 'unknown order', '/v1/orders/SO-NOPE', 404),
    ...palletAction('ZongpaiReopen', 'reopen'),
    eventsPage('first page of 100', () => 'after=0&limit=100'),
    eventsPage('next page', (previous) => `after=${String(previous?.body?.next_after)}&limit=100`),
    eventsPage('past the end', () => 'after=100000000'),
    {
      route: 'ZongpaiRegister',
      case: 'key reused',
      key: 'key, other body',
      request: { method: 'POST', path: '/v1/zongpai', body: { zongpai_no: 'RT-PLT-9' }, headers: keyed('rt-zp-2') },
      status: 422,
    },
    get('OpenApi', 'document', '/v1/openapi.json', 200),
  ];
};
