import { defineRoute, lambdaHandler, STATEMENT } from '../lib/http/route.ts';
import { makeZongpaiSchemas } from '../lib/zongpai/schemas.ts';
import { makeZongpaiRegister } from '../lib/zongpai/zongpai.ts';

/** POST /v1/zongpai: register a zongpai (a master tag such as a pallet) that boxes can be appended to. */
export const spec = defineRoute({
  id: 'ZongpaiRegister',
  method: 'POST',
  path: '/v1/zongpai',
  access: 'operator',
  status: 201,
  dataApi: STATEMENT,
  example: { body: { zongpai_no: 'PLT-0001' } },
  schemas: ({ fields }) => ({ body: makeZongpaiSchemas(fields).registerBody }),
  handle: (runtime) => {
    const register = makeZongpaiRegister({ db: runtime.db(), config: runtime.config });
    return ({ body, caller, idempotency }) => register(body.zongpai_no, caller.username, idempotency);
  },
});

export const handler = lambdaHandler(spec, process.env);
