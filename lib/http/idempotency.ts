import { createHash } from 'node:crypto';
import { IDEMPOTENCY_KEY } from '../contract/headers.ts';
import type { Idempotency } from '../db/write.ts';
import { AppError } from '../errors/app-error.ts';
import type { MiddlewareObj } from '@middy/core';
import { requestState, type ServiceEvent, type ServiceResult } from './event.ts';
import { ifMatchVersion } from './if-match.ts';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * `JSON.stringify` replacer that writes every object's keys in one order, so that two bodies
 * holding the same JSON value in another key order serialise alike.
 */
const keysInOrder = (_key: string, value: unknown): unknown =>
  value === null || typeof value !== 'object' || Array.isArray(value)
    ? value
    : Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/**
 * Reads the `Idempotency-Key` of a write. The request is identified by the caller, the key, and
 * a hash of what the request asks for: the route, the validated path and query, the body's JSON
 * value as sent (SPEC: key order and whitespace do not count; anything else does, ` box-1 ` and
 * `BOX-1` included) and the version `If-Match` bases it on (`"3"` and `W/"3"` are the same).
 * Another body or another version under the same key is another request.
 * Only a request that passed validation gets here: a 400 binds nothing to its key.
 *
 * @example
 * ```ts
 * const idem = idempotencyOf(event, 'olga', 24); // undefined when the request carries no key
 * ```
 */
export const idempotencyOf = (event: ServiceEvent, caller: string, ttlHours: number): Idempotency | undefined => {
  const key = event.headers?.['idempotency-key'];
  if (key === undefined || !WRITE_METHODS.has(event.httpMethod)) return undefined;
  // API Gateway hands a repeated header's last value in `headers` and all of them in
  // `multiValueHeaders`; which key the client meant is not ours to guess.
  if ((event.multiValueHeaders?.['idempotency-key']?.length ?? 1) > 1)
    throw new AppError('VALIDATION_ERROR', { field: 'Idempotency-Key', reason: 'given_twice' });
  if (!IDEMPOTENCY_KEY.test(key))
    throw new AppError('VALIDATION_ERROR', { field: 'Idempotency-Key', reason: 'idempotency_key_form' });
  const route = `${event.httpMethod} ${event.resource}`;
  const ifMatch = event.headers?.['if-match'];
  const version = ifMatchVersion(ifMatch);
  const { input, json } = requestState(event);
  const identity: unknown[] = [route, input?.path, input?.query, json];
  // Appended only when present, so that a request without If-Match keeps the identity it always had.
  if (version !== undefined) identity.push({ if_match: version ?? ifMatch });
  const hash = createHash('sha256').update(JSON.stringify(identity, keysInOrder)).digest('base64url');
  return { caller, key, route, hash, ttlHours };
};

/**
 * Middleware, after validation: keeps a write's `Idempotency-Key` with the identity of the
 * request it names as the request's `idempotency` (see {@link idempotencyOf}), for `handle` to
 * hand to the domain's write; the caller is the one `authorize` verified.
 *
 * @example
 * ```ts
 * middy().use(validate(schemas, codes)).use(idempotencyKey(config.idempotencyTtlHours));
 * ```
 */
export const idempotencyKey = (ttlHours: number): MiddlewareObj<ServiceEvent, ServiceResult> => ({
  before: ({ event }) => {
    const state = requestState(event);
    const idempotency = idempotencyOf(event, state.caller?.username ?? 'anonymous', ttlHours);
    if (idempotency !== undefined) state.idempotency = idempotency;
  },
});
