import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { makeScanSchemas, makeScanRecorder } from '../lib/location/index.ts';

/** POST /v1/{service_prefix}/location: one scan, or a backlog of up to 500 stored all or none. */
export const spec = defineRoute({
  id: 'LocationRecord',
  method: 'POST',
  path: '/v1/{service_prefix}/location',
  access: 'operator',
  status: 201,
  example: { body: { cargo_no: 'BOX-1001', location_code: 'A-01' } },
  schemas: ({ config, fields }) => ({ body: makeScanSchemas(config, fields).recordBody }),
  make: makeScanRecorder,
  handle: (record, { body, caller, idempotency }) => record(body.scans, caller.username, idempotency, body.backlog),
});

export const handler = lambdaHandler(spec, process.env);
