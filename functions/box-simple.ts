import { makeBoxSave } from '../lib/box/index.ts';
import { makeBoxSchemas } from '../lib/box/schemas.ts';
import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { BoxSaveResponse } from '../lib/contract/responses.ts';
import { DATABASE, ERP_VIEW } from '../lib/openapi/route-docs.ts';

/** POST /v1/box/simple: one scan of box and zongpai; the box holds exactly its ERP plan. */
export const spec = defineRoute({
  id: 'BoxSimpleSave',
  method: 'POST',
  path: '/v1/box/simple',
  access: 'operator',
  status: 201,
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
        summary: 'Simplified boxing: the box holds exactly its ERP plan',
        response: { schema: BoxSaveResponse, description: 'The saved box' },
        errors: [
          'INVALID_BOX_NO',
          'INVALID_ZONGPAI',
          'BOX_NOT_FOUND',
          'ZONGPAI_NOT_FOUND',
          'BOX_ALREADY_BOXED',
          'ZONGPAI_CLOSED',
          'ERP_PLAN_INVALID',
          ...DATABASE,
          ...ERP_VIEW,
        ],
      }),
  example: { body: { box_no: 'BOX-1001', zongpai_no: 'PLT-0001' } },
  schemas: ({ config, fields }) => makeBoxSchemas(config, fields).simple,
  make: makeBoxSave,
  handle: (save, { body, caller, idempotency }) =>
    save({ box_no: body.box_no, zongpai_no: body.zongpai_no }, caller.username, idempotency),
});

export const handler = lambdaHandler(spec, process.env);
