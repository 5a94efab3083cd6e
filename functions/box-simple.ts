import { makeBoxSave } from '../lib/box/index.ts';
import { boxingOptions, boxSchemas } from '../lib/box/wiring.ts';
import { route } from '../lib/http/route.ts';

const save = makeBoxSave(boxingOptions());

/** POST /v1/box/simple: one scan of box and zongpai; the box holds exactly its ERP plan. */
export const handler = route({
  access: 'operator',
  status: 201,
  body: boxSchemas.simpleBody,
  handle: ({ body, caller, idempotency }) => save({ box_no: body.box_no, zongpai_no: body.zongpai_no }, caller.username, idempotency),
});
