import { defineRoute, lambdaHandler, STATEMENT } from '../lib/http/route.ts';
import { makeZongpaiSchemas } from '../lib/zongpai/schemas.ts';
import { makeZongpaiClose } from '../lib/zongpai/zongpai.ts';

/** POST /v1/zongpai/{zongpai_no}/close: no more boxes may be appended or moved in or out (supervisors). */
export const spec = defineRoute({
  id: 'ZongpaiClose',
  method: 'POST',
  path: '/v1/zongpai/{zongpai_no}/close',
  access: 'supervisor',
  status: 200,
  dataApi: STATEMENT,
  example: { path: { zongpai_no: 'PLT-0001' } },
  schemas: ({ fields }) => ({ path: makeZongpaiSchemas(fields).zongpaiPath }),
  handle: (runtime) => {
    const close = makeZongpaiClose({ db: runtime.db(), config: runtime.config });
    return ({ path, caller, idempotency }) => close(path.zongpai_no, caller.username, idempotency);
  },
});

export const handler = lambdaHandler(spec, process.env);
