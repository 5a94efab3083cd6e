import * as z from 'zod/mini';
import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { makeLocationTransfer } from '../lib/location/transfer.ts';
import { LocationRecordsResponse } from '../lib/contract/common.ts';
import { DATABASE, ERP_VIEW } from '../lib/openapi/route-docs.ts';

/** POST /v1/{service_prefix}/locations/{location_code}/transfer: move everything at a location to another in one request. */
export const spec = defineRoute({
  id: 'LocationTransfer',
  method: 'POST',
  path: '/v1/{service_prefix}/locations/{location_code}/transfer',
  access: 'operator',
  status: 201,
  docs: import.meta.withoutDocs
    ? undefined
    : () => ({
        summary: 'Move everything at a location to another location',
        description:
          'Records a scan at `to_location_code` for every piece of cargo whose current location is this one: a zongpai once (its boxes follow it), cargo standing there alone each. One statement, one `cargo.located` event per record, the destination refused as a scan’s location would be (cargo, blocked, or not registered with LOCATIONS_REGISTERED_ONLY). At most 500 pieces: more is TRANSFER_TOO_LARGE, naming the count.',
        response: { schema: LocationRecordsResponse, description: 'The records stored, none when nothing was there' },
        errors: [
          'INVALID_LOCATION_CODE',
          'VALIDATION_ERROR',
          'LOCATION_IS_CARGO',
          'LOCATION_BLOCKED',
          'LOCATION_NOT_FOUND',
          'TRANSFER_TOO_LARGE',
          ...DATABASE,
          ...ERP_VIEW,
        ],
      }),
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
