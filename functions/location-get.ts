import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { makeCargoFinder, makeCargoLocationSchemas } from '../lib/location/index.ts';
import { CargoLocationResponse } from '../lib/contract/common.ts';
import { LIMIT_DOC } from '../lib/openapi/fields.ts';
import { DATABASE } from '../lib/openapi/route-docs.ts';

/** GET /v1/{service_prefix}/location/{cargo_no}: where the cargo is now, and where it was (newest first). */
export const spec = defineRoute({
  id: 'LocationGet',
  method: 'GET',
  path: '/v1/{service_prefix}/location/{cargo_no}',
  access: 'reader',
  status: 200,
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
        summary: 'Where a box or zongpai is, and where it was',
        description:
          "The current location (of a box on a zongpai: the newer of its own last record and its zongpai's) and one page of its history, newest first. `current` is null when every scan of the cargo was voided; the voided scans stay in the history.",
        query: { limit: LIMIT_DOC },
        response: { schema: CargoLocationResponse, description: 'Where the cargo is and was' },
        errors: ['INVALID_BOX_NO', 'VALIDATION_ERROR', 'CARGO_NOT_FOUND', ...DATABASE],
      }),
  example: { path: { cargo_no: 'BOX-1001' }, query: { limit: '20' } },
  schemas: ({ fields }) => makeCargoLocationSchemas(fields),
  make: makeCargoFinder,
  handle: (find, { path, query }) => find(path.cargo_no, query),
});

export const handler = lambdaHandler(spec, process.env);
