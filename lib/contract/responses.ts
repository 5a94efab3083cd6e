/**
 * Response schemas of the boxing and zongpai routes: the OpenAPI document reads them, and the domain
 * takes its response types from them (`import type`, so handlers never load them).
 */

import * as z from 'zod/mini';
import { timestamp } from './common.ts';
const boxStatus = z.enum(['BOXED', 'NOT_BOXED']);
const zongpaiStatus = z.enum(['OPEN', 'CLOSED']);

/** An item in a saved box. */
export const BoxItem = z.object({ item_code: z.string(), quantity: z.int() });

/** An item of the ERP plan beside what is boxed of it; `item_name` and `unit` from the plan. */
export const PlannedItem = z.object({
  item_code: z.string(),
  item_name: z.nullable(z.string()),
  unit: z.nullable(z.string()),
  planned_quantity: z.int(),
  boxed_quantity: z.int(),
});

/** A line of a packing list: `item_name` and `unit` from the ERP plan (null for an item it does not list). */
export const PackedItem = z.object({
  item_code: z.string(),
  item_name: z.nullable(z.string()),
  unit: z.nullable(z.string()),
  quantity: z.int(),
});

export const BoxInfoResponse = z.object({
  box_no: z.string(),
  order_no: z.nullable(z.string()),
  customer_name: z.nullable(z.string()),
  status: boxStatus,
  zongpai_no: z.nullable(z.string()),
  version: z.int(),
  /** True when the box holds every planned item at exactly its planned quantity, and nothing else. */
  complete: z.boolean(),
  /** `planned_quantity` is the sum of the item's usable plan lines, which may exceed `QUANTITY_MAX`. */
  items: z.array(PlannedItem),
  saved_at: z.nullable(timestamp),
  saved_by: z.nullable(z.string()),
});
/** The SPEC's `BoxInfoResponse`. */
export type BoxInfoResponse = z.infer<typeof BoxInfoResponse>;

export const BoxSaveResponse = z.object({
  box_no: z.string(),
  zongpai_no: z.nullable(z.string()),
  status: boxStatus,
  version: z.int(),
  /** True when the box holds every planned item at exactly its planned quantity. */
  complete: z.boolean(),
  /** Ordered by item code. */
  items: z.array(BoxItem),
  total_quantity: z.int(),
  saved_at: timestamp,
  saved_by: z.string(),
});
/** The SPEC's `BoxSaveResponse`. */
export type BoxSaveResponse = z.infer<typeof BoxSaveResponse>;

export const BoxHistoryResponse = z.object({
  box_no: z.string(),
  events: z.array(
    z.object({
      action: z.enum(['SAVE', 'EDIT', 'UNDO']),
      version: z.int(),
      actor: z.string(),
      at: timestamp,
      zongpai_no: z.nullable(z.string()),
      items: z.array(BoxItem),
    }),
  ),
});
export type BoxHistoryResponse = z.infer<typeof BoxHistoryResponse>;
/** One SAVE, EDIT or UNDO of a box. */
export type BoxEvent = BoxHistoryResponse['events'][number];

export const ZongpaiResponse = z.object({
  zongpai_no: z.string(),
  status: zongpaiStatus,
  /** 1 when registered, one more with each close and each reopening. */
  version: z.int(),
  box_count: z.int(),
  total_quantity: z.int(),
  boxes: z.array(z.object({ box_no: z.string(), total_quantity: z.int() })),
  created_at: timestamp,
  created_by: z.string(),
  closed_at: z.nullable(timestamp),
  closed_by: z.nullable(z.string()),
});
export type ZongpaiResponse = z.infer<typeof ZongpaiResponse>;

/** GET /v1/openapi.json: an OpenAPI 3.1 document (its full schema is the OpenAPI specification's). */
export const OpenApiDocumentResponse = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.looseObject({})),
});

export const ZongpaiListResponse = z.object({
  /** Newest registration first. */
  zongpais: z.array(
    z.object({
      zongpai_no: z.string(),
      status: zongpaiStatus,
      version: z.int(),
      box_count: z.int(),
      total_quantity: z.int(),
      registered_at: timestamp,
      closed_at: z.nullable(timestamp),
    }),
  ),
  /** Pass as `cursor` for the next page; null on the last one. */
  next_cursor: z.nullable(z.string()),
});
export type ZongpaiListResponse = z.infer<typeof ZongpaiListResponse>;

/** The `cursor` of a listing's next page of boxes; null after the last (its counts are on every page). */
const nextBoxPage = z.nullable(z.string());
/** The `totals_cursor` of a listing's next page of totals; null when this page's totals reach the last item. */
const nextTotalsPage = z.nullable(z.string());
/**
 * True on a page's last box when its items go on on the next page: the next page starts with the
 * same box (its fields again) and the rest of its items.
 */
const moreItems = z.boolean();

export const PackingListResponse = z.object({
  zongpai_no: z.string(),
  status: zongpaiStatus,
  box_count: z.int(),
  total_quantity: z.int(),
  /**
   * Ordered by box number, a page at a time: at most `limit`, and fewer where their items would
   * make the answer too large for the Data API (a box whose items do not fit goes on on the next
   * page: `more_items`); items by item code.
   */
  boxes: z.array(
    z.object({
      box_no: z.string(),
      order_no: z.nullable(z.string()),
      customer_name: z.nullable(z.string()),
      /** True when the box holds every planned item at exactly its planned quantity, and nothing else. */
      complete: z.boolean(),
      total_quantity: z.int(),
      items: z.array(PackedItem),
      more_items: moreItems,
    }),
  ),
  /**
   * Every item on the zongpai summed over its boxes, by item code, a page at a time: as many as
   * fit beside the boxes, from `totals_cursor` (from the first item without it).
   */
  totals: z.array(PackedItem),
  next_cursor: nextBoxPage,
  next_totals_cursor: nextTotalsPage,
});
export type PackingListResponse = z.infer<typeof PackingListResponse>;

export const OrderResponse = z.object({
  order_no: z.string(),
  customer_name: z.nullable(z.string()),
  /** OPEN: no box boxed yet; PARTIAL: some; BOXED: every planned box is boxed. */
  status: z.enum(['OPEN', 'PARTIAL', 'BOXED']),
  box_count: z.int(),
  boxed_count: z.int(),
  /** How many boxes hold exactly their plan. */
  complete_count: z.int(),
  /** Fully boxed: every planned box is boxed and complete. */
  complete: z.boolean(),
  /**
   * The boxes the ERP plans for the order, by box number, a page at a time: at most `limit`, and
   * fewer where their items would make the answer too large for the Data API (a box whose items
   * do not fit goes on on the next page: `more_items`).
   */
  boxes: z.array(
    z.object({
      box_no: z.string(),
      status: boxStatus,
      zongpai_no: z.nullable(z.string()),
      version: z.int(),
      complete: z.boolean(),
      /** Where the box is now (of a box on a zongpai: the newer of its own and its zongpai's last scan); null if never scanned. */
      location: z.nullable(
        z.object({
          location_code: z.string(),
          off_shelf: z.boolean(),
          via: z.enum(['BOX', 'ZONGPAI']),
          located_at: timestamp,
        }),
      ),
      items: z.array(PlannedItem),
      more_items: moreItems,
    }),
  ),
  /**
   * Planned and boxed per item over the whole order, by item code, a page at a time: as many as
   * fit beside the boxes, from `totals_cursor` (from the first item without it).
   */
  totals: z.array(PlannedItem),
  next_cursor: nextBoxPage,
  next_totals_cursor: nextTotalsPage,
});
export type OrderResponse = z.infer<typeof OrderResponse>;
