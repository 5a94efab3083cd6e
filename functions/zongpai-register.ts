import { zongpaiFromConfig, zongpaiSchemas } from '../lib/zongpai/wiring.ts';
import { route } from '../lib/http/route.ts';

const zongpai = zongpaiFromConfig();

/** POST /v1/zongpai: register a zongpai (a master tag such as a pallet) that boxes can be appended to. */
export const handler = route({
  access: 'operator',
  status: 201,
  body: zongpaiSchemas.registerBody,
  handle: ({ body, caller, idempotency }) => zongpai.register(body.zongpai_no, caller.username, idempotency),
});
