import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { makeRegisterSchemas } from '../lib/location-register/schemas.ts';
import { makeLocationList } from '../lib/location-register/register.ts';

/** GET /v1/{service_prefix}/locations?kind=&zone=&blocked=&limit=&cursor=: the location register by code, paginated. */
export const spec = defineRoute({
  id: 'LocationList',
  method: 'GET',
  path: '/v1/{service_prefix}/locations',
  access: 'reader',
  status: 200,
  example: { query: { kind: 'DOCK', limit: '20' } },
  schemas: ({ fields }) => ({ query: makeRegisterSchemas(fields).listQuery }),
  make: makeLocationList,
  handle: (list, { query }) => list(query),
});

export const handler = lambdaHandler(spec, process.env);
