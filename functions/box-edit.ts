import { expectedVersion, makeBoxEdit } from '../lib/box/index.ts';
import { boxingOptions, boxSchemas } from '../lib/box/wiring.ts';
import { route } from '../lib/http/route.ts';

const edit = makeBoxEdit(boxingOptions());

/** PATCH /v1/box/{box_no}: move a saved box to another zongpai and/or replace its items (supervisors). */
export const handler = route({
  access: 'supervisor',
  status: 200,
  path: boxSchemas.boxPath,
  body: boxSchemas.editBody,
  handle: ({ path, body, headers, caller, idempotency }) =>
    edit(
      { box_no: path.box_no, version: expectedVersion(body.version, headers['if-match']), zongpai_no: body.zongpai_no, items: body.items },
      caller.username,
      idempotency,
    ),
});
