import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { zongpaiStateChange } from '../lib/zongpai/schemas.ts';
import { makeZongpaiClose } from '../lib/zongpai/close.ts';

/** POST /v1/zongpai/{zongpai_no}/close: no more boxes may be appended or moved in or out (supervisors). */
export const spec = defineRoute({
  id: 'ZongpaiClose',
  method: 'POST',
  path: '/v1/zongpai/{zongpai_no}/close',
  access: 'supervisor',
  status: 200,
  ...zongpaiStateChange,
  make: makeZongpaiClose,
  handle: (close, { path, caller, idempotency }) => close(path.zongpai_no, caller.username, idempotency),
});

export const handler = lambdaHandler(spec, process.env);
