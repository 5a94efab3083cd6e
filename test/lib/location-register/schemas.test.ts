import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../lib/config.ts';
import { makeRegisterSchemas } from '../../../lib/location-register/schemas.ts';
import { scanProblems, type ScanRow } from '../../../lib/location/locations.ts';
import { makeScanSchemas } from '../../../lib/location/schemas.ts';
import { makeFields } from '../../../lib/rules/fields.ts';

const config = loadConfig({});
const schemas = makeRegisterSchemas(makeFields(config));

describe('the location register’s request schemas', () => {
  it('reads a location as a scanner sends codes: trimmed, zone upper-cased, the description kept as sent', () => {
    expect(schemas.putBody.parse({ kind: 'DOCK', zone: ' north\r\n', description: ' Dock 1, Nord ' })).toEqual({
      kind: 'DOCK',
      zone: 'NORTH',
      description: 'Dock 1, Nord',
    });
  });

  it('refuses a kind it does not know, a zone outside A-Z 0-9 -, and a description that is empty, not printable or over 200 characters', () => {
    for (const body of [
      { kind: 'ROOF' },
      { kind: 'shelf' },
      { kind: 'SHELF', zone: 'A_1' },
      { kind: 'SHELF', zone: 'Ä' },
      { kind: 'SHELF', zone: 'Z'.repeat(33) },
      { kind: 'SHELF', description: '   ' },
      { kind: 'SHELF', description: 'a\u0000b' },
      { kind: 'SHELF', description: 'd'.repeat(201) },
      { kind: 'SHELF', off_shelf: true },
    ])
      expect(schemas.putBody.safeParse(body).success, JSON.stringify(body)).toBe(false);
  });

  it('refuses an import naming one code twice at the later index, and more than 500 locations', () => {
    const twice = schemas.importBody.safeParse({
      locations: [
        { location_code: 'A-01', kind: 'SHELF' },
        { location_code: 'B-01', kind: 'SHELF' },
        { location_code: ' a-01', kind: 'DOCK' },
      ],
    });
    expect(twice.success).toBe(false);
    expect(twice.error?.issues.map((i) => i.path)).toEqual([['locations', 2, 'location_code']]);
    const many = Array.from({ length: 501 }, (_, i) => ({ location_code: `A-${i}`, kind: 'SHELF' }));
    expect(schemas.importBody.safeParse({ locations: many }).success).toBe(false);
  });

  it('reads blocked in the list query as true or false only', () => {
    expect(schemas.listQuery.parse({ blocked: 'true' })).toMatchObject({ blocked: true, limit: 20 });
    expect(schemas.listQuery.parse({ blocked: 'false' })).toMatchObject({ blocked: false });
    expect(schemas.listQuery.safeParse({ blocked: '1' }).success).toBe(false);
  });
});

describe('a scan’s off_shelf', () => {
  it('is left out when the scan leaves it out, for the location register to fill in', () => {
    const { recordBody } = makeScanSchemas(config, makeFields(config));
    expect(recordBody.parse({ cargo_no: 'BOX-1001', location_code: 'DOCK-3' })).toEqual({
      scans: [{ cargo_no: 'BOX-1001', location_code: 'DOCK-3' }],
      backlog: false,
    });
  });
});

describe('the refusal of scans the register refused', () => {
  const row = (idx: number, error_code: string, extra: Partial<ScanRow> = {}): ScanRow => ({
    error_code,
    idx,
    location_code: 'L-1',
    cargo_no: 'C-1',
    off_shelf: null,
    ...extra,
  });

  it('answers what was scanned wrong before a location not registered, and lists every problem by index', () => {
    const error = scanProblems(
      [
        row(2, 'LOCATION_IS_CARGO', { location_code: 'PLT-1' }),
        row(0, 'LOCATION_NOT_FOUND'),
        row(1, 'LOCATION_BLOCKED'),
      ],
      true,
    );
    expect(error?.code).toBe('LOCATION_IS_CARGO');
    expect(error?.params).toMatchObject({ value: 'PLT-1', field: 'records[2].location_code' });
    expect(error?.details.map((d) => [d.field, d.code])).toEqual([
      ['records[0].location_code', 'LOCATION_NOT_FOUND'],
      ['records[1].location_code', 'LOCATION_BLOCKED'],
      ['records[2].location_code', 'LOCATION_IS_CARGO'],
    ]);
  });

  it('names a single scan’s field without an index, the cargo for CARGO_IS_LOCATION and off_shelf for OFF_SHELF_MISMATCH', () => {
    expect(scanProblems([row(0, 'CARGO_IS_LOCATION', { cargo_no: 'A-01' })], false)?.params).toMatchObject({
      field: 'cargo_no',
      value: 'A-01',
    });
    expect(scanProblems([row(0, 'OFF_SHELF_MISMATCH', { off_shelf: true })], false)?.params).toMatchObject({
      field: 'off_shelf',
      reason: 'true',
    });
    expect(scanProblems([], false)).toBeUndefined();
  });
});
