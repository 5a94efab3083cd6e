import { defineRoute, lambdaHandler, STATEMENT } from '../lib/http/route.ts';
import { makeLocationSchemas, makeScanRecorder } from '../lib/location/index.ts';

/** POST /v1/{service_prefix}/location: one scan, or a backlog of up to 500 stored all or none. */
export const spec = defineRoute({
  id: 'LocationRecord',
  method: 'POST',
  path: '/v1/{service_prefix}/location',
  access: 'operator',
  status: 201,
  dataApi: STATEMENT,
  example: { body: { cargo_no: 'BOX-1001', location_code: 'A-01' } },
  schemas: ({ config, fields }) => ({ body: makeLocationSchemas(config, fields).recordBody }),
  handle: (runtime) => {
    const record = makeScanRecorder({ db: runtime.db() });
    return ({ body, caller, idempotency }) => record(body, caller.username, idempotency);
  },
});

export const handler = lambdaHandler(spec, process.env);
