import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { makeZongpaiList } from '../lib/zongpai/list.ts';
import { makeZongpaiSchemas } from '../lib/zongpai/schemas.ts';

/** GET /v1/zongpai?status=&limit=&cursor=: zongpais, newest first, optionally only OPEN or CLOSED, paginated. */
export const spec = defineRoute({
  id: 'ZongpaiList',
  method: 'GET',
  path: '/v1/zongpai',
  access: 'reader',
  status: 200,
  example: { query: { status: 'OPEN', limit: '20' } },
  schemas: ({ fields }) => ({ query: makeZongpaiSchemas(fields).listQuery }),
  make: makeZongpaiList,
  handle: (list, { query }) => list(query),
});

export const handler = lambdaHandler(spec, process.env);
