import { DATABASE, documentRoute } from '../../lib/openapi/route-docs.ts';
import { VoidedRecordResponse } from '../../lib/contract/common.ts';

/** What the API reference says of DELETE /v1/{service_prefix}/location/{cargo_no}/records/{id} (functions/location-void.ts). */
export const documentation = documentRoute('LocationVoid', () => ({
  summary: 'Void a wrong scan (supervisors)',
  description:
    'The record stays in the history marked voided and no longer counts for the current location. Needs the record version (body field or If-Match): 1 until voided, 2 after (naming 2 of a voided record answers it unchanged).',
  response: { schema: VoidedRecordResponse, description: 'The voided record' },
  errors: ['INVALID_BOX_NO', 'VALIDATION_ERROR', 'RECORD_NOT_FOUND', 'VERSION_CONFLICT', ...DATABASE],
}));
