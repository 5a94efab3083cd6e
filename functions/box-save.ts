import { makeBoxSave } from '../lib/box/index.ts';
import { makeBoxSchemas } from '../lib/box/schemas.ts';
import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { BoxSaveResponse } from '../lib/contract/responses.ts';
import { BOX_ITEMS, DATABASE, ERP_VIEW } from '../lib/openapi/route-docs.ts';

/** POST /v1/box: save what was boxed and append the box to its zongpai (`BoxSaveRequest` → `BoxSaveResponse`). */
export const spec = defineRoute({
  id: 'BoxSave',
  method: 'POST',
  path: '/v1/box',
  access: 'operator',
  status: 201,
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
        summary: 'Save what was boxed and append the box to its zongpai',
        description:
          "The zongpai must be registered and open; by default every item must be in the box's ERP plan, at most its planned quantity. A box already BOXED is changed with PATCH. The items may come to at most 57 344 bytes as the box's record (its answer, history and event are each one Data API row): more, e.g. 500 item codes of 64 Chinese characters, is 400 VALIDATION_ERROR on `items`.",
        response: { schema: BoxSaveResponse, description: 'The saved box' },
        errors: [
          'INVALID_BOX_NO',
          'INVALID_ZONGPAI',
          ...BOX_ITEMS,
          'BOX_NOT_FOUND',
          'ZONGPAI_NOT_FOUND',
          'BOX_ALREADY_BOXED',
          'ZONGPAI_CLOSED',
          ...DATABASE,
          ...ERP_VIEW,
        ],
      }),
  example: {
    body: { box_no: 'BOX-1001', zongpai_no: 'PLT-0001', items: [{ item_code: 'SKU-TEA-250', quantity: 24 }] },
  },
  schemas: ({ config, fields }) => makeBoxSchemas(config, fields).save,
  make: makeBoxSave,
  handle: (save, { body, caller, idempotency }) => save(body, caller.username, idempotency),
});

export const handler = lambdaHandler(spec, process.env);
