import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { oneZongpai } from '../lib/zongpai/schemas.ts';
import { makeZongpaiGet } from '../lib/zongpai/zongpai.ts';

/** GET /v1/zongpai/{zongpai_no}: the zongpai with its boxes and totals. */
export const spec = defineRoute({
  id: 'ZongpaiGet',
  method: 'GET',
  path: '/v1/zongpai/{zongpai_no}',
  access: 'reader',
  status: 200,
  ...oneZongpai,
  make: makeZongpaiGet,
  handle: (get, { path }) => get(path.zongpai_no),
});

export const handler = lambdaHandler(spec, process.env);
