import * as z from 'zod/mini';
import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { makeLocationTransfer } from '../lib/location/transfer.ts';

/** POST /v1/{service_prefix}/locations/{location_code}/transfer: move everything at a location to another in one request. */
export const spec = defineRoute({
  id: 'LocationTransfer',
  method: 'POST',
  path: '/v1/{service_prefix}/locations/{location_code}/transfer',
  access: 'operator',
  status: 201,
  example: { path: { location_code: 'STAGE-2' }, body: { to_location_code: 'DOCK-3' } },
  schemas: ({ fields }) => ({
    path: z.object({ location_code: fields.locationCode }),
    body: z.strictObject({ to_location_code: fields.locationCode }),
  }),
  make: makeLocationTransfer,
  handle: (transfer, { path, body, caller, idempotency }) =>
    transfer(path.location_code, body.to_location_code, caller.username, idempotency),
});

export const handler = lambdaHandler(spec, process.env);
