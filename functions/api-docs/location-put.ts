import { DATABASE, documentRoute, ERP_VIEW } from '../../lib/openapi/route-docs.ts';
import { RegisteredLocation } from '../../lib/contract/register.ts';

/** What the API reference says of PUT /v1/{service_prefix}/locations/{location_code} (functions/location-put.ts). */
export const documentation = documentRoute('LocationPut', () => ({
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
}));
