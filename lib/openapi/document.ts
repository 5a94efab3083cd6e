import * as z from 'zod/mini';
import { createDocument, type ZodOpenApiPathsObject } from 'zod-openapi';
import type { Config } from '../config.ts';
import { makeBoxSchemas } from '../box/schemas.ts';
import { makeFields } from '../rules/fields.ts';
import { makeLocationSchemas } from '../location/schemas.ts';
import { makeZongpaiSchemas } from '../zongpai/schemas.ts';
import { CargoLocationResponse, ErrorBody, LocationRecordsResponse, errorResponses, idempotencyHeader, json } from './common.ts';
import { BoxHistoryResponse, BoxInfoResponse, BoxSaveResponse, ZongpaiResponse } from './responses.ts';

const security = [{ cognito: [] }];

/** Request schemas get their component name here, not in `lib`, so handlers carry no documentation weight. */
const named = <S extends z.ZodMiniType>(schema: S, id: string): S => {
  z.globalRegistry.add(schema, { id });
  return schema;
};

const body = <S extends z.ZodMiniType>(schema: S) => ({ content: { 'application/json': { schema } } });
const ifMatch = z.object({ 'if-match': z.optional(z.string()), 'idempotency-key': z.optional(z.string()) });

let built: ReturnType<typeof build> | undefined;

/**
 * The OpenAPI 3.1 document of the service, generated from the same Zod schemas the handlers
 * validate with, so the two cannot drift apart. Built once per process.
 *
 * @example
 * ```ts
 * const doc = buildOpenApiDocument(config);
 * doc.components?.schemas?.ErrorBody; // the unified error body
 * ```
 */
export const buildOpenApiDocument = (config: Config) => (built ??= build(config));

const build = (config: Config) => {
  const fields = makeFields(config);
  const location = makeLocationSchemas(config, fields);
  const box = makeBoxSchemas(config, fields);
  const zongpai = makeZongpaiSchemas(fields);
  const prefix = `/v1/${config.servicePrefix}`;
  const write = errorResponses(400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503);
  const read = errorResponses(400, 401, 403, 404, 429, 500, 503);

  const paths: ZodOpenApiPathsObject = {
    [`${prefix}/location`]: {
      post: {
        summary: 'Record where cargo is: one scan, or a backlog of up to 500 stored all or none',
        security,
        requestParams: { header: idempotencyHeader },
        requestBody: body(z.union([named(location.scan, 'LocationScan'), named(location.backlog, 'LocationBacklog')])),
        responses: { '201': json(LocationRecordsResponse, 'The stored records'), ...errorResponses(400, 401, 403, 413, 415, 422, 429, 500, 503) },
      },
    },
    [`${prefix}/location/{cargo_no}`]: {
      get: {
        summary: 'Current location of a box or zongpai, and its history, newest first',
        security,
        requestParams: { path: location.getPath, query: location.getQuery },
        responses: { '200': json(CargoLocationResponse, 'Where the cargo is and was'), ...read },
      },
    },
    '/v1/box/info': {
      get: {
        summary: 'The ERP plan of a box and what is boxed so far',
        security,
        requestParams: { query: box.infoQuery },
        responses: { '200': json(BoxInfoResponse, 'BoxInfoResponse'), ...read },
      },
    },
    '/v1/box': {
      post: {
        summary: 'Save what was boxed and append the box to its zongpai',
        security,
        requestParams: { header: idempotencyHeader },
        requestBody: body(named(box.saveBody, 'BoxSaveRequest')),
        responses: { '201': json(BoxSaveResponse, 'BoxSaveResponse'), ...write },
      },
    },
    '/v1/box/simple': {
      post: {
        summary: 'Simplified boxing: the box holds exactly its ERP plan',
        security,
        requestParams: { header: idempotencyHeader },
        requestBody: body(named(box.simpleBody, 'BoxSimpleSaveRequest')),
        responses: { '201': json(BoxSaveResponse, 'BoxSaveResponse'), ...write },
      },
    },
    '/v1/box/{box_no}': {
      patch: {
        summary: 'Move a saved box to another zongpai and/or replace its items (supervisor)',
        security,
        requestParams: { path: box.boxPath, header: ifMatch },
        requestBody: body(named(box.editBody, 'BoxEditRequest')),
        responses: { '200': json(BoxSaveResponse, 'BoxSaveResponse'), ...write },
      },
      delete: {
        summary: 'Undo a boxing: the box is empty again and leaves its zongpai (supervisor)',
        security,
        requestParams: { path: box.boxPath, header: ifMatch },
        requestBody: { ...body(z.object({ version: z.optional(z.int()) })), required: false },
        responses: { '200': json(BoxSaveResponse, 'The box, NOT_BOXED, at its new version'), ...write },
      },
    },
    '/v1/box/{box_no}/history': {
      get: {
        summary: 'Every save, edit and undo of the box, oldest first',
        security,
        requestParams: { path: box.boxPath },
        responses: { '200': json(BoxHistoryResponse, 'The audit trail'), ...read },
      },
    },
    '/v1/zongpai': {
      post: {
        summary: 'Register a zongpai (a master tag such as a pallet)',
        security,
        requestParams: { header: idempotencyHeader },
        requestBody: body(named(zongpai.registerBody, 'ZongpaiRegisterRequest')),
        responses: { '201': json(ZongpaiResponse, 'The new zongpai'), ...write },
      },
    },
    '/v1/zongpai/{zongpai_no}': {
      get: {
        summary: 'The zongpai with its boxes and totals',
        security,
        requestParams: { path: zongpai.zongpaiPath },
        responses: { '200': json(ZongpaiResponse, 'The zongpai'), ...read },
      },
    },
    '/v1/zongpai/{zongpai_no}/close': {
      post: {
        summary: 'Close a zongpai: no more boxes in or out (supervisor)',
        security,
        requestParams: { path: zongpai.zongpaiPath, header: idempotencyHeader },
        responses: { '200': json(ZongpaiResponse, 'The closed zongpai'), ...write },
      },
    },
  };

  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Cargo Location and Boxing Service',
      version: '1.0.0',
      description: 'Where cargo is, what went into each box, and which zongpai it is on. Every route except this document needs a Cognito ID token in the Authorization header.',
    },
    components: {
      schemas: { ErrorBody, LocationRecordsResponse, CargoLocationResponse, BoxInfoResponse, BoxSaveResponse, BoxHistoryResponse, ZongpaiResponse },
      securitySchemes: { cognito: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Cognito ID token (API Gateway Cognito authorizer)' } },
    },
    paths,
  });
};
