import { defineRoute, answerWith, lambdaHandler } from '../lib/http/route.ts';
import { requestVersion } from '../lib/http/if-match.ts';
import { makeRegisterSchemas } from '../lib/location-register/schemas.ts';
import { makeLocationPut } from '../lib/location-register/register.ts';
import { RegisteredLocation } from '../lib/contract/register.ts';
import { DATABASE, ERP_VIEW } from '../lib/openapi/route-docs.ts';

/** PUT /v1/{service_prefix}/locations/{location_code}: register or change one location of the register (supervisors). */
export const spec = defineRoute({
  id: 'LocationPut',
  method: 'PUT',
  path: '/v1/{service_prefix}/locations/{location_code}',
  access: 'supervisor',
  status: 200,
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
        summary: 'Register or change one location of the location register',
        description:
          'The body is the whole location: a zone or description left out is none, `blocked` left out is false. `off_shelf` follows from `kind` (false for SHELF only). A `version` (body field or If-Match) makes the change conditional on it. A PUT that changes nothing answers the location as it is, with no new version and no event. A code that is a registered zongpai, a saved box or a box of the ERP plan cannot be a location.',
        response: { schema: RegisteredLocation, description: 'The location, changed or as it was' },
        alsoAnswers: { status: 201, description: 'The location, registered at version 1' },
        errors: [
          'INVALID_LOCATION_CODE',
          'VALIDATION_ERROR',
          'VERSION_CONFLICT',
          'LOCATION_IS_CARGO',
          ...DATABASE,
          ...ERP_VIEW,
        ],
      }),
  versioned: true,
  example: { path: { location_code: 'DOCK-9' }, body: { kind: 'DOCK', zone: 'YARD', description: 'Dock 9' } },
  schemas: ({ fields }) => {
    const s = makeRegisterSchemas(fields);
    return { path: s.path, body: s.putBody };
  },
  make: makeLocationPut,
  handle: async (put, { path, body, headers, caller, idempotency }) => {
    const version =
      body.version === undefined && (headers['if-match'] ?? '').trim() === ''
        ? undefined
        : requestVersion(body.version, headers['if-match'], {
            header: { reason: 'if_match_form', versioned: 'location' },
            missing: { reason: 'version_below_one' },
          });
    const { created, location } = await put(
      { location_code: path.location_code, ...body, version },
      caller.username,
      idempotency,
    );
    return created ? answerWith(201, location) : location;
  },
});

export const handler = lambdaHandler(spec, process.env);
