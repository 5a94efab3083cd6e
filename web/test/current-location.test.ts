import { describe, expect, it } from 'vitest';
import type { QueuedScan } from '../src/queue.ts';
import { refuted, type CurrentLocation } from '../src/screens/current-location.ts';

/** A scan refused by the service, made at `location` when the scans counted `seq`. */
const refusedAt = (location: string, seq: number, error_code: string): QueuedScan => ({
  key: `k-${seq}`,
  seq,
  scan: { cargo_no: 'BOX-1003', location_code: location, scanned_at: '2026-05-01T08:00:00.000Z', device_id: 'HH-1' },
  state: 'refused',
  error: { error_code, message: '' },
});

describe("Locate's current location", () => {
  const chosen: CurrentLocation = { code: 'BOX-1005', since: 2_000 };

  it('is let go when a scan made there since it was chosen is refused for the location', () => {
    for (const code of ['LOCATION_IS_CARGO', 'LOCATION_BLOCKED', 'LOCATION_NOT_FOUND', 'INVALID_LOCATION_CODE'])
      expect(refuted(chosen, [refusedAt('BOX-1005', 2_001, code)]), code).toBe(true);
  });

  it('stays for a refusal of the cargo, of another location, or of a scan made before it was chosen again', () => {
    expect(refuted(chosen, [refusedAt('BOX-1005', 2_001, 'CARGO_IS_LOCATION')])).toBe(false);
    expect(refuted(chosen, [refusedAt('BOX-1005', 2_001, 'OFF_SHELF_MISMATCH')])).toBe(false);
    expect(refuted(chosen, [refusedAt('A-01-01', 2_001, 'LOCATION_BLOCKED')])).toBe(false);
    expect(refuted(chosen, [refusedAt('BOX-1005', 1_999, 'LOCATION_IS_CARGO')])).toBe(false);
    expect(refuted(chosen, [])).toBe(false);
  });
});
