import { makeBoxSave } from '../lib/box/index.ts';
import { makeBoxSchemas } from '../lib/box/schemas.ts';
import { defineRoute, lambdaHandler, STATEMENT } from '../lib/http/route.ts';

/** POST /v1/box: save what was boxed and append the box to its zongpai (`BoxSaveRequest` → `BoxSaveResponse`). */
export const spec = defineRoute({
  id: 'BoxSave',
  method: 'POST',
  path: '/v1/box',
  access: 'operator',
  status: 201,
  dataApi: STATEMENT,
  example: { body: { box_no: 'BOX-1001', zongpai_no: 'PLT-0001', items: [{ item_code: 'SKU-TEA-250', quantity: 24 }] } },
  schemas: ({ config, fields }) => ({ body: makeBoxSchemas(config, fields).saveBody }),
  handle: (runtime) => {
    const save = makeBoxSave({ db: runtime.db(), config: runtime.config, logger: runtime.logger });
    return ({ body, caller, idempotency }) => save(body, caller.username, idempotency);
  },
});

export const handler = lambdaHandler(spec, process.env);
