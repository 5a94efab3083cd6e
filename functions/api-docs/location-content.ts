import { DATABASE, documentRoute } from '../../lib/openapi/route-docs.ts';
import { LocationContentResponse } from '../../lib/contract/common.ts';
import { LIMIT_DOC } from '../../lib/openapi/fields.ts';

/** What the API reference says of GET /v1/{service_prefix}/locations/{location_code}/cargo (functions/location-content.ts). */
export const documentation = documentRoute('LocationContent', () => ({
  summary: 'What is at a location now',
  description:
    'The cargo whose current location is this location, by cargo_no, a page at a time; the boxes on a zongpai are listed under it. `kind` is ZONGPAI for a registered zongpai, BOX for a box this service has boxed (saved at least once), CARGO for anything else scanned (an ERP box never boxed included). A page looks at no more than 4 × limit current locations: it may hold fewer than limit entries while next_cursor goes on.',
  query: { limit: LIMIT_DOC },
  response: { schema: LocationContentResponse, description: 'What is at the location' },
  errors: ['INVALID_LOCATION_CODE', 'VALIDATION_ERROR', ...DATABASE],
}));
