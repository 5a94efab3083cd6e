import { makeBoxEdit } from '../lib/box/index.ts';
import { makeBoxSchemas } from '../lib/box/schemas.ts';
import { BOX_VERSION } from '../lib/http/if-match.ts';
import { defineRoute, lambdaHandler } from '../lib/http/route.ts';

/** PATCH /v1/box/{box_no}: move a saved box to another zongpai and/or replace its items (supervisors). */
export const spec = defineRoute({
  id: 'BoxEdit',
  method: 'PATCH',
  path: '/v1/box/{box_no}',
  access: 'supervisor',
  status: 200,
  versioned: BOX_VERSION,
  example: { path: { box_no: 'BOX-1001' }, body: { version: 1, zongpai_no: 'PLT-0002' } },
  schemas: ({ config, fields }) => makeBoxSchemas(config, fields).edit,
  make: makeBoxEdit,
  handle: (edit, { path, body, version, caller, idempotency }) =>
    edit(
      {
        box_no: path.box_no,
        version,
        zongpai_no: body.zongpai_no,
        items: body.items,
      },
      caller.username,
      idempotency,
    ),
});

export const handler = lambdaHandler(spec, process.env);
