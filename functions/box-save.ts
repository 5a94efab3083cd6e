import { makeBoxSave } from '../lib/box/index.ts';
import { boxingOptions, boxSchemas } from '../lib/box/wiring.ts';
import { route } from '../lib/http/route.ts';

const save = makeBoxSave(boxingOptions());

/** POST /v1/box: save what was boxed and append the box to its zongpai (`BoxSaveRequest` → `BoxSaveResponse`). */
export const handler = route({
  access: 'operator',
  status: 201,
  body: boxSchemas.saveBody,
  handle: ({ body, caller, idempotency }) => save(body, caller.username, idempotency),
});
