import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { makeZongpaiReopen } from '../lib/zongpai/reopen.ts';
import { oneZongpai } from '../lib/zongpai/schemas.ts';
import { ZongpaiResponse } from '../lib/contract/responses.ts';
import { DATABASE } from '../lib/openapi/route-docs.ts';

/** POST /v1/zongpai/{zongpai_no}/reopen: a supervisor reopens a closed zongpai to correct a mistake. */
export const spec = defineRoute({
  id: 'ZongpaiReopen',
  method: 'POST',
  path: '/v1/zongpai/{zongpai_no}/reopen',
  access: 'supervisor',
  status: 200,
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
        summary: 'Reopen a closed zongpai to correct a mistake',
        description:
          'Supervisors only; the reopening is kept with the close it undid. Reopening an open zongpai answers it as it is and changes nothing.',
        response: { schema: ZongpaiResponse, description: 'The zongpai, OPEN' },
        errors: ['INVALID_ZONGPAI', 'ZONGPAI_NOT_FOUND', ...DATABASE],
      }),
  ...oneZongpai,
  make: makeZongpaiReopen,
  handle: (reopen, { path, caller, idempotency }) => reopen(path.zongpai_no, caller.username, idempotency),
});

export const handler = lambdaHandler(spec, process.env);
