import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { makeLocationContent, makeLocationContentSchemas } from '../lib/location/index.ts';

/** GET /v1/{service_prefix}/locations/{location_code}/cargo: what is at a location now, a page at a time. */
export const spec = defineRoute({
  id: 'LocationContent',
  method: 'GET',
  path: '/v1/{service_prefix}/locations/{location_code}/cargo',
  access: 'reader',
  status: 200,
  example: { path: { location_code: 'DOCK-3' }, query: { limit: '20' } },
  schemas: ({ fields }) => makeLocationContentSchemas(fields),
  make: makeLocationContent,
  handle: (content, { path, query }) => content(path.location_code, query),
});

export const handler = lambdaHandler(spec, process.env);
