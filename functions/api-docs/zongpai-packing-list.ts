import { BOX_PAGES, DATABASE, documentRoute, ERP_VIEW } from '../../lib/openapi/route-docs.ts';
import { BOX_PAGE_LIMIT_DOC } from '../../lib/openapi/fields.ts';
import { PackingListResponse } from '../../lib/contract/responses.ts';

/** What the API reference says of GET /v1/zongpai/{zongpai_no}/packing-list (functions/zongpai-packing-list.ts). */
export const documentation = documentRoute('ZongpaiPackingList', () => ({
  summary: 'The packing list of a zongpai: every box with its order, customer and items; totals per item',
  description: `${BOX_PAGES} The box count and total quantity are over the whole zongpai on every page.`,
  query: { limit: BOX_PAGE_LIMIT_DOC },
  response: { schema: PackingListResponse, description: 'The packing list' },
  errors: ['INVALID_ZONGPAI', 'VALIDATION_ERROR', 'ZONGPAI_NOT_FOUND', ...DATABASE, ...ERP_VIEW],
}));
