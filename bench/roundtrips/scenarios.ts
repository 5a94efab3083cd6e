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

const backlog = (n: number) => ({
  records: Array.from({ length: n }, (_, i) => ({
    cargo_no: `RT-CARGO-${String(i % 50).padStart(3, '0')}`,
    location_code: `A-${String(i % 40).padStart(2, '0')}-01`,
    scanned_at: new Date(Date.now() - (n - i) * 1000).toISOString(),
    device_id: 'PDA-01',
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
  return [
    ...writeThrice(
      'ZongpaiRegister',
      'register',
      { method: 'POST', path: '/v1/zongpai', body: { zongpai_no: 'RT-PLT-1' } },
      { method: 'POST', path: '/v1/zongpai', body: { zongpai_no: 'RT-PLT-2' }, headers: keyed('rt-zp-2') },
      201,
    ),
    {
      route: 'ZongpaiRegister',
      case: 'already registered',
      key: 'no key',
      request: { method: 'POST', path: '/v1/zongpai', body: { zongpai_no: 'RT-PLT-1' } },
      status: 409,
    },
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
    {
      route: 'LocationRecord',
      case: 'pallet scan',
      key: 'no key',
      request: {
        method: 'POST',
        path: location,
        body: { cargo_no: 'RT-PLT-1', location_code: 'DOCK-1', off_shelf: true },
      },
      status: 201,
    },
    {
      route: 'LocationRecord',
      case: 'bad location code',
      key: 'no key',
      request: { method: 'POST', path: location, body: { cargo_no: 'RT-BOX-01', location_code: '?' } },
      status: 400,
    },
    {
      route: 'BoxInfo',
      case: 'planned box',
      key: 'no key',
      request: { method: 'GET', path: '/v1/box/info?box_no=RT-BOX-01' },
      status: 200,
    },
    {
      route: 'BoxInfo',
      case: 'unknown box',
      key: 'no key',
      request: { method: 'GET', path: '/v1/box/info?box_no=RT-NOPE-1' },
      status: 404,
    },
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
    {
      route: 'BoxSave',
      case: 'already boxed',
      key: 'no key',
      request: {
        method: 'POST',
        path: '/v1/box',
        body: { box_no: 'RT-BOX-01', zongpai_no: 'RT-PLT-1', items: [{ item_code: 'SKU-A', quantity: 1 }] },
      },
      status: 409,
    },
    {
      route: 'BoxSave',
      case: 'over the plan',
      key: 'no key',
      request: {
        method: 'POST',
        path: '/v1/box',
        body: { box_no: 'RT-BOX-05', zongpai_no: 'RT-PLT-1', items: [{ item_code: 'SKU-C', quantity: 9 }] },
      },
      status: 422,
    },
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
    {
      route: 'LocationGet',
      case: 'box on a scanned pallet',
      key: 'no key',
      request: { method: 'GET', path: `${location}/RT-BOX-01` },
      status: 200,
    },
    {
      route: 'LocationGet',
      case: 'first page of 5',
      key: 'no key',
      request: { method: 'GET', path: `${location}/RT-CARGO-001?limit=5` },
      status: 200,
    },
    {
      route: 'LocationGet',
      case: 'next page (cursor)',
      key: 'no key',
      status: 200,
      request: (previous) => ({
        method: 'GET',
        path: `${location}/RT-CARGO-001?limit=5&cursor=${String(previous?.body?.next_cursor)}`,
      }),
    },
    {
      route: 'LocationGet',
      case: 'never scanned',
      key: 'no key',
      request: { method: 'GET', path: `${location}/RT-NOPE-1` },
      status: 404,
    },
    {
      route: 'LocationContent',
      case: 'first page of 1',
      key: 'no key',
      request: { method: 'GET', path: `${locations}/A-10-01/cargo?limit=1` },
      status: 200,
    },
    {
      route: 'LocationContent',
      case: 'next page (cursor)',
      key: 'no key',
      status: 200,
      request: (previous) => ({
        method: 'GET',
        path: `${locations}/A-10-01/cargo?limit=1&cursor=${String(previous?.body?.next_cursor)}`,
      }),
    },
    {
      route: 'LocationContent',
      case: 'pallet with its boxes',
      key: 'no key',
      request: { method: 'GET', path: `${locations}/DOCK-1/cargo` },
      status: 200,
    },
    {
      route: 'LocationContent',
      case: 'nothing there',
      key: 'no key',
      request: { method: 'GET', path: `${locations}/EMPTY-1/cargo` },
      status: 200,
    },
    {
      route: 'LocationRecord',
      case: 'a wrong scan',
      key: 'no key',
      request: { method: 'POST', path: location, body: { cargo_no: 'RT-VOID-1', location_code: 'WRONG-1' } },
      status: 201,
    },
    {
      route: 'LocationVoid',
      case: 'void',
      key: 'no key',
      status: 200,
      request: (previous) => voidRecord(location, 'RT-VOID-1', recordId(previous)),
    },
    {
      route: 'LocationVoid',
      case: 'record of another cargo',
      key: 'no key',
      status: 404,
      request: (previous) => voidRecord(location, 'RT-VOID-2', recordId(previous)),
    },
    {
      route: 'LocationRecord',
      case: 'a wrong scan',
      key: 'no key',
      request: { method: 'POST', path: location, body: { cargo_no: 'RT-VOID-2', location_code: 'WRONG-2' } },
      status: 201,
    },
    {
      route: 'LocationVoid',
      case: 'void',
      key: 'key, first',
      status: 200,
      request: (previous) => voidRecord(location, 'RT-VOID-2', recordId(previous), keyed('rt-void-2')),
    },
    {
      route: 'LocationVoid',
      case: 'void',
      key: 'key, replay',
      status: 200,
      request: (previous) => voidRecord(location, 'RT-VOID-2', recordId(previous), keyed('rt-void-2')),
    },
    {
      route: 'LocationVoid',
      case: 'already voided (stale version)',
      key: 'no key',
      status: 409,
      request: (previous) => voidRecord(location, 'RT-VOID-2', recordId(previous)),
    },
    ...writeThrice(
      'BoxEdit',
      'move',
      {
        method: 'PATCH',
        path: '/v1/box/RT-BOX-01',
        as: 'supervisor',
        headers: { 'if-match': '"1"' },
        body: { zongpai_no: 'RT-PLT-2' },
      },
      {
        method: 'PATCH',
        path: '/v1/box/RT-BOX-02',
        as: 'supervisor',
        headers: { 'if-match': '"1"', ...keyed('rt-edit-2') },
        body: {
          items: [
            { item_code: 'SKU-A', quantity: 5 },
            { item_code: 'SKU-B', quantity: 1 },
          ],
        },
      },
      200,
    ),
    {
      route: 'BoxEdit',
      case: 'stale version',
      key: 'no key',
      request: {
        method: 'PATCH',
        path: '/v1/box/RT-BOX-01',
        as: 'supervisor',
        headers: { 'if-match': '"1"' },
        body: { zongpai_no: 'RT-PLT-1' },
      },
      status: 409,
    },
    {
      route: 'BoxHistory',
      case: 'saved and moved',
      key: 'no key',
      request: { method: 'GET', path: '/v1/box/RT-BOX-01/history' },
      status: 200,
    },
    ...writeThrice(
      'BoxUndo',
      'undo',
      { method: 'DELETE', path: '/v1/box/RT-BOX-01', as: 'supervisor', headers: { 'if-match': '"2"' } },
      {
        method: 'DELETE',
        path: '/v1/box/RT-BOX-02',
        as: 'supervisor',
        headers: { 'if-match': '"2"', ...keyed('rt-undo-2') },
      },
      200,
    ),
    {
      route: 'ZongpaiGet',
      case: 'with boxes',
      key: 'no key',
      request: { method: 'GET', path: '/v1/zongpai/RT-PLT-2' },
      status: 200,
    },
    {
      route: 'ZongpaiGet',
      case: 'unknown',
      key: 'no key',
      request: { method: 'GET', path: '/v1/zongpai/RT-NOPE-1' },
      status: 404,
    },
    ...writeThrice(
      'ZongpaiClose',
      'close',
      { method: 'POST', path: '/v1/zongpai/RT-PLT-1/close', as: 'supervisor' },
      { method: 'POST', path: '/v1/zongpai/RT-PLT-2/close', as: 'supervisor', headers: keyed('rt-close-2') },
      200,
    ),
    {
      route: 'BoxSimpleSave',
      case: 'onto a closed zongpai',
      key: 'no key',
      request: { method: 'POST', path: '/v1/box/simple', body: { box_no: 'RT-BOX-05', zongpai_no: 'RT-PLT-1' } },
      status: 409,
    },
    {
      route: 'ZongpaiPackingList',
      case: 'closed, with boxes',
      key: 'no key',
      request: { method: 'GET', path: '/v1/zongpai/RT-PLT-2/packing-list' },
      status: 200,
    },
    {
      route: 'ZongpaiPackingList',
      case: 'unknown',
      key: 'no key',
      request: { method: 'GET', path: '/v1/zongpai/RT-NOPE-1/packing-list' },
      status: 404,
    },
    {
      route: 'ZongpaiList',
      case: 'first page of 1',
      key: 'no key',
      request: { method: 'GET', path: '/v1/zongpai?limit=1' },
      status: 200,
    },
    {
      route: 'ZongpaiList',
      case: 'next page (cursor)',
      key: 'no key',
      status: 200,
      request: (previous) => ({
        method: 'GET',
        path: `/v1/zongpai?limit=1&cursor=${String(previous?.body?.next_cursor)}`,
      }),
    },
    {
      route: 'ZongpaiList',
      case: 'only CLOSED',
      key: 'no key',
      request: { method: 'GET', path: '/v1/zongpai?status=CLOSED' },
      status: 200,
    },
    {
      route: 'OrderGet',
      case: 'order of 5 boxes',
      key: 'no key',
      request: { method: 'GET', path: '/v1/orders/SO-RT' },
      status: 200,
    },
    {
      route: 'OrderGet',
      case: 'unknown order',
      key: 'no key',
      request: { method: 'GET', path: '/v1/orders/SO-NOPE' },
      status: 404,
    },
    ...writeThrice(
      'ZongpaiReopen',
      'reopen',
      { method: 'POST', path: '/v1/zongpai/RT-PLT-1/reopen', as: 'supervisor' },
      { method: 'POST', path: '/v1/zongpai/RT-PLT-2/reopen', as: 'supervisor', headers: keyed('rt-reopen-2') },
      200,
    ),
    {
      route: 'EventsList',
      case: 'first page of 100',
      key: 'no key',
      request: { method: 'GET', path: '/v1/events?after=0&limit=100', as: 'supervisor' },
      status: 200,
    },
    {
      route: 'EventsList',
      case: 'next page',
      key: 'no key',
      status: 200,
      request: (previous) => ({
        method: 'GET',
        path: `/v1/events?after=${String(previous?.body?.next_after)}&limit=100`,
        as: 'supervisor',
      }),
    },
    {
      route: 'EventsList',
      case: 'past the end',
      key: 'no key',
      request: { method: 'GET', path: '/v1/events?after=100000000', as: 'supervisor' },
      status: 200,
    },
    {
      route: 'ZongpaiRegister',
      case: 'key reused',
      key: 'key, other body',
      request: { method: 'POST', path: '/v1/zongpai', body: { zongpai_no: 'RT-PLT-9' }, headers: keyed('rt-zp-2') },
      status: 422,
    },
    {
      route: 'OpenApi',
      case: 'document',
      key: 'no key',
      request: { method: 'GET', path: '/v1/openapi.json' },
      status: 200,
    },
  ];
};
