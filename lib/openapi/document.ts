import * as z from 'zod/mini';
import { createDocument } from 'zod-openapi';
import type { Config } from '../config.ts';
import { makeFields } from '../rules/fields.ts';
import { makeLocationSchemas } from '../location/schemas.ts';
import { CargoLocationResponse, ErrorBody, LocationRecordsResponse, errorResponses, idempotencyHeader, json } from './common.ts';

const security = [{ cognito: [] }];

/** Request schemas get their component name here, not in `lib`, so handlers carry no documentation weight. */
const named = <S extends z.ZodMiniType>(schema: S, id: string): S => {
  z.globalRegistry.add(schema, { id });
  return schema;
};

let built: ReturnType<typeof build> | undefined;

/**
 * The OpenAPI 3.1 document of the service, generated from the same Zod schemas the handlers
 * validate with, so the two cannot drift apart.
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
  const prefix = `/v1/${config.servicePrefix}`;
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Cargo Location and Boxing Service',
      version: '1.0.0',
      description: 'Where cargo is, what went into each box, and which zongpai it is on. Every route except this document needs a Cognito ID token.',
    },
    components: {
      schemas: { ErrorBody, LocationRecordsResponse, CargoLocationResponse },
      securitySchemes: { cognito: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Cognito ID token (API Gateway Cognito authorizer)' } },
    },
    paths: {
      [`${prefix}/location`]: {
        post: {
          summary: 'Record where cargo is: one scan, or a backlog of up to 500 stored all or none',
          security,
          requestParams: { header: idempotencyHeader },
          requestBody: { content: { 'application/json': { schema: z.union([named(location.scan, 'LocationScan'), named(location.backlog, 'LocationBacklog')]) } } },
          responses: { '201': json(LocationRecordsResponse, 'The stored records'), ...errorResponses(400, 401, 403, 413, 415, 422, 429, 500, 503) },
        },
      },
      [`${prefix}/location/{cargo_no}`]: {
        get: {
          summary: 'Current location of a box or zongpai, and its history, newest first',
          security,
          requestParams: { path: location.getPath, query: location.getQuery },
          responses: { '200': json(CargoLocationResponse, 'Where the cargo is and was'), ...errorResponses(400, 401, 403, 404, 429, 500, 503) },
        },
      },
    },
  });
};
