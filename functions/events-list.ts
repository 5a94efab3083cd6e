import { EventsResponse, FEED_LIMIT_DEFAULT, FEED_LIMIT_MAX, feedQuery, makeEventFeed } from '../lib/events/feed.ts';
import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { DATABASE } from '../lib/openapi/route-docs.ts';

/** GET /v1/events?after=&limit=: the change feed, every event in sequence order after `after`. */
export const spec = defineRoute({
  id: 'EventsList',
  method: 'GET',
  path: '/v1/events',
  access: 'integration',
  status: 200,
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
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
      }),
  example: { query: { after: '0', limit: '100' } },
  schemas: () => ({ query: feedQuery }),
  make: makeEventFeed,
  handle: (read, { query }) => read(query),
});

export const handler = lambdaHandler(spec, process.env);
