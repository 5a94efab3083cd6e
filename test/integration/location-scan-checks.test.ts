import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { startTestService, type TestService } from '../support/service.ts';

/** Scans told apart by the location register, in the statement that stores them. */
let service: TestService;
let strict: TestService;
const LOCATION = '/v1/cargo/location';

const register = (on: TestService, code: string, body: unknown) =>
  on.call('PUT', `/v1/cargo/locations/${code}`, { body, token: on.tokens.supervisor });
const recordsOf = async (on: TestService, cargoNo: string) =>
  (
    await on.stack.db.query<{ location_code: string; off_shelf: boolean }>(
      'SELECT location_code, off_shelf FROM cargo.location_record WHERE cargo_no = :cargo_no ORDER BY id',
      { cargo_no: cargoNo },
    )
  ).rows;

beforeAll(async () => {
  [service, strict] = await Promise.all([
    startTestService(),
    startTestService({ env: { LOCATIONS_REGISTERED_ONLY: 'true' } }),
  ]);
  for (const on of [service, strict]) {
    for (const [code, body] of [
      ['SC-A-01', { kind: 'SHELF', zone: 'SC' }],
      ['SC-DOCK', { kind: 'DOCK' }],
      ['SC-HOLD', { kind: 'QUARANTINE', blocked: true }],
    ] as const)
      expect((await register(on, code, body)).status).toBe(201);
  }
});
afterAll(async () => Promise.all([service?.close(), strict?.close()]));

