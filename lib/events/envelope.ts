import { isoTime } from '../db/write.ts';

/**
 * An outbox row `e` (`cargo.event e`) as the envelope the change feed serves and the relay puts in
 * EventBridge's `Detail`: `{id, sequence, type, occurred_at, actor, idempotency_key, data}`, built in
 * one place so the two can never differ.
 *
 * @example
 * ```ts
 * const sql = `SELECT ${EVENT_ENVELOPE} AS envelope FROM cargo.event e ORDER BY e.sequence`;
 * ```
 */
export const EVENT_ENVELOPE = `json_build_object(
  'id', e.id,
  'sequence', e.sequence,
  'type', e.type,
  'occurred_at', ${isoTime('e.occurred_at')},
  'actor', e.actor,
  'idempotency_key', e.idempotency_key,
  'data', e.data)`;
