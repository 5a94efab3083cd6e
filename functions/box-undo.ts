import { expectedVersion, makeBoxUndo } from '../lib/box/index.ts';
import { boxingOptions, boxSchemas } from '../lib/box/wiring.ts';
import { route } from '../lib/http/route.ts';

const undo = makeBoxUndo(boxingOptions());

/** DELETE /v1/box/{box_no}: undo a boxing; the box is empty again and leaves its zongpai (supervisors). */
export const handler = route({
  access: 'supervisor',
  status: 200,
  path: boxSchemas.boxPath,
  body: boxSchemas.undoBody,
  handle: ({ path, body, headers, caller, idempotency }) =>
    undo({ box_no: path.box_no, version: expectedVersion(body?.version, headers['if-match']) }, caller.username, idempotency),
});
