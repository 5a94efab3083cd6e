/**
 * The outbox CTEs a write statement ends with: its events go into `cargo.event` in the same
 * statement as the change they announce, so an event exists exactly when its effect committed.
 * A refused write, a keyed replay or a failed statement writes none.
 */

import { IDEMPOTENCY_KEY, PROCEED } from '../db/write.ts';

/** Every event type of the SPEC's "Events" (the outbox table checks the same list). */
export const EVENT_TYPES = [
  'cargo.located',
  'location.voided',
  'box.saved',
  'box.edited',
  'box.undone',
  'zongpai.registered',
  'zongpai.closed',
  'zongpai.reopened',
  'location.registered',
  'location.changed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** One kind of event a statement announces: one event per row of `from`. */
export interface EventRows {
  readonly type: EventType;
  /** The rows announced: a CTE of the statement that RETURNs what it wrote, with an alias (`saved s`). */
  readonly from: string;
  /** The payload of each row, a JSON(B) expression over `from`: the full snapshot of the SPEC. */
  readonly data: string;
  /** The order of the events of one statement (default: as they come). */
  readonly order?: string;
}

const typeLiteral = (type: EventType): string => {
  if (!/^[a-z]+\.[a-z]+$/.test(type)) throw new RangeError(`not an event type: ${String(type)}`);
  return `'${type}'`;
};

const rowsSql = (events: readonly EventRows[]): string =>
  events
    .map(
      (
        e,
        part,
      ) => `SELECT ${typeLiteral(e.type)}::text AS type, (${e.data})::jsonb AS data, ${String(part)} AS part, row_number() OVER (ORDER BY ${e.order ?? 'NULL'}) AS ord
  FROM ${e.from}`,
    )
    .join('\n  UNION ALL\n  ');

/**
 * The CTEs (to append to a statement's WITH list) that write its events to the outbox.
 *
 * `outbox_rows` reads the RETURNING rows of the statement's writes, so those writes run to the
 * end first; `outbox_sequence` then takes the numbers from the one counter row and holds it
 * locked until the statement commits (the row lock is the last one a write takes, so two writes
 * never wait on each other in a circle); `outbox` inserts the events numbered in order, with the
 * request's Idempotency-Key. A statement with nothing to announce leaves the counter alone.
 *
 * @example
 * ```ts
 * const ctes = `registered AS (INSERT ... WHERE ${PROCEED} RETURNING *),
 * ${outbox([{ type: 'zongpai.registered', from: 'registered r', data: "jsonb_build_object('zongpai_no', r.zongpai_no)" }], ':actor')}`;
 * ```
 */
export const outbox = (events: readonly EventRows[], actor: string): string => `
outbox_rows AS (
  ${rowsSql(events)}
),
outbox_sequence AS (
  UPDATE cargo.event_sequence s SET last = s.last + (SELECT count(*) FROM outbox_rows)
  WHERE (SELECT count(*) FROM outbox_rows) > 0 AND ${PROCEED}
  RETURNING s.last - (SELECT count(*) FROM outbox_rows) AS base
),
outbox AS (
  INSERT INTO cargo.event (sequence, type, occurred_at, actor, idempotency_key, data)
  SELECT q.base + row_number() OVER (ORDER BY e.part, e.ord), e.type, now(), ${actor}, ${IDEMPOTENCY_KEY}, e.data
  FROM outbox_rows e CROSS JOIN outbox_sequence q
)`;
