import * as z from 'zod/mini';
import { DATABASE, documentRoute, ERP_VIEW, named } from '../../lib/openapi/route-docs.ts';
import { makeScanSchemas } from '../../lib/location/index.ts';
import { LocationRecordsResponse } from '../../lib/contract/common.ts';

/** What the API reference says of POST /v1/{service_prefix}/location (functions/location-record.ts). */
export const documentation = documentRoute('LocationRecord', ({ config, fields }) => {
  // The body is read as one list of scans; the document shows its two forms, each named.
  const { scan, backlog } = makeScanSchemas(config, fields);
  return {
    summary: 'Record where cargo is',
    description: `One scan, or a backlog \`{"records": [...]}\` of 1-${config.locationRecordsMax} scans stored all or none (a refusal names the index of each bad record). \`off_shelf: true\` registers a location for cargo that is not on a shelf; at a location of the location register it may be left out (the location's is stored; elsewhere false), and one that differs from the location's is OFF_SHELF_MISMATCH. A location that is blocked (LOCATION_BLOCKED) or is a box or zongpai (LOCATION_IS_CARGO; an SSCC label read as \`00\` and its 18 digits too), a cargo_no that is a registered location (CARGO_IS_LOCATION) and, with LOCATIONS_REGISTERED_ONLY, a location not registered (LOCATION_NOT_FOUND) are refused, what was scanned wrong before a location not registered. \`scanned_at\` (optional; the server's time when absent) is when the device scanned, to the millisecond at most, from the year 2000 on and no more than 5 minutes ahead of the server's clock; the history is ordered by it, each scan of a request taken back by as much as the request's latest one is ahead of the server.`,
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
});
