import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { makeRegisterSchemas } from '../lib/location-register/schemas.ts';
import { makeLocationImport } from '../lib/location-register/register.ts';

/** POST /v1/{service_prefix}/locations: import up to 500 locations into the register at once (supervisors). */
export const spec = defineRoute({
  id: 'LocationImport',
  method: 'POST',
  path: '/v1/{service_prefix}/locations',
  access: 'supervisor',
  status: 200,
  example: { body: { locations: [{ location_code: 'A-01', kind: 'SHELF', zone: 'A' }] } },
  schemas: ({ fields }) => ({ body: makeRegisterSchemas(fields).importBody }),
  make: makeLocationImport,
  handle: (load, { body, caller, idempotency }) => load(body.locations, caller.username, idempotency),
});

export const handler = lambdaHandler(spec, process.env);
