import { makeBoxInfo } from '../lib/box/index.ts';
import { boxingOptions, boxSchemas } from '../lib/box/wiring.ts';
import { route } from '../lib/http/route.ts';

const info = makeBoxInfo(boxingOptions());

/** GET /v1/box/info?box_no=: the ERP plan of the box and what is boxed so far (`BoxInfoResponse`). */
export const handler = route({
  access: 'operator',
  status: 200,
  query: boxSchemas.infoQuery,
  handle: ({ query }) => info(query.box_no),
});