describe('POST /v1/cargo/location and the location register', () => {
  it('stores the registered location’s off_shelf when a scan leaves it out, and false where the location is not registered', async () => {
    const res = await service.call('POST', LOCATION, {
      body: {
        records: [
          { cargo_no: 'SC-TOTE-1', location_code: 'SC-DOCK' },
          { cargo_no: 'SC-TOTE-2', location_code: 'sc-a-01' },
          { cargo_no: 'SC-TOTE-3', location_code: 'SC-ELSEWHERE' },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.records.map((r: { off_shelf: boolean }) => r.off_shelf)).toEqual([true, false, false]);
    expect(await recordsOf(service, 'SC-TOTE-1')).toEqual([{ location_code: 'SC-DOCK', off_shelf: true }]);
  });

  it('accepts a scan whose off_shelf agrees with the registered location, and refuses one that differs with OFF_SHELF_MISMATCH', async () => {
    expect(
      (
        await service.call('POST', LOCATION, {
          body: { cargo_no: 'SC-TOTE-4', location_code: 'SC-DOCK', off_shelf: true },
        })
      ).status,
    ).toBe(201);
    const res = await service.call('POST', LOCATION, {
      body: { cargo_no: 'SC-TOTE-5', location_code: 'SC-A-01', off_shelf: true },
    });
    expectError(res, 422, 'OFF_SHELF_MISMATCH', 'location');
    expect(res.body.message).toContain('SC-A-01');
    expect(await recordsOf(service, 'SC-TOTE-5')).toEqual([]);
  });

  it('refuses a scan at a blocked location with LOCATION_BLOCKED', async () => {
    const res = await service.call('POST', LOCATION, { body: { cargo_no: 'SC-TOTE-6', location_code: 'SC-HOLD' } });
    expectError(res, 409, 'LOCATION_BLOCKED', 'location');
    expect(await recordsOf(service, 'SC-TOTE-6')).toEqual([]);
  });

  it('refuses a location code that is a zongpai, a saved box or a box of the ERP plan with LOCATION_IS_CARGO', async () => {
    const { box, zongpai } = await service.freshBox({ 'SKU-A': 1 });
    expect((await service.saveBox(box, zongpai, { 'SKU-A': 1 })).status).toBe(201);
    for (const code of [zongpai, box, 'BOX-1002']) {
      const res = await service.call('POST', LOCATION, { body: { cargo_no: 'SC-TOTE-7', location_code: code } });
      expectError(res, 422, 'LOCATION_IS_CARGO', 'location');
    }
    expect(await recordsOf(service, 'SC-TOTE-7')).toEqual([]);
  });

  it('refuses the GS1-128 reading of an SSCC label ("00" + the SSCC) as a location with LOCATION_IS_CARGO, before LOCATION_NOT_FOUND', async () => {
    // The demo plan's SSCC-labelled box, and a pallet registered by its SSCC: their labels read 00 + 18 digits.
    const pallet = '000123456000123452';
    for (const on of [service, strict])
      expect((await on.call('POST', '/v1/zongpai', { body: { zongpai_no: pallet } })).status).toBe(201);
    for (const on of [service, strict])
      for (const code of ['00106141411234567897', `00${pallet}`]) {
        const one = await on.call('POST', LOCATION, { body: { cargo_no: 'SC-TOTE-G1', location_code: code } });
        expectError(one, 422, 'LOCATION_IS_CARGO', 'location');
        const backlog = await on.call('POST', LOCATION, {
          body: {
            records: [
              { cargo_no: 'SC-TOTE-G1', location_code: 'SC-A-01' },
              { cargo_no: 'SC-TOTE-G1', location_code: ` ]C1${code}\r\n` },
            ],
          },
        });
        expectError(backlog, 422, 'LOCATION_IS_CARGO');
        expect(backlog.body.details.map((d: { field: string }) => d.field)).toEqual(['records[1].location_code']);
      }
    expect(await recordsOf(service, 'SC-TOTE-G1')).toEqual([]);
    // A code of 00 + 18 digits that is no cargo's is a location code as any other.
    expect(
      (
        await service.call('POST', LOCATION, {
          body: { cargo_no: 'SC-TOTE-G1', location_code: '00000123456000123469' },
        })
      ).status,
    ).toBe(201);
  });

  it('refuses a cargo number that is a registered location with CARGO_IS_LOCATION', async () => {
    const res = await service.call('POST', LOCATION, { body: { cargo_no: 'SC-A-01', location_code: 'SC-DOCK' } });
    expectError(res, 422, 'CARGO_IS_LOCATION', 'location');
    expect(res.body.message).toContain('SC-A-01');
    expect(await recordsOf(service, 'SC-A-01')).toEqual([]);
  });

  it('stores none of a backlog with a refused scan and names each bad index', async () => {
    const res = await service.call('POST', LOCATION, {
      body: {
        records: [
          { cargo_no: 'SC-TOTE-8', location_code: 'SC-DOCK' },
          { cargo_no: 'SC-TOTE-8', location_code: 'SC-HOLD' },
          { cargo_no: 'SC-DOCK', location_code: 'SC-A-01' },
          { cargo_no: 'SC-TOTE-8', location_code: 'SC-A-01', off_shelf: true },
        ],
      },
    });
    expectError(res, 422, 'CARGO_IS_LOCATION');
    expect(res.body.details.map((d: { field: string; error_code: string }) => [d.field, d.error_code])).toEqual([
      ['records[1].location_code', 'LOCATION_BLOCKED'],
      ['records[2].cargo_no', 'CARGO_IS_LOCATION'],
      ['records[3].off_shelf', 'OFF_SHELF_MISMATCH'],
    ]);
    // Each message names its record, as a client that shows one line needs.
    for (const detail of res.body.details as { field: string; message: string }[])
      expect(detail.message).toContain(detail.field);
    expect(await recordsOf(service, 'SC-TOTE-8')).toEqual([]);
  });

  it('accepts codes neither registered nor cargo exactly as before by default', async () => {
    const res = await service.call('POST', LOCATION, {
      body: { cargo_no: 'SC-TOTE-9', location_code: 'NOWHERE-1', off_shelf: true },
    });
    expect(res.status).toBe(201);
    expect(res.body.records[0]).toMatchObject({ location_code: 'NOWHERE-1', off_shelf: true });
  });
});

describe('LOCATIONS_REGISTERED_ONLY=true', () => {
  it('refuses a scan at a location not registered with LOCATION_NOT_FOUND and stores a registered one', async () => {
    expectError(
      await strict.call('POST', LOCATION, { body: { cargo_no: 'SC-TOTE-10', location_code: 'NOWHERE-2' } }),
      404,
      'LOCATION_NOT_FOUND',
      'location',
    );
    expect(
      (await strict.call('POST', LOCATION, { body: { cargo_no: 'SC-TOTE-10', location_code: 'SC-DOCK' } })).status,
    ).toBe(201);
    expect(await recordsOf(strict, 'SC-TOTE-10')).toEqual([{ location_code: 'SC-DOCK', off_shelf: true }]);
  });

  it('answers what the operator scanned wrong before a location the register does not know', async () => {
    const { zongpai } = await strict.freshBox();
    // The cargo is a registered location and the location is not registered: the mistake is named.
    expectError(
      await strict.call('POST', LOCATION, { body: { cargo_no: 'SC-A-01', location_code: 'NOWHERE-3' } }),
      422,
      'CARGO_IS_LOCATION',
    );
    // A backlog: an unknown location first, a zongpai scanned as the location later.
    const res = await strict.call('POST', LOCATION, {
      body: {
        records: [
          { cargo_no: 'SC-TOTE-11', location_code: 'NOWHERE-4' },
          { cargo_no: 'SC-TOTE-11', location_code: zongpai },
        ],
      },
    });
    expectError(res, 422, 'LOCATION_IS_CARGO');
    expect(res.body.details.map((d: { field: string; error_code: string }) => [d.field, d.error_code])).toEqual([
      ['records[0].location_code', 'LOCATION_NOT_FOUND'],
      ['records[1].location_code', 'LOCATION_IS_CARGO'],
    ]);
    for (const detail of res.body.details as { field: string; message: string }[])
      expect(detail.message).toContain(detail.field);
  });
});
