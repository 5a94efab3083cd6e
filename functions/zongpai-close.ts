import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { oneZongpai } from '../lib/zongpai/schemas.ts';
import { makeZongpaiClose } from '../lib/zongpai/close.ts';
import { ZongpaiResponse } from '../lib/contract/responses.ts';
import { DATABASE } from '../lib/openapi/route-docs.ts';

/** POST /v1/zongpai/{zongpai_no}/close: no more boxes may be appended or moved in or out (supervisors). */
export const spec = defineRoute({
  id: 'ZongpaiClose',
  method: 'POST',
  path: '/v1/zongpai/{zongpai_no}/close',
  access: 'supervisor',
  status: 200,
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
        summary: 'Close a zongpai: no more boxes in or out',
        description:
          'Closing an empty zongpai is allowed. Closing a closed one answers it as it is and changes nothing.',
        response: { schema: ZongpaiResponse, description: 'The closed zongpai' },
        errors: ['INVALID_ZONGPAI', 'ZONGPAI_NOT_FOUND', ...DATABASE],
      }),
  ...oneZongpai,
  make: makeZongpaiClose,
  handle: (close, { path, caller, idempotency }) => close(path.zongpai_no, caller.username, idempotency),
});

export const handler = lambdaHandler(spec, process.env);
