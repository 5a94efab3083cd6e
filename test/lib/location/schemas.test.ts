import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../lib/config.ts';
import { makeLocationSchemas } from '../../../lib/location/schemas.ts';
import { makeFields } from '../../../lib/rules/fields.ts';

const config = loadConfig({});
const schemas = makeLocationSchemas(config, makeFields(config), () => new Date('2026-11-21T08:00:00Z'));
const scan = (scanned_at: unknown) =>
  schemas.scan.safeParse({ cargo_no: 'BOX-1001', location_code: 'A-01', scanned_at });

describe('scanned_at', () => {
  it('refuses a time in year 0000, also when an offset carries it there', () => {
    expect(scan('0000-01-01T00:00:00Z').success).toBe(false);
    expect(scan('0000-12-31T23:59:59.999Z').success).toBe(false);
    expect(scan('0001-01-01T00:30:00+01:00').success).toBe(false);
  });

  it('refuses 29 February of a year that is not a leap year', () => {
    expect(scan('2025-02-29T08:00:00Z').success).toBe(false);
    expect(scan('2100-02-29T08:00:00Z').success).toBe(false);
  });

  it('refuses a time before the year 2000, a device clock reset or never set', () => {
    expect(scan('1999-12-31T23:59:59.999Z').success).toBe(false);
    expect(scan('1970-01-01T00:00:00Z').success).toBe(false);
    expect(scan('0001-01-01T00:00:00Z').success).toBe(false);
  });

  it('keeps the first instant of the year 2000 and a leap day', () => {
    expect(scan('2000-01-01T00:00:00Z')).toEqual(
      expect.objectContaining({
        success: true,
        data: expect.objectContaining({ scanned_at: '2000-01-01T00:00:00.000Z' }),
      }),
    );
    expect(scan('2024-02-29T08:00:00+08:00')).toEqual(
      expect.objectContaining({
        success: true,
        data: expect.objectContaining({ scanned_at: '2024-02-29T00:00:00.000Z' }),
      }),
    );
  });
});

describe('device_id', () => {
  it('trims scanner padding but refuses a byte-order mark', () => {
    expect(
      schemas.scan.parse({ cargo_no: 'BOX-1001', location_code: 'A-01', device_id: '\tPDA-7\r\n' }).device_id,
    ).toBe('PDA-7');
    expect(
      schemas.scan.safeParse({ cargo_no: 'BOX-1001', location_code: 'A-01', device_id: '\uFEFFPDA-7' }).success,
    ).toBe(false);
  });
});
