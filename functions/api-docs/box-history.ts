import { DATABASE, documentRoute, ERP_VIEW } from '../../lib/openapi/route-docs.ts';
import { BoxHistoryResponse } from '../../lib/contract/responses.ts';

/** What the API reference says of GET /v1/box/{box_no}/history (functions/box-history.ts). */
export const documentation = documentRoute('BoxHistory', () => ({
  summary: 'Every save, edit and undo of a box, oldest first',
  response: { schema: BoxHistoryResponse, description: 'The audit trail' },
  errors: ['INVALID_BOX_NO', 'VALIDATION_ERROR', 'BOX_NOT_FOUND', ...DATABASE, ...ERP_VIEW],
}));
