import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { makeLocationContent, makeLocationContentSchemas } from '../lib/location/index.ts';
import { LocationContentResponse } from '../lib/contract/common.ts';
import { LIMIT_DOC } from '../lib/openapi/fields.ts';
import { DATABASE } from '../lib/openapi/route-docs.ts';

/** GET /v1/{service_prefix}/locations/{location_code}/cargo: what is at a location now, a page at a time. */
export const spec = defineRoute({
  id: 'LocationContent',
  method: 'GET',
  path: '/v1/{service_prefix}/locations/{location_code}/cargo',
  access: 'reader',
  status: 200,
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
        summary: 'What is at a location now',
        description:
          'The cargo whose current location is this location, by cargo_no, a page at a time; the boxes on a zongpai are listed under it. `kind` is ZONGPAI for a registered zongpai, BOX for a box this service has boxed (saved at least once), CARGO for anything else scanned (an ERP box never boxed included). A page looks at no more than 4 × limit current locations: it may hold fewer than limit entries while next_cursor goes on.',
        query: { limit: LIMIT_DOC },
        response: { schema: LocationContentResponse, description: 'What is at the location' },
        errors: ['INVALID_LOCATION_CODE', 'VALIDATION_ERROR', ...DATABASE],
      }),
  example: { path: { location_code: 'DOCK-3' }, query: { limit: '20' } },
  schemas: ({ fields }) => makeLocationContentSchemas(fields),
  make: makeLocationContent,
  handle: (content, { path, query }) => content(path.location_code, query),
});

export const handler = lambdaHandler(spec, process.env);
