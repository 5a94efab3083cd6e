import { createHash } from 'node:crypto';
import type { Idempotency } from '../db/write.ts';
import { AppError } from '../errors/app-error.ts';
import type { ServiceEvent } from './event.ts';

const KEY = /^[\x21-\x7E]{1,255}$/;
const WRITES = new Set(['POST', 'PATCH', 'DELETE']);

/**
 * Reads the `Idempotency-Key` of a write. The request is identified by the caller, the key, and
 * a hash of the route and the validated input (so two spellings of the same scan, ` box-1 ` and
 * `BOX-1`, are the same request, and another body under the same key is not).
 *
 * @example
 * ```ts
 * const idem = idempotencyOf(event, 'olga', 24); // undefined when the request carries no key
 * ```
 */
export const idempotencyOf = (event: ServiceEvent, caller: string, ttlHours: number): Idempotency | undefined => {
  const key = event.headers?.['idempotency-key'];
  if (key === undefined || !WRITES.has(event.httpMethod)) return undefined;
  if (!KEY.test(key)) throw new AppError('VALIDATION_ERROR', { field: 'Idempotency-Key', reason: 'must be 1-255 visible ASCII characters, e.g. a UUID' });
  const route = `${event.httpMethod} ${event.resource}`;
  const hash = createHash('sha256').update(JSON.stringify([route, event.input?.path, event.input?.query, event.input?.body])).digest('base64url');
  return { caller, key, route, hash, ttlHours };
};
