import { defineRoute, lambdaHandler, STATEMENT } from '../lib/http/route.ts';
import { makeZongpaiReopen } from '../lib/zongpai/reopen.ts';
import { makeZongpaiSchemas } from '../lib/zongpai/schemas.ts';

/** POST /v1/zongpai/{zongpai_no}/reopen: a supervisor reopens a closed zongpai to correct a mistake. */
export const spec = defineRoute({
  id: 'ZongpaiReopen',
  method: 'POST',
  path: '/v1/zongpai/{zongpai_no}/reopen',
  access: 'supervisor',
  status: 200,
  dataApi: STATEMENT,
  example: { path: { zongpai_no: 'PLT-0001' } },
  schemas: ({ fields }) => ({ path: makeZongpaiSchemas(fields).zongpaiPath }),
  handle: (runtime) => {
    const reopen = makeZongpaiReopen({ db: runtime.db() });
    return ({ path, caller, idempotency }) => reopen(path.zongpai_no, caller.username, idempotency);
  },
});

export const handler = lambdaHandler(spec, process.env);
