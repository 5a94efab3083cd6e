import { BOX_PAGES, DATABASE, documentRoute, ERP_VIEW } from '../../lib/openapi/route-docs.ts';
import { BOX_PAGE_LIMIT_DOC } from '../../lib/openapi/fields.ts';
import { OrderResponse } from '../../lib/contract/responses.ts';

/** What the API reference says of GET /v1/orders/{order_no} (functions/order-get.ts). */
export const documentation = documentRoute('OrderGet', () => ({
  summary: 'Packing progress of an ERP order',
  description: `Every box the ERP plans for the order with its status, zongpai, current location and planned against boxed quantity per item; the totals per item; whether the order is fully boxed. \`order_no\` is matched exactly as the ERP holds it (trimmed, not upper-cased). ${BOX_PAGES} The counts are over the whole order on every page.`,
  query: { limit: BOX_PAGE_LIMIT_DOC },
  response: { schema: OrderResponse, description: 'The order' },
  errors: ['INVALID_ORDER_NO', 'VALIDATION_ERROR', 'ORDER_NOT_FOUND', ...DATABASE, ...ERP_VIEW],
}));
