import { makeBoxSave } from '../lib/box/index.ts';
import { makeBoxSchemas } from '../lib/box/schemas.ts';
import { defineRoute, lambdaHandler, STATEMENT } from '../lib/http/route.ts';
import { writeHeaders } from '../lib/openapi/common.ts';
import { BoxSaveResponse } from '../lib/openapi/responses.ts';
import { DATABASE, ERP_VIEW, named } from '../lib/openapi/route-docs.ts';

/** POST /v1/box/simple: one scan of box and zongpai; the box holds exactly its ERP plan. */
export const spec = defineRoute({
  id: 'BoxSimpleSave',
  method: 'POST',
  path: '/v1/box/simple',
  access: 'operator',
  status: 201,
  dataApi: STATEMENT,
  example: { body: { box_no: 'BOX-1001', zongpai_no: 'PLT-0001' } },
  schemas: ({ config, fields }) => ({ body: makeBoxSchemas(config, fields).simpleBody }),
  docs: import.meta.withoutDocs
    ? undefined
    : ({ config, fields }) => {
        const box = makeBoxSchemas(config, fields);
        return {
          summary: 'Simplified boxing: the box holds exactly its ERP plan',
          request: {
            headers: writeHeaders,
            body: { schema: named(box.simpleBody, 'BoxSimpleSaveRequest'), required: true },
          },
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
        };
      },
  handle: (runtime) => {
    const save = makeBoxSave({ db: runtime.db(), config: runtime.config, logger: runtime.logger });
    return ({ body, caller, idempotency }) =>
      save({ box_no: body.box_no, zongpai_no: body.zongpai_no }, caller.username, idempotency);
  },
});

export const handler = lambdaHandler(spec, process.env);
