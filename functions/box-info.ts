import { makeBoxInfo } from '../lib/box/index.ts';
import { makeBoxSchemas } from '../lib/box/schemas.ts';
import { defineRoute, lambdaHandler } from '../lib/http/route.ts';

/** GET /v1/box/info?box_no=: the ERP plan of the box and what is boxed so far (`BoxInfoResponse`). */
export const spec = defineRoute({
  id: 'BoxInfo',
  method: 'GET',
  path: '/v1/box/info',
  access: 'reader',
  status: 200,
  example: { query: { box_no: 'BOX-1001' } },
  schemas: ({ config, fields }) => makeBoxSchemas(config, fields).info,
  make: makeBoxInfo,
  handle: (info, { query }) => info(query.box_no),
});

export const handler = lambdaHandler(spec, process.env);
