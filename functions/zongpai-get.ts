import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { oneZongpai } from '../lib/zongpai/schemas.ts';
import { makeZongpaiGet } from '../lib/zongpai/zongpai.ts';
import { ZongpaiResponse } from '../lib/contract/responses.ts';
import { DATABASE } from '../lib/openapi/route-docs.ts';

/** GET /v1/zongpai/{zongpai_no}: the zongpai with its boxes and totals. */
export const spec = defineRoute({
  id: 'ZongpaiGet',
  method: 'GET',
  path: '/v1/zongpai/{zongpai_no}',
  access: 'reader',
  status: 200,
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
        summary: 'A zongpai with its boxes and totals',
        response: { schema: ZongpaiResponse, description: 'The zongpai' },
        errors: ['INVALID_ZONGPAI', 'VALIDATION_ERROR', 'ZONGPAI_NOT_FOUND', ...DATABASE],
      }),
  ...oneZongpai,
  make: makeZongpaiGet,
  handle: (get, { path }) => get(path.zongpai_no),
});

export const handler = lambdaHandler(spec, process.env);
