import { defineRoute, answerWith, lambdaHandler } from '../lib/http/route.ts';
import { LOCATION_VERSION } from '../lib/http/if-match.ts';
import { makeRegisterSchemas } from '../lib/location-register/schemas.ts';
import { makeLocationPut } from '../lib/location-register/register.ts';

/** PUT /v1/{service_prefix}/locations/{location_code}: register or change one location of the register (supervisors). */
export const spec = defineRoute({
  id: 'LocationPut',
  method: 'PUT',
  path: '/v1/{service_prefix}/locations/{location_code}',
  access: 'supervisor',
  status: 200,
  versioned: LOCATION_VERSION,
  example: { path: { location_code: 'DOCK-9' }, body: { kind: 'DOCK', zone: 'YARD', description: 'Dock 9' } },
  schemas: ({ fields }) => {
    const s = makeRegisterSchemas(fields);
    return { path: s.path, body: s.putBody };
  },
  make: makeLocationPut,
  handle: async (put, { path, body, version, caller, idempotency }) => {
    const { created, location } = await put(
      { location_code: path.location_code, ...body, version },
      caller.username,
      idempotency,
    );
    return created ? answerWith(201, location) : location;
  },
});

export const handler = lambdaHandler(spec, process.env);
