import type { ZodOpenApiResponseObject } from 'zod-openapi';
import { errorCatalogue, type ErrorCode } from '../errors/catalogue.ts';
import type { HttpMethod, RouteSpec } from '../http/route.ts';

type Access = RouteSpec['access'];

/** What decides the errors every route shares: who may call it, whether it writes, whether it takes a body or a query. */
export interface ErrorSource {
  readonly method: HttpMethod;
  readonly access: Access;
  readonly body: boolean;
  /** Whether it takes query parameters: one given twice is VALIDATION_ERROR (lib/http/validate.ts). */
  readonly query: boolean;
  /** The codes of the route's own rules: its fields, its domain, its database. */
  readonly errors: readonly ErrorCode[];
}

/** A route behind the Cognito authorizer: no valid token, or not in the route's group. */
const SIGNED_IN: readonly ErrorCode[] = ['UNAUTHORIZED', 'FORBIDDEN'];
/** A route that reads a JSON body (lib/http/json-body.ts, validate.ts). */
const JSON_BODY: readonly ErrorCode[] = [
  'VALIDATION_ERROR',
  'MALFORMED_JSON',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
];
/** A route with query parameters. */
const QUERY: readonly ErrorCode[] = ['VALIDATION_ERROR'];
/** A write, which accepts an Idempotency-Key (lib/http/idempotency.ts, lib/db/write.ts). */
const KEYED_WRITE: readonly ErrorCode[] = ['VALIDATION_ERROR', 'IDEMPOTENCY_KEY_REUSED'];
/** Every route: stage throttling, and a failure of the function itself. */
const EVERY_ROUTE: readonly ErrorCode[] = ['THROTTLED', 'INTERNAL_ERROR'];

/**
 * Every code a route can answer with, in catalogue order: its own, plus those its access,
 * method and body bring through the shared middleware stack and API Gateway.
 *
 * @example
 * ```ts
 * routeErrorCodes({ method: 'GET', access: 'operator', body: false, query: false, errors: ['INVALID_ZONGPAI', 'ZONGPAI_NOT_FOUND'] });
 * // ['INVALID_ZONGPAI', 'UNAUTHORIZED', 'FORBIDDEN', 'ZONGPAI_NOT_FOUND', 'THROTTLED', 'INTERNAL_ERROR']
 * ```
 */
export const routeErrorCodes = (source: ErrorSource): ErrorCode[] => {
  const codes = new Set<ErrorCode>([
    ...source.errors,
    ...(source.access === 'public' ? [] : SIGNED_IN),
    ...(source.body ? JSON_BODY : []),
    ...(source.query ? QUERY : []),
    ...(source.method === 'GET' ? [] : KEYED_WRITE),
    ...EVERY_ROUTE,
  ]);
  return (Object.keys(errorCatalogue) as ErrorCode[]).filter((code) => codes.has(code));
};

const RETRY_AFTER = {
  description: 'Seconds to wait before retrying.',
  schema: { type: 'integer', minimum: 1 },
} as const;

/** The error response of one status: its codes in the description, and in the schema `error_code` narrowed to them. */
const errorResponse = (status: number, codes: readonly ErrorCode[], description = codes.join(', ')) => ({
  description,
  ...(status === 429 || status === 503 ? { headers: { 'Retry-After': RETRY_AFTER } } : {}),
  content: {
    'application/json': {
      schema: {
        allOf: [
          { $ref: '#/components/schemas/ErrorBody' },
          { type: 'object' as const, properties: { error_code: { type: 'string' as const, enum: [...codes] } } },
        ],
      },
    },
  },
});

/** `ZONGPAI_NOT_FOUND` → `ZongpaiNotFound`. */
const pascalCase = (code: string) =>
  code.toLowerCase().replace(/(?:^|_)([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** The error responses built so far, by name: one object each, so that zod-openapi registers each once (by its `id`). */
const sharedResponses = new Map<string, ZodOpenApiResponseObject>();

/**
 * The response of a status with its codes, a component of the document named after them
 * (`ZongpaiNotFound`, `InvalidZongpaiOrValidationError`) that every route answering exactly
 * those codes at that status refers to.
 */
const sharedErrorResponse = (status: number, codes: readonly ErrorCode[]): ZodOpenApiResponseObject => {
  const id = codes.map(pascalCase).join('Or');
  const response = sharedResponses.get(id) ?? { id, ...errorResponse(status, codes) };
  sharedResponses.set(id, response);
  return response;
};

/** Statuses API Gateway answers by itself when the function fails (502) or runs past 29 s (504), shared by every route. */
const GATEWAY_FAILURES: Record<string, ZodOpenApiResponseObject> = {
  '502': {
    id: 'BadGateway',
    ...errorResponse(
      502,
      ['INTERNAL_ERROR'],
      'INTERNAL_ERROR: the function failed or returned no valid answer (API Gateway).',
    ),
  },
  '504': {
    id: 'GatewayTimeout',
    ...errorResponse(
      504,
      ['INTERNAL_ERROR'],
      'INTERNAL_ERROR: the function did not answer within 29 seconds (API Gateway); a write may have completed, retry it with its Idempotency-Key.',
    ),
  },
};

/**
 * The error responses of a route, one per status, each naming its codes in the description
 * and in the schema and shared with every route that answers the same codes at that status;
 * 429 and 503 declare `Retry-After`; 502 and 504 are API Gateway's own.
 *
 * @example
 * ```ts
 * errorResponses(['INVALID_ZONGPAI', 'ZONGPAI_NOT_FOUND']); // { '400': InvalidZongpai, '404': ZongpaiNotFound, '502': BadGateway, '504': GatewayTimeout }
 * ```
 */
export const errorResponses = (codes: readonly ErrorCode[]): Record<string, ZodOpenApiResponseObject> => {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes)
    byStatus.set(errorCatalogue[code].status, [...(byStatus.get(errorCatalogue[code].status) ?? []), code]);
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b))
    responses[String(status)] = sharedErrorResponse(status, list);
  return { ...responses, ...GATEWAY_FAILURES };
};
