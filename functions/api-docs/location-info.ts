import { DATABASE, documentRoute } from '../../lib/openapi/route-docs.ts';
import { RegisteredLocation } from '../../lib/contract/register.ts';

/** What the API reference says of GET /v1/{service_prefix}/locations/{location_code} (functions/location-info.ts). */
export const documentation = documentRoute('LocationInfo', () => ({
  summary: 'One location of the location register',
  response: { schema: RegisteredLocation, description: 'The location' },
  errors: ['INVALID_LOCATION_CODE', 'LOCATION_NOT_FOUND', ...DATABASE],
}));
