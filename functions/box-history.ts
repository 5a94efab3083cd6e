import { makeBoxHistory } from '../lib/box/index.ts';
import { makeBoxSchemas } from '../lib/box/schemas.ts';
import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { BoxHistoryResponse } from '../lib/contract/responses.ts';
import { DATABASE, ERP_VIEW } from '../lib/openapi/route-docs.ts';

/** GET /v1/box/{box_no}/history: every save, edit and undo of the box, who and when, oldest first. */
export const spec = defineRoute({
  id: 'BoxHistory',
  method: 'GET',
  path: '/v1/box/{box_no}/history',
  access: 'operator',
  status: 200,
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
        summary: 'Every save, edit and undo of a box, oldest first',
        response: { schema: BoxHistoryResponse, description: 'The audit trail' },
        errors: ['INVALID_BOX_NO', 'VALIDATION_ERROR', 'BOX_NOT_FOUND', ...DATABASE, ...ERP_VIEW],
      }),
  example: { path: { box_no: 'BOX-1001' } },
  schemas: ({ config, fields }) => makeBoxSchemas(config, fields).history,
  make: makeBoxHistory,
  handle: (history, { path }) => history(path.box_no),
});

export const handler = lambdaHandler(spec, process.env);
