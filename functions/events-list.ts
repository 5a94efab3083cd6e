import { feedQuery, makeEventFeed } from '../lib/events/feed.ts';
import { defineRoute, lambdaHandler } from '../lib/http/route.ts';

/** GET /v1/events?after=&limit=: the change feed, every event in sequence order after `after`. */
export const spec = defineRoute({
  id: 'EventsList',
  method: 'GET',
  path: '/v1/events',
  access: 'integration',
  status: 200,
  example: { query: { after: '0', limit: '100' } },
  schemas: () => ({ query: feedQuery }),
  make: makeEventFeed,
  handle: (read, { query }) => read(query),
});

export const handler = lambdaHandler(spec, process.env);
