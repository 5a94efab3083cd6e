import { RECORD_VERSION } from '../lib/http/if-match.ts';
import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { makeScanVoidSchemas, makeScanVoider } from '../lib/location/index.ts';

/** DELETE /v1/{service_prefix}/location/{cargo_no}/records/{id}: void a wrong scan (supervisors); it stays in the history, marked. */
export const spec = defineRoute({
  id: 'LocationVoid',
  method: 'DELETE',
  path: '/v1/{service_prefix}/location/{cargo_no}/records/{id}',
  access: 'supervisor',
  status: 200,
  versioned: RECORD_VERSION,
  example: { path: { cargo_no: 'BOX-1001', id: '1' }, body: { version: 1 } },
  schemas: ({ fields }) => makeScanVoidSchemas(fields),
  make: makeScanVoider,
  handle: (voidScan, { path, version, caller, idempotency }) =>
    voidScan({ cargo_no: path.cargo_no, id: path.id, version }, caller.username, idempotency),
});

export const handler = lambdaHandler(spec, process.env);
