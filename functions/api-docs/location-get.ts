import { DATABASE, documentRoute } from '../../lib/openapi/route-docs.ts';
import { CargoLocationResponse } from '../../lib/contract/common.ts';
import { LIMIT_DOC } from '../../lib/openapi/fields.ts';

/** What the API reference says of GET /v1/{service_prefix}/location/{cargo_no} (functions/location-get.ts). */
export const documentation = documentRoute('LocationGet', () => ({
  summary: 'Where a box or zongpai is, and where it was',
  description:
    "The current location (of a box on a zongpai: the newer of its own last record and its zongpai's) and one page of its history, newest first. `current` is null when every scan of the cargo was voided; the voided scans stay in the history.",
  query: { limit: LIMIT_DOC },
  response: { schema: CargoLocationResponse, description: 'Where the cargo is and was' },
  errors: ['INVALID_BOX_NO', 'VALIDATION_ERROR', 'CARGO_NOT_FOUND', ...DATABASE],
}));
