import * as z from 'zod/mini';
import type { ZodOpenApiOperationObject } from 'zod-openapi';
import { IDEMPOTENCY_KEY, IF_MATCH } from '../contract/headers.ts';
import type { HttpMethod, RouteSpec } from '../http/route.ts';
import type { Runtime } from '../runtime.ts';
import { documented } from './fields.ts';
import { named, type RouteDocs } from './route-docs.ts';

/** As lib/http/idempotency.ts reads it: 1-255 visible ASCII characters. */
const idempotencyKey = z.optional(z.string().check(z.regex(IDEMPOTENCY_KEY)));

/** As lib/http/if-match.ts reads it: `3`, `"3"` or `W/"3"`. */
const ifMatch = z.optional(z.string().check(z.regex(IF_MATCH)));

/** The headers a write accepts: every POST, PATCH and DELETE takes an Idempotency-Key. */
const writeHeaders = z.object({ 'Idempotency-Key': idempotencyKey });

/** A versioned write also takes the version it is based on. */
const versionedWriteHeaders = z.object({ 'If-Match': ifMatch, 'Idempotency-Key': idempotencyKey });

/** What the document reads of a route's declaration to show its request. */
export type RequestDeclaration = Pick<RouteSpec<any, any, any>, 'id' | 'method' | 'schemas' | 'versioned'>;

/** The headers a route takes, from what it is: a write takes an Idempotency-Key, a versioned one If-Match as well. */
const headersOf = (method: HttpMethod, versioned: boolean) =>
  method === 'GET' ? undefined : versioned ? versionedWriteHeaders : writeHeaders;

/** A parameter of a query schema, which the document can only show apart when the schema is an object. */
const queryParameter = (query: z.ZodMiniType | undefined, name: string): z.core.$ZodType => {
  const parameter = query instanceof z.ZodMiniObject ? query.shape[name] : undefined;
  if (parameter === undefined) throw new Error(`the docs show a query parameter ${name} the route's schema lacks`);
  return parameter;
};

/**
 * The request of an operation, from the route's own schemas (built for the documentation, from
 * the document's fields) and its method: its path, query and header parameters, and its JSON body,
 * named `<id>Request` and required unless its schema accepts no body.
 *
 * @example
 * ```ts
 * const { request, body } = documentedRequest(spec, { config, fields }, documentation.docs({ config, fields }));
 * request.requestBody?.required; // true for POST /v1/box
 * ```
 */
export const documentedRequest = (
  route: RequestDeclaration,
  runtime: Pick<Runtime, 'config' | 'fields'>,
  docs: RouteDocs,
): {
  readonly request: Pick<ZodOpenApiOperationObject, 'requestParams' | 'requestBody'>;
  readonly body: boolean;
  readonly query: boolean;
} => {
  const { path, query, body } = route.schemas?.(runtime) ?? {};
  for (const [name, shown] of Object.entries(docs.query ?? {})) documented(queryParameter(query, name), shown);
  const header = headersOf(route.method, route.versioned !== undefined);
  const parameters = Object.entries({ path, query, header }).filter(([, schema]) => schema !== undefined);
  return {
    request: {
      requestParams: Object.fromEntries(parameters),
      ...(body === undefined
        ? {}
        : {
            requestBody: {
              required: !body.safeParse(undefined).success,
              content: { 'application/json': { schema: docs.body ?? named(body, `${route.id}Request`) } },
            },
          }),
    },
    body: body !== undefined,
    query: query instanceof z.ZodMiniObject && Object.keys(query.shape).length > 0,
  };
};
