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

/**
 * How many bytes of envelopes a page of events holds past its first: the Data API answers at most
 * 1 MiB (https://docs.aws.amazon.com/AmazonRDS/latest/AuroraUserGuide/data-api.limitations.html),
 * counted on its wire, where each envelope is a quoted string; an event of a box of hundreds of
 * items is tens of KB, so 500 of them would be refused.
 */
export const PAGE_BYTES = 512 * 1024;

/**
 * The events after `after` (an SQL expression), oldest first: at most `:limit`, and the first
 * plus as many after it as fit in {@link PAGE_BYTES}. One index range scan of the primary key.
 * `page_count` is how many the limit alone allowed, so that a reader tells a page cut for size
 * (read on at once) from the last page there is.
 */
export const eventPageSql = (after: string) => `
WITH page AS (
  SELECT ${EVENT_ENVELOPE} AS envelope, e.sequence
  FROM cargo.event e
  WHERE e.sequence > ${after}
  ORDER BY e.sequence
  LIMIT :limit
),
sized AS (
  SELECT p.envelope, p.sequence, count(*) OVER () AS page_count,
         sum(octet_length(p.envelope::text)) OVER (ORDER BY p.sequence) AS running
  FROM page p
)
SELECT s.envelope, s.page_count
FROM sized s
WHERE s.running <= ${PAGE_BYTES} OR s.sequence = (SELECT min(p.sequence) FROM page p)
ORDER BY s.sequence`;
