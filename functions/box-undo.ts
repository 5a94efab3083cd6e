import { expectedVersion, makeBoxUndo } from '../lib/box/index.ts';
import { makeBoxSchemas } from '../lib/box/schemas.ts';
import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { BoxSaveResponse } from '../lib/contract/responses.ts';
import { BOX_CHANGE } from '../lib/openapi/route-docs.ts';

/** DELETE /v1/box/{box_no}: undo a boxing; the box is empty again and leaves its zongpai (supervisors). */
export const spec = defineRoute({
  id: 'BoxUndo',
  method: 'DELETE',
  path: '/v1/box/{box_no}',
  access: 'supervisor',
  status: 200,
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
        summary: 'Undo a boxing: the box is empty again and leaves its zongpai',
        description: 'Needs the current `version` (body field or If-Match); the zongpai it leaves must be open.',
        response: { schema: BoxSaveResponse, description: 'The box, NOT_BOXED, at its new version' },
        errors: BOX_CHANGE,
      }),
  versioned: true,
  example: { path: { box_no: 'BOX-1001' }, body: { version: 1 } },
  schemas: ({ config, fields }) => makeBoxSchemas(config, fields).undo,
  make: makeBoxUndo,
  handle: (undo, { path, body, headers, caller, idempotency }) =>
    undo(
      { box_no: path.box_no, version: expectedVersion(body?.version, headers['if-match']) },
      caller.username,
      idempotency,
    ),
});

export const handler = lambdaHandler(spec, process.env);
