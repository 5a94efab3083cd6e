import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { makeRegisterSchemas } from '../lib/location-register/schemas.ts';
import { makeLocationGet } from '../lib/location-register/register.ts';
import { RegisteredLocation } from '../lib/contract/register.ts';
import { DATABASE } from '../lib/openapi/route-docs.ts';

/** GET /v1/{service_prefix}/locations/{location_code}: one registered location. */
export const spec = defineRoute({
  id: 'LocationInfo',
  method: 'GET',
  path: '/v1/{service_prefix}/locations/{location_code}',
  access: 'reader',
  status: 200,
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
        summary: 'One location of the location register',
        response: { schema: RegisteredLocation, description: 'The location' },
        errors: ['INVALID_LOCATION_CODE', 'LOCATION_NOT_FOUND', ...DATABASE],
      }),
  example: { path: { location_code: 'DOCK-9' } },
  schemas: ({ fields }) => ({ path: makeRegisterSchemas(fields).path }),
  make: makeLocationGet,
  handle: (get, { path }) => get(path.location_code),
});

export const handler = lambdaHandler(spec, process.env);
