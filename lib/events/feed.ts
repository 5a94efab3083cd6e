import * as z from 'zod/mini';
import type { Db } from '../db/types.ts';
import { wholeNumberQuery } from '../rules/query.ts';
import type { EventEnvelope } from './entries.ts';
import { eventPageSql } from './envelope.ts';
import { EVENT_TYPES } from './write.ts';

/** The event feed's page size: 1-500, 100 by default (SPEC "Limits"). */
export const FEED_LIMIT_MAX = 500;
export const FEED_LIMIT_DEFAULT = 100;

/** `?after=&limit=` of GET /v1/events: `after` a sequence (0, the default, is before the first event). */
export const feedQuery = z.object({
  after: wholeNumberQuery({ min: 0, fallback: 0 }),
  limit: wholeNumberQuery({ min: 1, max: FEED_LIMIT_MAX, fallback: FEED_LIMIT_DEFAULT }),
});
export type FeedQuery = z.output<typeof feedQuery>;

/** One event as the feed serves it and EventBridge carries it in `Detail`. */
export const EventEnvelopeSchema = z.object({
  id: z.string(),
  sequence: z.int(),
  type: z.enum(EVENT_TYPES),
  occurred_at: z.string(),
  actor: z.string(),
  idempotency_key: z.nullable(z.string()),
  data: z.record(z.string(), z.unknown()),
});

/** GET /v1/events: a page of events in sequence order, and the `after` of the next page. */
export const EventsResponse = z.object({ events: z.array(EventEnvelopeSchema), next_after: z.int() });
export type EventsResponse = { events: EventEnvelope[]; next_after: number };

/**
 * One index range scan of the outbox's primary key. A writer holds the sequence counter until it
 * commits, so the events a reader sees are always every event up to the highest it sees: reading
 * on from `next_after` never skips one that commits later. A page of large events holds fewer than
 * `limit` (see {@link eventPageSql}).
 */
const FEED_SQL = eventPageSql(':after');

/**
 * The change feed: the events after `after`, oldest first, at most `limit` (fewer when they are
 * large); `next_after` is the last one's sequence, or `after` again when there is none yet (poll
 * again with it).
 *
 * @example
 * ```ts
 * const read = makeEventFeed({ db });
 * const page = await read({ after: 0, limit: 100 }); // { events: [...], next_after: 42 }
 * ```
 */
export const makeEventFeed =
  ({ db }: { db: Db }) =>
  async ({ after, limit }: FeedQuery): Promise<EventsResponse> => {
    const { rows } = await db.query<{ envelope: EventEnvelope }>(FEED_SQL, { after, limit });
    const events = rows.map((row) => row.envelope);
    return { events, next_after: events.at(-1)?.sequence ?? after };
  };
