import { zongpaiFromConfig, zongpaiSchemas } from '../lib/zongpai/wiring.ts';
import { route } from '../lib/http/route.ts';

const zongpai = zongpaiFromConfig();

/** GET /v1/zongpai/{zongpai_no}: the zongpai with its boxes and totals. */
export const handler = route({
  access: 'operator',
  status: 200,
  path: zongpaiSchemas.zongpaiPath,
  handle: ({ path }) => zongpai.get(path.zongpai_no),
});
