import { makeBoxUndo } from '../lib/box/index.ts';
import { makeBoxSchemas } from '../lib/box/schemas.ts';
import { BOX_VERSION } from '../lib/http/if-match.ts';
import { defineRoute, lambdaHandler } from '../lib/http/route.ts';

/** DELETE /v1/box/{box_no}: undo a boxing; the box is empty again and leaves its zongpai (supervisors). */
export const spec = defineRoute({
  id: 'BoxUndo',
  method: 'DELETE',
  path: '/v1/box/{box_no}',
  access: 'supervisor',
  status: 200,
  versioned: BOX_VERSION,
  example: { path: { box_no: 'BOX-1001' }, body: { version: 1 } },
  schemas: ({ config, fields }) => makeBoxSchemas(config, fields).undo,
  make: makeBoxUndo,
  handle: (undo, { path, version, caller, idempotency }) =>
    undo({ box_no: path.box_no, version }, caller.username, idempotency),
});

export const handler = lambdaHandler(spec, process.env);
