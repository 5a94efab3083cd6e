import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { makeZongpaiReopen } from '../lib/zongpai/reopen.ts';
import { zongpaiStateChange } from '../lib/zongpai/schemas.ts';

/** POST /v1/zongpai/{zongpai_no}/reopen: a supervisor reopens a closed zongpai to correct a mistake. */
export const spec = defineRoute({
  id: 'ZongpaiReopen',
  method: 'POST',
  path: '/v1/zongpai/{zongpai_no}/reopen',
  access: 'supervisor',
  status: 200,
  ...zongpaiStateChange,
  make: makeZongpaiReopen,
  handle: (reopen, { path, caller, idempotency }) => reopen(path.zongpai_no, caller.username, idempotency),
});

export const handler = lambdaHandler(spec, process.env);
