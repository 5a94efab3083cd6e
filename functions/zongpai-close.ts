import { zongpaiFromConfig, zongpaiSchemas } from '../lib/zongpai/wiring.ts';
import { route } from '../lib/http/route.ts';

const zongpai = zongpaiFromConfig();

/** POST /v1/zongpai/{zongpai_no}/close: no more boxes may be appended or moved in or out (supervisors). */
export const handler = route({
  access: 'supervisor',
  status: 200,
  path: zongpaiSchemas.zongpaiPath,
  handle: ({ path, caller, idempotency }) => zongpai.close(path.zongpai_no, caller.username, idempotency),
});
