import * as z from 'zod/mini';
import type { Config } from '../config.ts';
import type { ErrorCode } from '../errors/catalogue.ts';
import { makeBoxSchemas } from '../box/schemas.ts';
import { makeLocationSchemas } from '../location/schemas.ts';
import { EventsResponse, FEED_LIMIT_DEFAULT, FEED_LIMIT_MAX, feedQuery } from '../events/feed.ts';
import type { Fields } from '../rules/fields.ts';
import { makeZongpaiSchemas } from '../zongpai/schemas.ts';
import { documented, LIMIT_DOC } from './fields.ts';
import { CargoLocationResponse, LocationContentResponse, LocationRecordsResponse, versionedWriteHeaders, VoidedRecordResponse, writeHeaders } from './common.ts';
import { makeOrderSchemas } from '../order/schemas.ts';
import { BoxHistoryResponse, BoxInfoResponse, BoxSaveResponse, OpenApiDocumentResponse, OrderResponse, PackingListResponse, ZongpaiListResponse, ZongpaiResponse } from './responses.ts';

/**
 * What the API reference says about one route, beside its row of the route table (method,
 * path, access): its request, its success answer and the codes of its own rules. The codes
 * every route of its kind shares (sign-in, JSON body, Idempotency-Key, throttling) are added
 * from the route table by `routeErrorCodes`.
 */
export interface OperationDoc {
  readonly summary: string;
  readonly description?: string;
  readonly request?: {
    readonly path?: z.ZodMiniType;
    readonly query?: z.ZodMiniType;
    readonly headers?: z.ZodMiniObject;
    readonly body?: { readonly schema: z.ZodMiniType; readonly required: boolean };
  };
  readonly status: number;
  readonly response: { readonly schema: z.ZodMiniType; readonly description: string };
  readonly errors: readonly ErrorCode[];
}

/** Request schemas get their component name here, not in `lib`, so handlers carry no documentation weight. */
const named = <S extends z.ZodMiniType>(schema: S, id: string): S => {
  z.globalRegistry.add(schema, { id });
  return schema;
};

/** Routes that read the ERP view (ERP_BOX_VIEW) answer when it is missing or unreadable. */
const ERP_VIEW: readonly ErrorCode[] = ['ERP_VIEW_UNAVAILABLE'];
const DATABASE: readonly ErrorCode[] = ['DATABASE_UNAVAILABLE'];

/**
 * The documentation of every route, by route id (`infra/routes.ts`), built from the same Zod
 * schemas the handlers validate with.
 *
 * @example
 * ```ts
 * const docs = operationDocs(config, makeFields(config));
 * docs.ZongpaiRegister.errors; // ['INVALID_ZONGPAI', 'ZONGPAI_ALREADY_EXISTS', 'DATABASE_UNAVAILABLE']
 * ```
 */
