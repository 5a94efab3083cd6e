import { defineRoute, lambdaHandler, STATEMENT } from '../lib/http/route.ts';
import { makeOrderProgress } from '../lib/order/progress.ts';
import { makeOrderSchemas } from '../lib/order/schemas.ts';

/** GET /v1/orders/{order_no}: packing progress of an ERP order: its planned boxes, what is boxed, where they are. */
export const spec = defineRoute({
  id: 'OrderGet',
  method: 'GET',
  path: '/v1/orders/{order_no}',
  access: 'reader',
  status: 200,
  dataApi: STATEMENT,
  example: { path: { order_no: 'SO-24001' } },
  schemas: ({ fields }) => ({ path: makeOrderSchemas(fields).orderPath }),
  handle: (runtime) => {
    const progress = makeOrderProgress({ db: runtime.db(), config: runtime.config });
    return ({ path }) => progress(path.order_no);
  },
});

export const handler = lambdaHandler(spec, process.env);
