import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { makeRegisterSchemas } from '../lib/location-register/schemas.ts';
import { makeLocationList } from '../lib/location-register/register.ts';
import { LIMIT_DOC } from '../lib/openapi/fields.ts';
import { LocationListResponse } from '../lib/contract/register.ts';
import { DATABASE } from '../lib/openapi/route-docs.ts';

/** GET /v1/{service_prefix}/locations?kind=&zone=&blocked=&limit=&cursor=: the location register by code, paginated. */
export const spec = defineRoute({
  id: 'LocationList',
  method: 'GET',
  path: '/v1/{service_prefix}/locations',
  access: 'reader',
  status: 200,
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
        summary: 'The location register, by code',
        description:
          'Optionally only one `kind`, one `zone`, or blocked (`blocked=true`) or unblocked ones. A page at a time: pass `next_cursor` as `cursor` for the next page (with the same filters).',
        query: { limit: LIMIT_DOC },
        response: { schema: LocationListResponse, description: 'One page of the register' },
        errors: ['VALIDATION_ERROR', ...DATABASE],
      }),
  example: { query: { kind: 'DOCK', limit: '20' } },
  schemas: ({ fields }) => ({ query: makeRegisterSchemas(fields).listQuery }),
  make: makeLocationList,
  handle: (list, { query }) => list(query),
});

export const handler = lambdaHandler(spec, process.env);
