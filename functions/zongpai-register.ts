import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { makeZongpaiSchemas } from '../lib/zongpai/schemas.ts';
import { makeZongpaiRegister } from '../lib/zongpai/register.ts';

/** POST /v1/zongpai: register a zongpai (a master tag such as a pallet) that boxes can be appended to. */
export const spec = defineRoute({
  id: 'ZongpaiRegister',
  method: 'POST',
  path: '/v1/zongpai',
  access: 'operator',
  status: 201,
  example: { body: { zongpai_no: 'PLT-0001' } },
  schemas: ({ fields }) => ({ body: makeZongpaiSchemas(fields).registerBody }),
  make: makeZongpaiRegister,
  handle: (register, { body, caller, idempotency }) => register(body, caller.username, idempotency),
});

export const handler = lambdaHandler(spec, process.env);
