import { expectedVersion, makeBoxEdit } from '../lib/box/index.ts';
import { makeBoxSchemas } from '../lib/box/schemas.ts';
import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { BoxSaveResponse } from '../lib/contract/responses.ts';
import { BOX_CHANGE, BOX_ITEMS } from '../lib/openapi/route-docs.ts';

/** PATCH /v1/box/{box_no}: move a saved box to another zongpai and/or replace its items (supervisors). */
export const spec = defineRoute({
  id: 'BoxEdit',
  method: 'PATCH',
  path: '/v1/box/{box_no}',
  access: 'supervisor',
  status: 200,
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
        summary: 'Move a saved box to another zongpai and/or replace its items',
        description:
          'Needs the current `version` (body field or If-Match). A change that changes nothing answers the box as it is.',
        response: { schema: BoxSaveResponse, description: 'The box at its new version' },
        errors: [...BOX_CHANGE, 'INVALID_ZONGPAI', 'ZONGPAI_NOT_FOUND', ...BOX_ITEMS],
      }),
  versioned: true,
  example: { path: { box_no: 'BOX-1001' }, body: { version: 1, zongpai_no: 'PLT-0002' } },
  schemas: ({ config, fields }) => makeBoxSchemas(config, fields).edit,
  make: makeBoxEdit,
  handle: (edit, { path, body, headers, caller, idempotency }) =>
    edit(
      {
        box_no: path.box_no,
        version: expectedVersion(body.version, headers['if-match']),
        zongpai_no: body.zongpai_no,
        items: body.items,
      },
      caller.username,
      idempotency,
    ),
});

export const handler = lambdaHandler(spec, process.env);
