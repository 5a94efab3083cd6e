import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { makeCargoFinder, makeCargoLocationSchemas } from '../lib/location/index.ts';

/** GET /v1/{service_prefix}/location/{cargo_no}: where the cargo is now, and where it was (newest first). */
export const spec = defineRoute({
  id: 'LocationGet',
  method: 'GET',
  path: '/v1/{service_prefix}/location/{cargo_no}',
  access: 'reader',
  status: 200,
  example: { path: { cargo_no: 'BOX-1001' }, query: { limit: '20' } },
  schemas: ({ fields }) => makeCargoLocationSchemas(fields),
  make: makeCargoFinder,
  handle: (find, { path, query }) => find(path.cargo_no, query),
});

export const handler = lambdaHandler(spec, process.env);
