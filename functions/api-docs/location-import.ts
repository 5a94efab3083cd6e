import { DATABASE, documentRoute, ERP_VIEW } from '../../lib/openapi/route-docs.ts';
import { LocationImportResponse } from '../../lib/contract/register.ts';

/** What the API reference says of POST /v1/{service_prefix}/locations (functions/location-import.ts). */
export const documentation = documentRoute('LocationImport', () => ({
  summary: 'Import up to 500 locations into the location register',
  description:
    'Each location as for PUT, without a version: an import is authoritative and overwrites. All are stored in one statement, or none when one is refused (the error names the index of each bad location, a code listed twice included).',
  response: {
    schema: LocationImportResponse,
    description: 'How many were created, changed and already as imported',
  },
  errors: ['INVALID_LOCATION_CODE', 'VALIDATION_ERROR', 'LOCATION_IS_CARGO', ...DATABASE, ...ERP_VIEW],
}));
