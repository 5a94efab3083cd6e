import { DATABASE, documentRoute, ERP_VIEW } from '../../lib/openapi/route-docs.ts';
import { LocationRecordsResponse } from '../../lib/contract/common.ts';

/** What the API reference says of POST /v1/{service_prefix}/locations/{location_code}/transfer (functions/location-transfer.ts). */
export const documentation = documentRoute('LocationTransfer', () => ({
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
}));
