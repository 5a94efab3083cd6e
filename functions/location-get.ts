import { route } from '../lib/http/route.ts';
import { locationSchemas, makeCargoFinder } from '../lib/location/index.ts';
import { database } from '../lib/runtime.ts';

const find = makeCargoFinder({ db: database() });

/** GET /v1/{service_prefix}/location/{cargo_no}: where the cargo is now, and where it was (newest first). */
export const handler = route({
  access: 'operator',
  status: 200,
  path: locationSchemas.getPath,
  query: locationSchemas.getQuery,
  handle: ({ path, query }) => find(path.cargo_no, query),
});
