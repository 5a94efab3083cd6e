import { route } from '../lib/http/route.ts';
import { locationSchemas, makeScanRecorder } from '../lib/location/index.ts';
import { database } from '../lib/runtime.ts';

const record = makeScanRecorder({ db: database() });

/** POST /v1/{service_prefix}/location: one scan, or a backlog of up to 500 stored all or none. */
export const handler = route({
  access: 'operator',
  status: 201,
  body: locationSchemas.recordBody,
  handle: ({ body, caller, idempotency }) => record(body, caller.username, idempotency),
});
