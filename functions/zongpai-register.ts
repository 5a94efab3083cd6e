import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { makeZongpaiSchemas } from '../lib/zongpai/schemas.ts';
import { makeZongpaiRegister } from '../lib/zongpai/register.ts';
import { ZongpaiResponse } from '../lib/contract/responses.ts';
import { DATABASE, ERP_VIEW } from '../lib/openapi/route-docs.ts';

/** POST /v1/zongpai: register a zongpai (a master tag such as a pallet) that boxes can be appended to. */
export const spec = defineRoute({
  id: 'ZongpaiRegister',
  method: 'POST',
  path: '/v1/zongpai',
  access: 'operator',
  status: 201,
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
        summary: 'Register a zongpai (a master tag such as a pallet)',
        description:
          'Names the zongpai (`zongpai_no`), or with `"sscc": true` and no `zongpai_no` registers the next SSCC: the extension digit (`SSCC_EXTENSION_DIGIT`), the GS1 company prefix (`GS1_COMPANY_PREFIX`), a serial reference the service never hands out twice, and the GS1 check digit.',
        response: { schema: ZongpaiResponse, description: 'The new zongpai, OPEN and empty' },
        errors: [
          'INVALID_ZONGPAI',
          'ZONGPAI_ALREADY_EXISTS',
          'SSCC_NOT_CONFIGURED',
          'SSCC_EXHAUSTED',
          ...DATABASE,
          ...ERP_VIEW,
        ],
      }),
  example: { body: { zongpai_no: 'PLT-0001' } },
  schemas: ({ fields }) => ({ body: makeZongpaiSchemas(fields).registerBody }),
  make: makeZongpaiRegister,
  handle: (register, { body, caller, idempotency }) => register(body, caller.username, idempotency),
});

export const handler = lambdaHandler(spec, process.env);
