import { defineRoute, lambdaHandler, STATEMENT } from '../lib/http/route.ts';
import { makePackingList } from '../lib/zongpai/packing-list.ts';
import { makeZongpaiSchemas } from '../lib/zongpai/schemas.ts';

/** GET /v1/zongpai/{zongpai_no}/packing-list: every box on the zongpai with its order, customer and items; totals per item. */
export const spec = defineRoute({
  id: 'ZongpaiPackingList',
  method: 'GET',
  path: '/v1/zongpai/{zongpai_no}/packing-list',
  access: 'reader',
  status: 200,
  dataApi: STATEMENT,
  example: { path: { zongpai_no: 'PLT-0001' } },
  schemas: ({ fields }) => ({ path: makeZongpaiSchemas(fields).zongpaiPath }),
  handle: (runtime) => {
    const packingList = makePackingList({ db: runtime.db(), config: runtime.config });
    return ({ path }) => packingList(path.zongpai_no);
  },
});

export const handler = lambdaHandler(spec, process.env);
