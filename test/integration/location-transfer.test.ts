import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { minutesAgo, startTestService, type TestService } from '../support/service.ts';

/** Moving everything at a location to another in one request. */
let service: TestService;
let strict: TestService;
const LOCATION = '/v1/cargo/location';
const transfer = (on: TestService, from: string, to: string, headers?: Record<string, string>) =>
  on.call('POST', `/v1/cargo/locations/${from}/transfer`, {
    body: { to_location_code: to },
    ...(headers === undefined ? {} : { headers }),
  });
const register = (on: TestService, code: string, body: unknown) =>
  on.call('PUT', `/v1/cargo/locations/${code}`, { body, token: on.tokens.supervisor });
const scan = async (on: TestService, body: unknown) => {
  const res = await on.call('POST', LOCATION, { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
};
const current = async (on: TestService, cargoNo: string) => (await on.call('GET', `${LOCATION}/${cargoNo}`)).body;

beforeAll(async () => {
  [service, strict] = await Promise.all([
    startTestService(),
    startTestService({ env: { LOCATIONS_REGISTERED_ONLY: 'true' } }),
  ]);
  for (const on of [service, strict]) {
    expect((await register(on, 'TR-DOCK', { kind: 'DOCK' })).status).toBe(201);
    expect((await register(on, 'TR-SHELF', { kind: 'SHELF' })).status).toBe(201);
    expect((await register(on, 'TR-HOLD', { kind: 'QUARANTINE', blocked: true })).status).toBe(201);
  }
});
afterAll(async () => Promise.all([service?.close(), strict?.close()]));

describe('POST /v1/cargo/locations/{location_code}/transfer', () => {
  it('records a zongpai once, its boxes following it, and loose cargo each, with one cargo.located event per record', async () => {
    const { box, zongpai } = await service.freshBox({ 'SKU-A': 1 });
    expect((await service.saveBox(box, zongpai, { 'SKU-A': 1 })).status).toBe(201);
    await scan(service, {
      records: [
        { cargo_no: box, location_code: 'TR-SRC-1', scanned_at: minutesAgo(30) },
        { cargo_no: zongpai, location_code: 'TR-SRC-1', scanned_at: minutesAgo(20) },
        { cargo_no: 'TR-TOTE-1', location_code: 'TR-SRC-1', scanned_at: minutesAgo(10) },
        { cargo_no: 'TR-TOTE-2', location_code: 'TR-SRC-1', scanned_at: minutesAgo(40) },
        { cargo_no: 'TR-TOTE-2', location_code: 'TR-ELSEWHERE', scanned_at: minutesAgo(5) },
      ],
    });
    const before = (await service.stack.db.query<{ n: number }>('SELECT count(*)::int AS n FROM cargo.event')).rows[0];
    const res = await transfer(service, 'tr-src-1', 'tr-dock', { 'idempotency-key': 'tr-1' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.records.map((r: { cargo_no: string }) => r.cargo_no)).toEqual([zongpai, 'TR-TOTE-1']);
    expect(res.body.records[0]).toMatchObject({ location_code: 'TR-DOCK', off_shelf: true, recorded_by: 'olga' });
    const events = await service.stack.db.query<{ type: string; cargo_no: string }>(
      "SELECT type, data->>'cargo_no' AS cargo_no FROM cargo.event WHERE sequence > (SELECT max(sequence) - 2 FROM cargo.event) ORDER BY sequence",
    );
    expect(events.rows).toEqual([
      { type: 'cargo.located', cargo_no: zongpai },
      { type: 'cargo.located', cargo_no: 'TR-TOTE-1' },
    ]);
    expect((await service.stack.db.query<{ n: number }>('SELECT count(*)::int AS n FROM cargo.event')).rows[0]?.n).toBe(
      (before?.n ?? 0) + 2,
    );
    expect((await current(service, box)).current).toMatchObject({ location_code: 'TR-DOCK', via: 'ZONGPAI' });
    expect((await current(service, 'TR-TOTE-2')).current).toMatchObject({ location_code: 'TR-ELSEWHERE' });
    const left = await service.call('GET', '/v1/cargo/locations/TR-SRC-1/cargo');
    expect(left.body.cargo).toEqual([]);
    // A keyed retry answers the same records and moves nothing again.
    const retry = await transfer(service, 'tr-src-1', 'tr-dock', { 'idempotency-key': 'tr-1' });
    expect(retry.body, JSON.stringify(retry.body)).toEqual(res.body);
  });

  it('answers records: [] when nothing is there', async () => {
    const res = await transfer(service, 'TR-EMPTY', 'TR-DOCK');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ records: [] });
  });

  it('refuses a destination that is blocked or cargo as a scan would, and moves nothing', async () => {
    await scan(service, { cargo_no: 'TR-TOTE-3', location_code: 'TR-SRC-3' });
    expectError(await transfer(service, 'TR-SRC-3', 'TR-HOLD'), 409, 'LOCATION_BLOCKED');
    const { zongpai } = await service.freshBox();
    expectError(await transfer(service, 'TR-SRC-3', zongpai), 422, 'LOCATION_IS_CARGO');
    // The demo plan's SSCC box as its GS1-128 label reads.
    expectError(await transfer(service, 'TR-SRC-3', '00106141411234567897'), 422, 'LOCATION_IS_CARGO');
    expect((await current(service, 'TR-TOTE-3')).current).toMatchObject({ location_code: 'TR-SRC-3' });
  });

  it('refuses a location not registered with LOCATION_NOT_FOUND when LOCATIONS_REGISTERED_ONLY is true', async () => {
    await scan(strict, { cargo_no: 'TR-TOTE-4', location_code: 'TR-SHELF' });
    expectError(await transfer(strict, 'TR-SHELF', 'TR-NOWHERE'), 404, 'LOCATION_NOT_FOUND');
    expectError(await transfer(strict, 'TR-UNKNOWN', 'TR-DOCK'), 404, 'LOCATION_NOT_FOUND');
    const res = await transfer(strict, 'TR-SHELF', 'TR-DOCK');
    expect(res.status).toBe(201);
    expect(res.body.records).toEqual([expect.objectContaining({ cargo_no: 'TR-TOTE-4', off_shelf: true })]);
  });

  it('refuses more than 500 pieces of cargo with TRANSFER_TOO_LARGE naming the count', async () => {
    const records = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        cargo_no: `TR-BIG-${String(from + i).padStart(4, '0')}`,
        location_code: 'TR-BIG',
      }));
    await scan(service, { records: records(0, 500) });
    await scan(service, { records: records(500, 1) });
    const res = await transfer(service, 'TR-BIG', 'TR-DOCK');
    expectError(res, 422, 'TRANSFER_TOO_LARGE', 'location');
    expect(res.body.message).toContain('501');
    expect((await current(service, 'TR-BIG-0000')).current).toMatchObject({ location_code: 'TR-BIG' });
  });

  it('leaves the newer scan current when a transfer races a scan of one of its pallets', async () => {
    const pallets = Array.from({ length: 8 }, (_, i) => `TR-RACE-${i}`);
    for (const zongpai_no of pallets)
      expect((await service.call('POST', '/v1/zongpai', { body: { zongpai_no } })).status).toBe(201);
    for (let round = 0; round < 3; round += 1) {
      const from = `TR-R${round}-SRC`;
      await scan(service, { records: pallets.map((cargo_no) => ({ cargo_no, location_code: from })) });
      const [moved, ...scans] = await Promise.all([
        transfer(service, from, 'TR-DOCK'),
        ...pallets.map((cargo_no) => service.call('POST', LOCATION, { body: { cargo_no, location_code: 'TR-FORK' } })),
      ]);
      expect(moved?.status, JSON.stringify(moved?.body)).toBe(201);
      for (const s of scans) expect(s.status).toBe(201);
      for (const pallet of pallets) {
        const where = await current(service, pallet);
        // The current location is the pallet's newest scan, whichever request recorded it.
        expect(where.current.id).toBe(where.history[0].id);
      }
    }
  });
});
