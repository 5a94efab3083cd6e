import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { makePackingList } from '../lib/zongpai/packing-list.ts';
import { makeZongpaiSchemas, oneZongpai } from '../lib/zongpai/schemas.ts';
import { boxPageQuery } from '../lib/rules/query.ts';

/** GET /v1/zongpai/{zongpai_no}/packing-list?limit=&cursor=: every box on the zongpai with its order, customer and items; totals per item. */
export const spec = defineRoute({
  id: 'ZongpaiPackingList',
  method: 'GET',
  path: '/v1/zongpai/{zongpai_no}/packing-list',
  access: 'reader',
  status: 200,
  example: oneZongpai.example,
  schemas: ({ fields }) => ({ path: makeZongpaiSchemas(fields).zongpaiPath, query: boxPageQuery() }),
  make: makePackingList,
  handle: (packingList, { path, query }) => packingList(path.zongpai_no, query),
});

export const handler = lambdaHandler(spec, process.env);
