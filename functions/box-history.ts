import { makeBoxHistory } from '../lib/box/index.ts';
import { boxingOptions, boxSchemas } from '../lib/box/wiring.ts';
import { route } from '../lib/http/route.ts';

const history = makeBoxHistory(boxingOptions());

/** GET /v1/box/{box_no}/history: every save, edit and undo of the box, who and when, oldest first. */
export const handler = route({
  access: 'operator',
  status: 200,
  path: boxSchemas.boxPath,
  handle: ({ path }) => history(path.box_no),
});
