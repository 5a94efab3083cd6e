import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { makeOrderProgress } from '../lib/order/progress.ts';
import { makeOrderSchemas } from '../lib/order/schemas.ts';
import { boxPageQuery } from '../lib/rules/query.ts';

/** GET /v1/orders/{order_no}?limit=&cursor=: packing progress of an ERP order: its planned boxes, what is boxed, where they are. */
export const spec = defineRoute({
  id: 'OrderGet',
  method: 'GET',
  path: '/v1/orders/{order_no}',
  access: 'reader',
  status: 200,
  example: { path: { order_no: 'SO-24001' } },
  schemas: ({ fields }) => ({ path: makeOrderSchemas(fields).orderPath, query: boxPageQuery() }),
  make: makeOrderProgress,
  handle: (progress, { path, query }) => progress(path.order_no, query),
});

export const handler = lambdaHandler(spec, process.env);
