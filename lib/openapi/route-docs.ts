import * as z from 'zod/mini';
import type { ErrorCode } from '../errors/catalogue.ts';
import type { Runtime } from '../runtime.ts';

/** A JSON Schema, as the document shows it. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/**
 * What the API reference says about one route beyond what its declaration already says: its
 * summary, its success answer and the codes of its own rules. The request is documented from the
 * route's `schemas` and its headers from its method (an `Idempotency-Key` on every write) and
 * `versioned` (`If-Match`); the codes every route of its kind shares (sign-in, JSON body,
 * Idempotency-Key, throttling) are added from the declaration by `routeErrorCodes`
 * (lib/openapi/errors.ts; the error body itself is lib/contract/errors.ts).
 */
export interface RouteDocs {
  readonly summary: string;
  readonly description?: string;
  /** Query parameters the document shows otherwise than their schema reads them (a string read as a number). */
  readonly query?: Readonly<Record<string, JsonSchema>>;
  /** The request body as documented, where it is not its schema named `<id>Request` (alternatives named apart). */
  readonly body?: z.ZodMiniType;
  /** The success answer: JSON of `schema`, or, where `media` names them, a text of those media types (a label). */
  readonly response: {
    readonly schema: z.ZodMiniType;
    readonly description: string;
    readonly media?: readonly string[];
  };
  /** Another success status the route answers with the same schema (a PUT that created: 201). */
  readonly alsoAnswers?: { readonly status: number; readonly description: string };
  readonly errors: readonly ErrorCode[];
}

/** A route's documentation for a configuration (a route's limits and patterns are the configured ones). */
export type RouteDocsOf = (runtime: Pick<Runtime, 'config' | 'fields'>) => RouteDocs;

/**
 * The documentation of one route, by its id: written in `functions/api-docs/<route file>` beside
 * the route's own file and attached to its declaration where the document is assembled
 * (`routeTable` in infra/routes.ts). No route file imports it, so no function bundle carries it.
 */
export interface RouteDocumentation {
  readonly id: string;
  readonly docs: RouteDocsOf;
}

/**
 * @example
 * ```ts
 * export const documentation = documentRoute('ZongpaiGet', () => ({
 *   summary: 'A zongpai with its boxes and totals',
 *   response: { schema: ZongpaiResponse, description: 'The zongpai' },
 *   errors: ['INVALID_ZONGPAI', 'VALIDATION_ERROR', 'ZONGPAI_NOT_FOUND', ...DATABASE],
 * }));
 * ```
 */
export const documentRoute = (id: string, docs: RouteDocsOf): RouteDocumentation => ({ id, docs });

/** Names a request schema as a component of the document (only the documentation's own schema instances). */
export const named = <S extends z.ZodMiniType>(schema: S, id: string): S => {
  z.globalRegistry.add(schema, { id });
  return schema;
};

/** Routes that read the ERP view (ERP_BOX_VIEW) answer when it is missing or unreadable. */
export const ERP_VIEW: readonly ErrorCode[] = ['ERP_VIEW_UNAVAILABLE'];
/** Every route that runs a statement. */
export const DATABASE: readonly ErrorCode[] = ['DATABASE_UNAVAILABLE'];
/** A supervisor's change of a saved box (edit, undo). */
export const BOX_CHANGE: readonly ErrorCode[] = [
  'INVALID_BOX_NO',
  'VALIDATION_ERROR',
  'BOX_NOT_FOUND',
  'VERSION_CONFLICT',
  'ZONGPAI_CLOSED',
  ...DATABASE,
  ...ERP_VIEW,
];
/** A request that lists the items of a box. */
export const BOX_ITEMS: readonly ErrorCode[] = [
  'INVALID_ITEM_CODE',
  'INVALID_QUANTITY',
  'DUPLICATE_BOX_ITEM',
  'ITEM_NOT_IN_PLAN',
  'QUANTITY_EXCEEDS_PLAN',
];

/** How a listing of boxes pages (GET order, GET packing list), for a route's description. */
export const BOX_PAGES =
  'The boxes come a page at a time, by box number: at most `limit`, fewer when their items would make the answer too large for the Data API (1 MiB); pass `next_cursor` as `cursor` for the next page. A box whose items do not all fit on a page ends it with `more_items: true`, and the next page starts with the same box again (its fields repeated) and the rest of its items. The totals per item come a page of their own at a time, from the first item on every page of boxes: while `next_totals_cursor` is not null, pass it as `totals_cursor` (with any `cursor`) for the next totals.';
