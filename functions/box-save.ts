import { makeBoxSave } from '../lib/box/index.ts';
import { makeBoxSchemas } from '../lib/box/schemas.ts';
import { defineRoute, lambdaHandler } from '../lib/http/route.ts';

/** POST /v1/box: save what was boxed and append the box to its zongpai (`BoxSaveRequest` → `BoxSaveResponse`). */
export const spec = defineRoute({
  id: 'BoxSave',
  method: 'POST',
  path: '/v1/box',
  access: 'operator',
  status: 201,
  example: {
    body: { box_no: 'BOX-1001', zongpai_no: 'PLT-0001', items: [{ item_code: 'SKU-TEA-250', quantity: 24 }] },
  },
  schemas: ({ config, fields }) => makeBoxSchemas(config, fields).save,
  make: makeBoxSave,
  handle: (save, { body, caller, idempotency }) => save(body, caller.username, idempotency),
});

export const handler = lambdaHandler(spec, process.env);
