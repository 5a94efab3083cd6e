import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { makeZongpaiList } from '../lib/zongpai/list.ts';
import { makeZongpaiSchemas } from '../lib/zongpai/schemas.ts';
import { LIMIT_DOC } from '../lib/openapi/fields.ts';
import { ZongpaiListResponse } from '../lib/contract/responses.ts';
import { DATABASE } from '../lib/openapi/route-docs.ts';

/** GET /v1/zongpai?status=&limit=&cursor=: zongpais, newest first, optionally only OPEN or CLOSED, paginated. */
export const spec = defineRoute({
  id: 'ZongpaiList',
  method: 'GET',
  path: '/v1/zongpai',
  access: 'reader',
  status: 200,
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
        summary: 'Zongpais, newest first, optionally only OPEN or CLOSED',
        description: 'A page at a time: pass `next_cursor` as `cursor` for the next page (with the same `status`).',
        query: { limit: LIMIT_DOC },
        response: { schema: ZongpaiListResponse, description: 'One page of zongpais' },
        errors: ['VALIDATION_ERROR', ...DATABASE],
      }),
  example: { query: { status: 'OPEN', limit: '20' } },
  schemas: ({ fields }) => ({ query: makeZongpaiSchemas(fields).listQuery }),
  make: makeZongpaiList,
  handle: (list, { query }) => list(query),
});

export const handler = lambdaHandler(spec, process.env);
