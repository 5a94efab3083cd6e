import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { makeRegisterSchemas } from '../lib/location-register/schemas.ts';
import { makeLocationImport } from '../lib/location-register/register.ts';
import { LocationImportResponse } from '../lib/contract/register.ts';
import { DATABASE, ERP_VIEW } from '../lib/openapi/route-docs.ts';

/** POST /v1/{service_prefix}/locations: import up to 500 locations into the register at once (supervisors). */
export const spec = defineRoute({
  id: 'LocationImport',
  method: 'POST',
  path: '/v1/{service_prefix}/locations',
  access: 'supervisor',
  status: 200,
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
        summary: 'Import up to 500 locations into the location register',
        description:
          'Each location as for PUT, without a version: an import is authoritative and overwrites. All are stored in one statement, or none when one is refused (the error names the index of each bad location, a code listed twice included).',
        response: {
          schema: LocationImportResponse,
          description: 'How many were created, changed and already as imported',
        },
        errors: ['INVALID_LOCATION_CODE', 'VALIDATION_ERROR', 'LOCATION_IS_CARGO', ...DATABASE, ...ERP_VIEW],
      }),
  example: { body: { locations: [{ location_code: 'A-01', kind: 'SHELF', zone: 'A' }] } },
  schemas: ({ fields }) => ({ body: makeRegisterSchemas(fields).importBody }),
  make: makeLocationImport,
  handle: (load, { body, caller, idempotency }) => load(body.locations, caller.username, idempotency),
});

export const handler = lambdaHandler(spec, process.env);
