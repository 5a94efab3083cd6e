import { defineRoute, lambdaHandler, STATEMENT } from '../lib/http/route.ts';
import { makeZongpaiSchemas } from '../lib/zongpai/schemas.ts';
import { makeZongpaiGet } from '../lib/zongpai/zongpai.ts';
import { ZongpaiResponse } from '../lib/openapi/responses.ts';
import { DATABASE } from '../lib/openapi/route-docs.ts';

/** GET /v1/zongpai/{zongpai_no}: the zongpai with its boxes and totals. */
export const spec = defineRoute({
  id: 'ZongpaiGet',
  method: 'GET',
  path: '/v1/zongpai/{zongpai_no}',
  access: 'reader',
  status: 200,
  dataApi: STATEMENT,
  example: { path: { zongpai_no: 'PLT-0001' } },
  schemas: ({ fields }) => ({ path: makeZongpaiSchemas(fields).zongpaiPath }),
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
        summary: 'A zongpai with its boxes and totals',
        response: { schema: ZongpaiResponse, description: 'The zongpai' },
        errors: ['INVALID_ZONGPAI', 'VALIDATION_ERROR', 'ZONGPAI_NOT_FOUND', ...DATABASE],
      }),
  make: makeZongpaiGet,
  handle: (get, { path }) => get(path.zongpai_no),
});

export const handler = lambdaHandler(spec, process.env);
