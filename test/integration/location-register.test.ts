import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { startTestService, type TestService } from '../support/service.ts';

/** The location register, through the gateway as a supervisor's tools and the handhelds call it. */
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.close());

const REGISTER = '/v1/cargo/locations';
const supervisor = () => service.tokens.supervisor;
const put = (code: string, body: unknown, headers?: Record<string, string>) =>
  service.call('PUT', `${REGISTER}/${code}`, {
    body,
    token: supervisor(),
    ...(headers === undefined ? {} : { headers }),
  });
const importLocations = (locations: unknown[], headers?: Record<string, string>) =>
  service.call('POST', REGISTER, {
    body: { locations },
    token: supervisor(),
    ...(headers === undefined ? {} : { headers }),
  });
const eventsOf = async (code: string) =>
  (
    await service.stack.db.query<{ type: string; data: Record<string, unknown> }>(
      `SELECT type, data FROM cargo.event WHERE type LIKE 'location.%' AND data->>'location_code' = :code ORDER BY sequence`,
      { code },
    )
  ).rows;

describe('PUT /v1/cargo/locations/{location_code}', () => {
  it('registers a new location at version 1 with 201, off the shelf unless it is a shelf, and announces it', async () => {
    const dock = await put('dock-r1', { kind: 'DOCK', zone: 'yard', description: 'Dock 1, north gate' });
    expect(dock.status, JSON.stringify(dock.body)).toBe(201);
    expect(dock.body).toEqual({
      location_code: 'DOCK-R1',
      kind: 'DOCK',
      off_shelf: true,
      zone: 'YARD',
      description: 'Dock 1, north gate',
      blocked: false,
      version: 1,
      registered_at: expect.any(String),
      changed_at: expect.any(String),
    });
    const shelf = await put('A-R1-01', { kind: 'SHELF' });
    expect(shelf.status).toBe(201);
    expect(shelf.body).toMatchObject({ kind: 'SHELF', off_shelf: false, zone: null, description: null });
    expect(await eventsOf('DOCK-R1')).toEqual([{ type: 'location.registered', data: dock.body }]);
    const read = await service.call('GET', `${REGISTER}/DOCK-R1`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(dock.body);
  });

  it('answers a PUT that changes nothing with the location as it is: 200, no new version, no event', async () => {
    const first = await put('DOCK-R2', { kind: 'DOCK', zone: 'YARD' });
    expect(first.status).toBe(201);
    const again = await put('DOCK-R2', { kind: 'DOCK', zone: 'yard', blocked: false });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await eventsOf('DOCK-R2')).toHaveLength(1);
  });

  it('changes a location at its next version with 200 and announces location.changed, blocking included', async () => {
    expect((await put('STG-R3', { kind: 'STAGING' })).status).toBe(201);
    const blocked = await put('STG-R3', { kind: 'STAGING', blocked: true, description: 'Rack broken' });
    expect(blocked.status).toBe(200);
    expect(blocked.body).toMatchObject({ version: 2, blocked: true, description: 'Rack broken' });
    const unblocked = await put('STG-R3', { kind: 'STAGING', version: 2 });
    expect(unblocked.status).toBe(200);
    expect(unblocked.body).toMatchObject({ version: 3, blocked: false, description: null });
    expect((await eventsOf('STG-R3')).map((e) => [e.type, e.data.version])).toEqual([
      ['location.registered', 1],
      ['location.changed', 2],
      ['location.changed', 3],
    ]);
  });

  it('refuses a change based on a stale version, in the body or If-Match, with VERSION_CONFLICT and changes nothing', async () => {
    expect((await put('FLR-R4', { kind: 'FLOOR' })).status).toBe(201);
    expect((await put('FLR-R4', { kind: 'FLOOR', zone: 'B', version: 1 })).status).toBe(200);
    expectError(await put('FLR-R4', { kind: 'FLOOR', zone: 'C', version: 1 }), 409, 'VERSION_CONFLICT', 'box');
    expectError(await put('FLR-R4', { kind: 'FLOOR', zone: 'C' }, { 'if-match': '"1"' }), 409, 'VERSION_CONFLICT');
    // A version names a location that is there: none registered is a conflict too.
    expectError(await put('FLR-R4-NEW', { kind: 'FLOOR', version: 1 }), 409, 'VERSION_CONFLICT');
    const now = await service.call('GET', `${REGISTER}/FLR-R4`);
    expect(now.body).toMatchObject({ zone: 'B', version: 2 });
    expect((await put('FLR-R4', { kind: 'FLOOR', zone: 'C' }, { 'if-match': 'W/"2"' })).body).toMatchObject({
      zone: 'C',
      version: 3,
    });
    expectError(await service.call('GET', `${REGISTER}/FLR-R4-NEW`), 404, 'LOCATION_NOT_FOUND', 'location');
  });

  it('refuses a code that is a registered zongpai, a saved box or a box of the ERP plan with LOCATION_IS_CARGO', async () => {
    const { box, zongpai } = await service.freshBox({ 'SKU-A': 1 });
    await service.plan('BOX-R5-PLAN', { 'SKU-A': 1 });
    expect((await service.saveBox(box, zongpai, { 'SKU-A': 1 })).status).toBe(201);
    // The last, the demo plan's SSCC box as its GS1-128 label reads.
    for (const code of [zongpai, box, 'BOX-R5-PLAN', '00106141411234567897']) {
      const res = await put(code, { kind: 'FLOOR' });
      expectError(res, 422, 'LOCATION_IS_CARGO', 'location');
      expect(res.body.message).toContain(code);
      expectError(await service.call('GET', `${REGISTER}/${code}`), 404, 'LOCATION_NOT_FOUND');
    }
  });

  it('registers a location once when two supervisors register it at the same moment: one 201, the other 200 as it is', async () => {
    for (let round = 0; round < 5; round += 1) {
      const code = `DOCK-RACE-${round}`;
      const answers = await Promise.all([put(code, { kind: 'DOCK' }), put(code, { kind: 'DOCK' })]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
      expect(answers[0]?.body).toEqual(answers[1]?.body);
      expect((await eventsOf(code)).map((e) => e.type)).toEqual(['location.registered']);
    }
  });

  it('answers a keyed retry with the first answer and writes once', async () => {
    const first = await put('DOCK-R6', { kind: 'DOCK' }, { 'idempotency-key': 'reg-r6' });
    const retry = await put('DOCK-R6', { kind: 'DOCK' }, { 'idempotency-key': 'reg-r6' });
    expect([first.status, retry.status]).toEqual([201, 201]);
    expect(retry.body).toEqual(first.body);
    expect(await eventsOf('DOCK-R6')).toHaveLength(1);
  });

  it('is for supervisors: an operator may read the register but not change it', async () => {
    expectError(await service.call('PUT', `${REGISTER}/DOCK-R7`, { body: { kind: 'DOCK' } }), 403, 'FORBIDDEN');
    const integration = await service.token('erp', ['integration']);
    expect((await service.call('GET', `${REGISTER}?limit=1`, { token: integration })).status).toBe(200);
  });
});

describe('POST /v1/cargo/locations (import)', () => {
  it('creates, changes and leaves alone in one statement, and counts each', async () => {
    const first = await importLocations([
      { location_code: 'IMP-A-01', kind: 'SHELF', zone: 'IMP' },
      { location_code: 'IMP-A-02', kind: 'SHELF', zone: 'IMP' },
      { location_code: 'IMP-DOCK', kind: 'DOCK' },
    ]);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({ created: 3, changed: 0, unchanged: 0 });
    const second = await importLocations([
      { location_code: 'IMP-A-01', kind: 'SHELF', zone: 'IMP' },
      { location_code: 'IMP-A-02', kind: 'SHELF', zone: 'IMP', blocked: true },
      { location_code: 'IMP-A-03', kind: 'SHELF', zone: 'IMP' },
    ]);
    expect(second.body).toEqual({ created: 1, changed: 1, unchanged: 1 });
    expect((await service.call('GET', `${REGISTER}/IMP-A-02`)).body).toMatchObject({ blocked: true, version: 2 });
    expect((await eventsOf('IMP-A-01')).map((e) => e.type)).toEqual(['location.registered']);
    expect((await eventsOf('IMP-A-02')).map((e) => e.type)).toEqual(['location.registered', 'location.changed']);
  });

  it('stores none when one is cargo, naming each bad index', async () => {
    const { zongpai } = await service.freshBox();
    const res = await importLocations([
      { location_code: 'IMP-B-01', kind: 'SHELF' },
      { location_code: zongpai, kind: 'FLOOR' },
      { location_code: 'IMP-B-02', kind: 'SHELF' },
      { location_code: 'BOX-1001', kind: 'FLOOR' },
      { location_code: '00106141411234567897', kind: 'FLOOR' },
    ]);
    expectError(res, 422, 'LOCATION_IS_CARGO');
    expect(res.body.details.map((d: { field: string; error_code: string }) => [d.field, d.error_code])).toEqual([
      ['locations[1].location_code', 'LOCATION_IS_CARGO'],
      ['locations[3].location_code', 'LOCATION_IS_CARGO'],
      ['locations[4].location_code', 'LOCATION_IS_CARGO'],
    ]);
    expectError(await service.call('GET', `${REGISTER}/IMP-B-01`), 404, 'LOCATION_NOT_FOUND');
  });

  it('refuses a code listed twice, naming the later index, and an entry with a bad field by its index', async () => {
    const twice = await importLocations([
      { location_code: 'IMP-C-01', kind: 'SHELF' },
      { location_code: 'imp-c-01', kind: 'DOCK' },
    ]);
    expectError(twice, 400, 'VALIDATION_ERROR');
    expect(twice.body.details[0]).toMatchObject({ field: 'locations[1].location_code' });
    const bad = await importLocations([
      { location_code: 'IMP-C-02', kind: 'SHELF' },
      { location_code: 'IMP-C-03', kind: 'ROOF' },
    ]);
    expectError(bad, 400, 'VALIDATION_ERROR');
    expect(bad.body.details[0]).toMatchObject({ field: 'locations[1].kind' });
    expectError(await service.call('GET', `${REGISTER}/IMP-C-02`), 404, 'LOCATION_NOT_FOUND');
    expectError(await importLocations([]), 400, 'VALIDATION_ERROR');
  });

  it('replays a keyed retry: the same counts, nothing written twice', async () => {
    const locations = [{ location_code: 'IMP-D-01', kind: 'STAGING' }];
    const first = await importLocations(locations, { 'idempotency-key': 'imp-d' });
    const retry = await importLocations(locations, { 'idempotency-key': 'imp-d' });
    expect(first.body).toEqual({ created: 1, changed: 0, unchanged: 0 });
    expect(retry.body).toEqual(first.body);
    expect(await eventsOf('IMP-D-01')).toHaveLength(1);
  });

  it('ends an import of 500 racing a PUT of one of them with one consistent version and one event per change', async () => {
    const codes = Array.from({ length: 500 }, (_, i) => `RACE-${String(i).padStart(3, '0')}`);
    expect((await importLocations(codes.map((location_code) => ({ location_code, kind: 'SHELF' })))).status).toBe(200);
    const raced = codes[250] as string;
    const [imported, changed] = await Promise.all([
      importLocations(codes.map((location_code) => ({ location_code, kind: 'SHELF', zone: 'R' }))),
      put(raced, { kind: 'FLOOR' }),
    ]);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const location = (await service.call('GET', `${REGISTER}/${raced}`)).body;
    const events = await eventsOf(raced);
    // Each change took the next version, and the location is as the last change left it.
    expect(events.map((e) => e.data.version)).toEqual(events.map((_, i) => i + 1));
    expect(events.at(-1)?.data).toEqual(location);
    expect(location.version).toBe(3);
    expect(imported.body.changed + imported.body.unchanged).toBe(500);
  });
});

describe('GET /v1/cargo/locations', () => {
  it('lists the register by code, a page at a time, by kind, zone and blocked', async () => {
    await importLocations([
      { location_code: 'LST-01', kind: 'SHELF', zone: 'LST' },
      { location_code: 'LST-02', kind: 'DOCK', zone: 'LST' },
      { location_code: 'LST-03', kind: 'SHELF', zone: 'LST', blocked: true },
      { location_code: 'LST-04', kind: 'SHELF', zone: 'LST' },
    ]);
    const first = await service.call('GET', `${REGISTER}?zone=lst&limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.locations.map((l: { location_code: string }) => l.location_code)).toEqual(['LST-01', 'LST-02']);
    const next = await service.call('GET', `${REGISTER}?zone=LST&limit=2&cursor=${first.body.next_cursor}`);
    expect(next.body.locations.map((l: { location_code: string }) => l.location_code)).toEqual(['LST-03', 'LST-04']);
    expect(next.body.next_cursor).toBeNull();
    const shelves = await service.call('GET', `${REGISTER}?zone=LST&kind=SHELF&blocked=false`);
    expect(shelves.body.locations.map((l: { location_code: string }) => l.location_code)).toEqual(['LST-01', 'LST-04']);
    const blocked = await service.call('GET', `${REGISTER}?blocked=true&limit=100`);
    expect(blocked.body.locations.map((l: { location_code: string }) => l.location_code)).toContain('LST-03');
    expect(blocked.body.locations.every((l: { blocked: boolean }) => l.blocked)).toBe(true);
    expectError(await service.call('GET', `${REGISTER}?blocked=yes`), 400, 'VALIDATION_ERROR');
    expectError(await service.call('GET', `${REGISTER}?kind=ROOF`), 400, 'VALIDATION_ERROR');
    expectError(await service.call('GET', `${REGISTER}?cursor=bm9wZQ`), 400, 'VALIDATION_ERROR');
  });
});

describe('POST /v1/zongpai and the register', () => {
  it('refuses to register a zongpai whose number is a registered location with INVALID_ZONGPAI', async () => {
    expect((await put('PLT-LOC-1', { kind: 'FLOOR' })).status).toBe(201);
    const res = await service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'PLT-LOC-1' } });
    expectError(res, 400, 'INVALID_ZONGPAI');
    expect(res.body.message).toContain('registered location');
  });

  it('refuses an SSCC zongpai whose GS1-128 label ("00" + its number) is a registered location with INVALID_ZONGPAI', async () => {
    const sscc = '000123456000123469';
    expect((await put(`00${sscc}`, { kind: 'FLOOR' })).status).toBe(201);
    const res = await service.call('POST', '/v1/zongpai', { body: { zongpai_no: sscc } });
    expectError(res, 400, 'INVALID_ZONGPAI');
    expect(res.body.message).toContain('registered location');
  });
});
