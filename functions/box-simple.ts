import { makeBoxSave } from '../lib/box/index.ts';
import { makeBoxSchemas } from '../lib/box/schemas.ts';
import { defineRoute, lambdaHandler } from '../lib/http/route.ts';

/** POST /v1/box/simple: one scan of box and zongpai; the box holds exactly its ERP plan. */
export const spec = defineRoute({
  id: 'BoxSimpleSave',
  method: 'POST',
  path: '/v1/box/simple',
  access: 'operator',
  status: 201,
  example: { body: { box_no: 'BOX-1001', zongpai_no: 'PLT-0001' } },
  schemas: ({ config, fields }) => makeBoxSchemas(config, fields).simple,
  make: makeBoxSave,
  handle: (save, { body, caller, idempotency }) =>
    save({ box_no: body.box_no, zongpai_no: body.zongpai_no }, caller.username, idempotency),
});

export const handler = lambdaHandler(spec, process.env);
