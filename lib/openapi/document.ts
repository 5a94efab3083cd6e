import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import type { Config } from '../config.ts';
import { makeFields } from '../rules/fields.ts';
import type { HttpMethod, RouteSpec } from '../http/route.ts';
import type { Runtime } from '../runtime.ts';
import { EventEnvelopeSchema, EventsResponse } from '../events/feed.ts';
import {
  CargoLocationResponse,
  HistoryEntry,
  LocationContentResponse,
  LocationRecord,
  LocationRecordsResponse,
  TrailEntry,
  VoidedRecordResponse,
  jsonContent,
} from '../contract/common.ts';
import { ErrorBody } from '../contract/errors.ts';
import type { Role } from '../contract/roles.ts';
import { errorResponses, routeErrorCodes } from './errors.ts';
import { documentIdentifiers } from './fields.ts';
import { documentedRequest } from './request.ts';
import { named, type RouteDocs, type RouteDocsOf } from './route-docs.ts';
import {
  BoxHistoryResponse,
  BoxInfoResponse,
  BoxItem,
  BoxSaveResponse,
  OrderResponse,
  PackedItem,
  PackingListResponse,
  PlannedItem,
  ZongpaiListResponse,
  ZongpaiResponse,
} from '../contract/responses.ts';
import { LocationImportResponse, LocationListResponse, RegisteredLocation } from '../contract/register.ts';

const ROLES = {
  operator: 'operator or supervisor',
  supervisor: 'supervisor',
  reader: "operator, supervisor or integration (an ERP's read-only user)",
  integration: "supervisor or integration (an ERP's read-only user)",
  public: 'anyone, no token',
} as const;

/** `BoxSave` → `boxSave`: the route id, as generated clients name their methods. */
const operationId = (id: string) => `${id.charAt(0).toLowerCase()}${id.slice(1)}`;

/**
 * What the document needs of a route: its declaration (status, schemas) with its path, the service
 * prefix resolved, and its documentation (functions/api-docs/, attached by the route's id).
 */
export interface ApiRoute {
  readonly id: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly access: Role;
  readonly spec?: Pick<RouteSpec<any, any, any>, 'status' | 'schemas' | 'versioned'> & { readonly docs?: RouteDocsOf };
}

/**
 * The answers, and what several of them share, each a named component of the document that every
 * operation refers to (named where they are first used, so each is rendered as an answer only).
 */
const ANSWERS = {
  LocationRecord,
  TrailEntry,
  HistoryEntry,
  LocationRecordsResponse,
  CargoLocationResponse,
  LocationContentResponse,
  VoidedRecordResponse,
  RegisteredLocation,
  LocationImportResponse,
  LocationListResponse,
  BoxItem,
  PlannedItem,
  BoxInfoResponse,
  BoxSaveResponse,
  BoxHistoryResponse,
  ZongpaiResponse,
  ZongpaiListResponse,
  PackedItem,
  PackingListResponse,
  OrderResponse,
  EventEnvelope: EventEnvelopeSchema,
  EventsResponse,
};

const TAGS = ['location', 'boxing', 'service'] as const;

const tagOf = (route: ApiRoute): (typeof TAGS)[number] => {
  const area = route.path.split('/')[2];
  return area === 'box' || area === 'zongpai' || area === 'orders'
    ? 'boxing'
    : route.access === 'public'
      ? 'service'
      : 'location';
};

/** A route's success answer: JSON, or the text media types it declares (`RouteDocs.response.media`). */
const answerContent = ({ schema, description, media }: RouteDocs['response']) =>
  media === undefined
    ? jsonContent(schema, description)
    : { description, content: Object.fromEntries(media.map((type) => [type, { schema }])) };

const operation = (route: ApiRoute, runtime: Pick<Runtime, 'config' | 'fields'>): ZodOpenApiOperationObject => {
  const { spec } = route;
  if (spec?.docs === undefined)
    throw new Error(
      `route ${route.id} declares no docs: functions/api-docs/ documents it (documentRoute('${route.id}', ...))`,
    );
  const doc = spec.docs(runtime);
  const { request, body, query } = documentedRequest({ ...route, ...spec }, runtime, doc);
  const errors = routeErrorCodes({ method: route.method, access: route.access, body, query, errors: doc.errors });
  return {
    operationId: operationId(route.id),
    summary: doc.summary,
    description: [doc.description, `Access: ${ROLES[route.access]}.`].filter(Boolean).join('\n\n'),
    tags: [tagOf(route)],
    'x-access': route.access,
    'x-error-codes': errors,
    security: route.access === 'public' ? [] : [{ cognito: [] }],
    ...request,
    responses: {
      ...(doc.alsoAnswers === undefined
        ? {}
        : {
            [String(doc.alsoAnswers.status)]: answerContent({
              ...doc.response,
              description: doc.alsoAnswers.description,
            }),
          }),
      [String(spec.status)]: answerContent(doc.response),
      ...errorResponses(errors),
    },
  };
};

/**
 * The OpenAPI 3.1 document of the service: one operation per declared route, from its declaration
 * and its documentation (functions/api-docs/), built from the same Zod schemas the handlers validate with, so the two cannot
 * drift apart. Rendered where every declaration is loaded (the CDK app, the local runtime,
 * `npm run docs`); the OpenAPI function serves the result. Operations are grouped by tag
 * (location, boxing, service), each group in file order.
 *
 * @example
 * ```ts
 * const doc = buildOpenApiDocument(config, routeTable(config.servicePrefix));
 * doc.paths?.['/v1/zongpai']?.post?.operationId; // 'zongpaiRegister'
 * ```
 */
export const buildOpenApiDocument = (config: Config, routes: readonly ApiRoute[]) => {
  const fields = makeFields(config);
  documentIdentifiers(config, fields);
  for (const [id, schema] of Object.entries(ANSWERS)) named(schema, id);
  const paths: ZodOpenApiPathsObject = {};
  const ordered = [...routes].sort((a, b) => TAGS.indexOf(tagOf(a)) - TAGS.indexOf(tagOf(b)));
  for (const route of ordered)
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation(route, { config, fields }) };

  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Cargo Location and Boxing Service',
      version: '1.0.0',
      description:
        'Where cargo is, what went into each box, and which zongpai it is on. Every route except this document needs a Cognito ID token in the Authorization header. Every error has the body ErrorBody. Every POST, PUT, PATCH and DELETE accepts an Idempotency-Key: the same key from the same caller with the same body answers the first response again and writes once; with another body it is IDEMPOTENCY_KEY_REUSED; keys expire after 24 hours.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [
      {
        url: 'https://{api_id}.execute-api.{region}.amazonaws.com/{stage}',
        description: 'The deployed stack: the API Gateway stage URL the stack outputs',
        variables: { api_id: { default: 'api-id' }, region: { default: 'eu-west-1' }, stage: { default: 'prod' } },
      },
      { url: 'http://127.0.0.1:3000', description: 'npm start: the local runtime (PORT)' },
    ],
    tags: [
      { name: 'location', description: 'Where cargo is: scans and their history' },
      { name: 'boxing', description: 'Boxes and the zongpai (pallets) they are appended to' },
      { name: 'service', description: 'The service itself' },
    ],
    components: {
      schemas: { ErrorBody },
      securitySchemes: {
        cognito: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'Cognito ID token (API Gateway Cognito authorizer)',
        },
      },
    },
    paths,
  });
};
