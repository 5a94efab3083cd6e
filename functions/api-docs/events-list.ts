import { DATABASE, documentRoute } from '../../lib/openapi/route-docs.ts';
import { EventsResponse, FEED_LIMIT_DEFAULT, FEED_LIMIT_MAX } from '../../lib/events/feed.ts';

/** What the API reference says of GET /v1/events (functions/events-list.ts). */
export const documentation = documentRoute('EventsList', () => ({
  summary: 'The change feed: every event in sequence order after `after`',
  description:
    'Poll with `after` = the `next_after` of the previous page (0 at first). Sequences become visible in order, so reading on from `next_after` never skips an event; an empty page repeats `after`. Drop duplicates by `id`. Events stay readable for EVENTS_RETENTION_DAYS.',
  query: {
    after: {
      type: 'integer',
      minimum: 0,
      default: 0,
      description: 'The sequence read up to: the `next_after` of the previous page.',
    },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: FEED_LIMIT_MAX,
      default: FEED_LIMIT_DEFAULT,
      description: 'Events per page at most: a page of large events holds fewer (about 512 KB of them).',
    },
  },
  response: { schema: EventsResponse, description: 'One page of events' },
  errors: ['VALIDATION_ERROR', ...DATABASE],
}));