export const operationDocs = (config: Config, fields: Fields) => {
  const location = makeLocationSchemas(config, fields);
  documented(feedQuery.shape.after, { type: 'integer', minimum: 0, default: 0, description: 'The sequence read up to: the `next_after` of the previous page.' });
  documented(feedQuery.shape.limit, { type: 'integer', minimum: 1, maximum: FEED_LIMIT_MAX, default: FEED_LIMIT_DEFAULT, description: 'Events per page.' });
  documented(location.getQuery.shape.limit, LIMIT_DOC);
  const box = makeBoxSchemas(config, fields);
  const zongpai = makeZongpaiSchemas(fields);
  documented(zongpai.listQuery.shape.limit, LIMIT_DOC);
  const order = makeOrderSchemas(fields);
  const boxChange: readonly ErrorCode[] = ['INVALID_BOX_NO', 'VALIDATION_ERROR', 'BOX_NOT_FOUND', 'VERSION_CONFLICT', 'ZONGPAI_CLOSED', ...DATABASE, ...ERP_VIEW];
  const items: readonly ErrorCode[] = ['INVALID_ITEM_CODE', 'INVALID_QUANTITY', 'DUPLICATE_BOX_ITEM', 'ITEM_NOT_IN_PLAN', 'QUANTITY_EXCEEDS_PLAN'];

  return {
    LocationRecord: {
      summary: 'Record where cargo is',
      description: `One scan, or a backlog \`{"records": [...]}\` of 1-${config.locationRecordsMax} scans stored all or none (a refusal names the index of each bad record). \`off_shelf: true\` registers a location for cargo that is not on a shelf.`,
      request: { headers: writeHeaders, body: { schema: z.union([named(location.scan, 'LocationScan'), named(location.backlog, 'LocationBacklog')]), required: true } },
      status: 201,
      response: { schema: LocationRecordsResponse, description: 'The stored records' },
      errors: ['INVALID_BOX_NO', 'INVALID_LOCATION_CODE', 'VALIDATION_ERROR', ...DATABASE],
    },
    LocationGet: {
      summary: 'Where a box or zongpai is, and where it was',
      description: 'The current location (of a box on a zongpai: the newer of its own last record and its zongpai\'s) and one page of its history, newest first.',
      request: { path: location.getPath, query: location.getQuery },
      status: 200,
      response: { schema: CargoLocationResponse, description: 'Where the cargo is and was' },
      errors: ['INVALID_BOX_NO', 'VALIDATION_ERROR', 'CARGO_NOT_FOUND', ...DATABASE],
    },
    LocationContent: {
      summary: 'What is at a location now',
      description: 'The cargo whose current location is this location, by cargo_no, a page at a time; the boxes on a zongpai are listed under it. A page looks at no more than 4 × limit current locations: it may hold fewer than limit entries while next_cursor goes on.',
      request: { path: location.contentPath, query: location.contentQuery },
      status: 200,
      response: { schema: LocationContentResponse, description: 'What is at the location' },
      errors: ['INVALID_LOCATION_CODE', 'VALIDATION_ERROR', ...DATABASE],
    },
    LocationVoid: {
      summary: 'Void a wrong scan (supervisors)',
      description: 'The record stays in the history marked voided and no longer counts for the current location. Needs the record version (body field or If-Match): 1 until voided, 2 after (naming 2 of a voided record answers it unchanged).',
      request: { path: location.voidPath, headers: versionedWriteHeaders, body: { schema: location.voidBody, required: false } },
      status: 200,
      response: { schema: VoidedRecordResponse, description: 'The voided record' },
      errors: ['INVALID_BOX_NO', 'VALIDATION_ERROR', 'RECORD_NOT_FOUND', 'VERSION_CONFLICT', ...DATABASE],
    },
    BoxInfo: {
      summary: 'The ERP plan of a box and what is boxed so far',
      request: { query: box.infoQuery },
      status: 200,
      response: { schema: BoxInfoResponse, description: 'The box' },
      errors: ['INVALID_BOX_NO', 'BOX_NOT_FOUND', ...DATABASE, ...ERP_VIEW],
    },
    BoxSave: {
      summary: 'Save what was boxed and append the box to its zongpai',
      description: 'The zongpai must be registered and open; by default every item must be in the box\'s ERP plan, at most its planned quantity. A box already BOXED is changed with PATCH.',
      request: { headers: writeHeaders, body: { schema: named(box.saveBody, 'BoxSaveRequest'), required: true } },
      status: 201,
      response: { schema: BoxSaveResponse, description: 'The saved box' },
      errors: ['INVALID_BOX_NO', 'INVALID_ZONGPAI', ...items, 'BOX_NOT_FOUND', 'ZONGPAI_NOT_FOUND', 'BOX_ALREADY_BOXED', 'ZONGPAI_CLOSED', ...DATABASE, ...ERP_VIEW],
    },
    BoxSimpleSave: {
      summary: 'Simplified boxing: the box holds exactly its ERP plan',
      request: { headers: writeHeaders, body: { schema: named(box.simpleBody, 'BoxSimpleSaveRequest'), required: true } },
      status: 201,
      response: { schema: BoxSaveResponse, description: 'The saved box' },
      errors: ['INVALID_BOX_NO', 'INVALID_ZONGPAI', 'BOX_NOT_FOUND', 'ZONGPAI_NOT_FOUND', 'BOX_ALREADY_BOXED', 'ZONGPAI_CLOSED', 'ERP_PLAN_INVALID', ...DATABASE, ...ERP_VIEW],
    },
    BoxEdit: {
      summary: 'Move a saved box to another zongpai and/or replace its items',
      description: 'Needs the current `version` (body field or If-Match). A change that changes nothing answers the box as it is.',
      request: { path: box.boxPath, headers: versionedWriteHeaders, body: { schema: named(box.editBody, 'BoxEditRequest'), required: true } },
      status: 200,
      response: { schema: BoxSaveResponse, description: 'The box at its new version' },
      errors: [...boxChange, 'INVALID_ZONGPAI', 'ZONGPAI_NOT_FOUND', ...items],
    },
    BoxUndo: {
      summary: 'Undo a boxing: the box is empty again and leaves its zongpai',
      description: 'Needs the current `version` (body field or If-Match); the zongpai it leaves must be open.',
      request: { path: box.boxPath, headers: versionedWriteHeaders, body: { schema: box.undoBody, required: false } },
      status: 200,
      response: { schema: BoxSaveResponse, description: 'The box, NOT_BOXED, at its new version' },
      errors: boxChange,
    },
    BoxHistory: {
      summary: 'Every save, edit and undo of a box, oldest first',
      request: { path: box.boxPath },
      status: 200,
      response: { schema: BoxHistoryResponse, description: 'The audit trail' },
      errors: ['INVALID_BOX_NO', 'VALIDATION_ERROR', 'BOX_NOT_FOUND', ...DATABASE, ...ERP_VIEW],
    },
    ZongpaiRegister: {
      summary: 'Register a zongpai (a master tag such as a pallet)',
      request: { headers: writeHeaders, body: { schema: named(zongpai.registerBody, 'ZongpaiRegisterRequest'), required: true } },
      status: 201,
      response: { schema: ZongpaiResponse, description: 'The new zongpai, OPEN and empty' },
      errors: ['INVALID_ZONGPAI', 'ZONGPAI_ALREADY_EXISTS', ...DATABASE, ...ERP_VIEW],
    },
    ZongpaiGet: {
      summary: 'A zongpai with its boxes and totals',
      request: { path: zongpai.zongpaiPath },
      status: 200,
      response: { schema: ZongpaiResponse, description: 'The zongpai' },
      errors: ['INVALID_ZONGPAI', 'VALIDATION_ERROR', 'ZONGPAI_NOT_FOUND', ...DATABASE],
    },
    ZongpaiClose: {
      summary: 'Close a zongpai: no more boxes in or out',
      description: 'Closing an empty zongpai is allowed. Closing a closed one answers it as it is and changes nothing.',
      request: { path: zongpai.zongpaiPath, headers: writeHeaders },
      status: 200,
      response: { schema: ZongpaiResponse, description: 'The closed zongpai' },
      errors: ['INVALID_ZONGPAI', 'ZONGPAI_NOT_FOUND', ...DATABASE],
    },
    ZongpaiReopen: {
      summary: 'Reopen a closed zongpai to correct a mistake',
      description: 'Supervisors only; the reopening is kept with the close it undid. Reopening an open zongpai answers it as it is and changes nothing.',
      request: { path: zongpai.zongpaiPath, headers: writeHeaders },
      status: 200,
      response: { schema: ZongpaiResponse, description: 'The zongpai, OPEN' },
      errors: ['INVALID_ZONGPAI', 'ZONGPAI_NOT_FOUND', ...DATABASE],
    },
    ZongpaiList: {
      summary: 'Zongpais, newest first, optionally only OPEN or CLOSED',
      description: 'A page at a time: pass `next_cursor` as `cursor` for the next page (with the same `status`).',
      request: { query: zongpai.listQuery },
      status: 200,
      response: { schema: ZongpaiListResponse, description: 'One page of zongpais' },
      errors: ['VALIDATION_ERROR', ...DATABASE],
    },
    ZongpaiPackingList: {
      summary: 'The packing list of a zongpai: every box with its order, customer and items; totals per item',
      request: { path: zongpai.zongpaiPath },
      status: 200,
      response: { schema: PackingListResponse, description: 'The packing list' },
      errors: ['INVALID_ZONGPAI', 'VALIDATION_ERROR', 'ZONGPAI_NOT_FOUND', ...DATABASE, ...ERP_VIEW],
    },
    OrderGet: {
      summary: 'Packing progress of an ERP order',
      description: 'Every box the ERP plans for the order with its status, zongpai, current location and planned against boxed quantity per item; the totals per item; whether the order is fully boxed. `order_no` is matched exactly as the ERP holds it (trimmed, not upper-cased).',
      request: { path: order.orderPath },
      status: 200,
      response: { schema: OrderResponse, description: 'The order' },
      errors: ['INVALID_ORDER_NO', 'VALIDATION_ERROR', 'ORDER_NOT_FOUND', ...DATABASE, ...ERP_VIEW],
    },
    EventsList: {
      summary: 'The change feed: every event in sequence order after `after`',
      description:
        'Poll with `after` = the `next_after` of the previous page (0 at first). Sequences become visible in order, so reading on from `next_after` never skips an event; an empty page repeats `after`. Drop duplicates by `id`. Events stay readable for EVENTS_RETENTION_DAYS.',
      request: { query: feedQuery },
      status: 200,
      response: { schema: EventsResponse, description: 'One page of events' },
      errors: ['VALIDATION_ERROR', ...DATABASE],
    },
    OpenApi: {
      summary: 'This OpenAPI document',
      status: 200,
      response: { schema: OpenApiDocumentResponse, description: 'The OpenAPI 3.1 document of the service' },
      errors: [],
    },
  } satisfies Record<string, OperationDoc>;
};
