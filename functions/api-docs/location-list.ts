import { DATABASE, documentRoute } from '../../lib/openapi/route-docs.ts';
import { LIMIT_DOC } from '../../lib/openapi/fields.ts';
import { LocationListResponse } from '../../lib/contract/register.ts';

/** What the API reference says of GET /v1/{service_prefix}/locations (functions/location-list.ts). */
export const documentation = documentRoute('LocationList', () => ({
  summary: 'The location register, by code',
  description:
    'Optionally only one `kind`, one `zone`, or blocked (`blocked=true`) or unblocked ones. A page at a time: pass `next_cursor` as `cursor` for the next page (with the same filters).',
  query: { limit: LIMIT_DOC },
  response: { schema: LocationListResponse, description: 'One page of the register' },
  errors: ['VALIDATION_ERROR', ...DATABASE],
}));
