import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { makeOrderProgress } from '../lib/order/progress.ts';
import { makeOrderSchemas } from '../lib/order/schemas.ts';
import { BOX_PAGE_LIMIT_DOC } from '../lib/openapi/fields.ts';
import { OrderResponse } from '../lib/contract/responses.ts';
import { BOX_PAGES, DATABASE, ERP_VIEW } from '../lib/openapi/route-docs.ts';
import { boxPageQuery } from '../lib/rules/query.ts';

/** GET /v1/orders/{order_no}?limit=&cursor=: packing progress of an ERP order: its planned boxes, what is boxed, where they are. */
export const spec = defineRoute({
  id: 'OrderGet',
  method: 'GET',
  path: '/v1/orders/{order_no}',
  access: 'reader',
  status: 200,
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
        summary: 'Packing progress of an ERP order',
        description: `Every box the ERP plans for the order with its status, zongpai, current location and planned against boxed quantity per item; the totals per item; whether the order is fully boxed. \`order_no\` is matched exactly as the ERP holds it (trimmed, not upper-cased). ${BOX_PAGES} The counts are over the whole order on every page.`,
        query: { limit: BOX_PAGE_LIMIT_DOC },
        response: { schema: OrderResponse, description: 'The order' },
        errors: ['INVALID_ORDER_NO', 'VALIDATION_ERROR', 'ORDER_NOT_FOUND', ...DATABASE, ...ERP_VIEW],
      }),
  example: { path: { order_no: 'SO-24001' } },
  schemas: ({ fields }) => ({ path: makeOrderSchemas(fields).orderPath, query: boxPageQuery() }),
  make: makeOrderProgress,
  handle: (progress, { path, query }) => progress(path.order_no, query),
});

export const handler = lambdaHandler(spec, process.env);
