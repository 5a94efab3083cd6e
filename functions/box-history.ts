import { makeBoxHistory } from '../lib/box/index.ts';
import { makeBoxSchemas } from '../lib/box/schemas.ts';
import { defineRoute, lambdaHandler } from '../lib/http/route.ts';

/** GET /v1/box/{box_no}/history: every save, edit and undo of the box, who and when, oldest first. */
export const spec = defineRoute({
  id: 'BoxHistory',
  method: 'GET',
  path: '/v1/box/{box_no}/history',
  access: 'operator',
  status: 200,
  example: { path: { box_no: 'BOX-1001' } },
  schemas: ({ config, fields }) => makeBoxSchemas(config, fields).history,
  make: makeBoxHistory,
  handle: (history, { path }) => history(path.box_no),
});

export const handler = lambdaHandler(spec, process.env);
