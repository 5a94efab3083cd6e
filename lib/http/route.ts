import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Context } from 'aws-lambda';
import { config } from '../config.ts';
import { makeFieldCodes } from '../rules/fields.ts';
import { authorize, type Role } from './authorize.ts';
import { errorResponder } from './error-responder.ts';
import type { Caller, RequestInput, ServiceEvent, ServiceResult } from './event.ts';
import type { Idempotency } from '../db/write.ts';
import { idempotencyOf } from './idempotency.ts';
import { jsonBody } from './json-body.ts';
import { validate, type FieldCodes, type RequestSchemas } from './validate.ts';

/** What a route's `handle` receives: the validated input, the caller and the request headers. */
export interface RouteRequest<B, P, Q> extends RequestInput<B, P, Q> {
  readonly caller: Caller;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly requestId: string;
  /** Present when a write carries an `Idempotency-Key`; hand it to the domain's write. */
  readonly idempotency?: Idempotency;
}

export interface RouteSpec<B, P, Q> extends RequestSchemas<B, P, Q> {
  readonly access: Role;
  /** The status of a successful answer. */
  readonly status: number;
  readonly handle: (request: RouteRequest<B, P, Q>) => Promise<unknown>;
}

export interface RouteDeps {
  readonly logger: Logger;
  readonly fieldCodes: FieldCodes;
  /** The stack's app client (`USER_POOL_CLIENT_ID`): ID tokens of other clients are refused. */
  readonly clientId?: string;
}

const defaults: RouteDeps = { logger: new Logger(), fieldCodes: makeFieldCodes(config), clientId: config.userPoolClientId };
const anonymous: Caller = { username: 'anonymous', groups: [] };

/**
 * Wraps a route's logic in the one middleware stack every handler uses: unified errors,
 * Powertools logging with the Lambda context, lower-cased headers, the role check, JSON body
 * parsing, Zod validation with the SPEC's error codes. `handle` only sees valid input.
 *
 * @example
 * ```ts
 * export const handler = route({
 *   access: 'operator', status: 201, body: RecordLocationsBody,
 *   handle: ({ body, caller }) => locations.record(body, caller.username),
 * });
 * ```
 */
export const route = <B = undefined, P = undefined, Q = undefined>(spec: RouteSpec<B, P, Q>, deps: RouteDeps = defaults) =>
  middy<ServiceEvent, ServiceResult, Error, Context>()
    .use(errorResponder({ logger: deps.logger }))
    .use(injectLambdaContext(deps.logger, { resetKeys: true }))
    .use(httpHeaderNormalizer())
    .use(authorize(spec.access, { clientId: deps.clientId }))
    .use(jsonBody())
    .use(validate(spec, deps.fieldCodes))
    .handler(async (event): Promise<ServiceResult> => {
      const input = event.input as RequestInput<B, P, Q>;
      const caller = event.caller ?? anonymous;
      const body = await spec.handle({
        ...input,
        caller,
        idempotency: idempotencyOf(event, caller.username, config.idempotencyTtlHours),
        headers: event.headers ?? {},
        requestId: event.requestContext.requestId,
      });
      return { statusCode: spec.status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) };
    });
