import * as z from 'zod/mini';
import { defineRoute, lambdaHandler } from '../lib/http/route.ts';
import { makeScanSchemas, makeScanRecorder } from '../lib/location/index.ts';
import { LocationRecordsResponse } from '../lib/contract/common.ts';
import { DATABASE, ERP_VIEW, named } from '../lib/openapi/route-docs.ts';

/** POST /v1/{service_prefix}/location: one scan, or a backlog of up to 500 stored all or none. */
export const spec = defineRoute({
  id: 'LocationRecord',
  method: 'POST',
  path: '/v1/{service_prefix}/location',
  access: 'operator',
  status: 201,
  docs: import.meta.withoutDocs
    ? undefined
    : ({ config, fields }) => {
        // The body is read as one list of scans; the document shows its two forms, each named.
        const { scan, backlog } = makeScanSchemas(config, fields);
        return {
          summary: 'Record where cargo is',
          description: `One scan, or a backlog \`{"records": [...]}\` of 1-${config.locationRecordsMax} scans stored all or none (a refusal names the index of each bad record). \`off_shelf: true\` registers a location for cargo that is not on a shelf; at a location of the location register it may be left out (the location's is stored; elsewhere false), and one that differs from the location's is OFF_SHELF_MISMATCH. A location that is blocked (LOCATION_BLOCKED) or is a box or zongpai (LOCATION_IS_CARGO), a cargo_no that is a registered location (CARGO_IS_LOCATION) and, with LOCATIONS_REGISTERED_ONLY, a location not registered (LOCATION_NOT_FOUND) are refused, what was scanned wrong before a location not registered. \`scanned_at\` (optional; the server's time when absent) is when the device scanned, to the millisecond at most, from the year 2000 on and no more than 5 minutes ahead of the server's clock; the history is ordered by it, each scan of a request taken back by as much as the request's latest one is ahead of the server.`,
          body: z.union([named(scan, 'LocationScan'), named(backlog, 'LocationBacklog')]),
          response: { schema: LocationRecordsResponse, description: 'The stored records' },
          errors: [
            'INVALID_BOX_NO',
            'INVALID_LOCATION_CODE',
            'VALIDATION_ERROR',
            'LOCATION_NOT_FOUND',
            'LOCATION_BLOCKED',
            'LOCATION_IS_CARGO',
            'CARGO_IS_LOCATION',
            'OFF_SHELF_MISMATCH',
            ...DATABASE,
            ...ERP_VIEW,
          ],
        };
      },
  example: { body: { cargo_no: 'BOX-1001', location_code: 'A-01' } },
  schemas: ({ config, fields }) => ({ body: makeScanSchemas(config, fields).recordBody }),
  make: makeScanRecorder,
  handle: (record, { body, caller, idempotency }) => record(body.scans, caller.username, idempotency, body.backlog),
});

export const handler = lambdaHandler(spec, process.env);
