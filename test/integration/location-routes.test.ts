import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { minutesAgo, startTestService, type TestService } from '../support/service.ts';

/** What is at a location, and voiding a wrong scan, through the gateway as a scanner would. */
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.close());

const LOCATION = '/v1/cargo/location';
const scan = async (body: unknown) => {
  const res = await service.call('POST', LOCATION, { body });
  expect(res.status).toBe(201);
  return res.body.records as { id: string; cargo_no: string }[];
};
const content = (code: string, query = '', token?: string) =>
  service.call('GET', `/v1/cargo/locations/${code}/cargo${query}`, token === undefined ? {} : { token });
const voidScan = (cargoNo: string, id: string, body: unknown = { version: 1 }, headers?: Record<string, string>) =>
  service.call('DELETE', `${LOCATION}/${cargoNo}/records/${id}`, {
    body,
    token: service.tokens.supervisor,
    ...(headers === undefined ? {} : { headers }),
  });
const current = async (cargoNo: string) => (await service.call('GET', `${LOCATION}/${cargoNo}`)).body.current;

describe('GET /v1/cargo/locations/{location_code}/cargo', () => {
  // A container at the yard carries thousands of boxes: more box numbers than one Data API result row (64 KB) carries as a list.
  it('lists a zongpai carrying 5 000 boxes with every one of them', async () => {
    expect((await service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'CTR-5000' } })).status).toBe(201);
    await service.stack.db.query(
      `INSERT INTO cargo.box (box_no, status, zongpai_no, zongpai_since, version, total_quantity, saved_at, saved_by)
       SELECT 'BOX-YRD-' || lpad(n::text, 4, '0'), 'BOXED', 'CTR-5000', now(), 1, 1, now(), 'olga' FROM generate_series(1, 5000) n`,
    );
    await scan({ cargo_no: 'CTR-5000', location_code: 'YARD-9', off_shelf: true });
    const res = await content('YARD-9');
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body.cargo).toHaveLength(1);
    expect(res.body.cargo[0]).toMatchObject({ cargo_no: 'CTR-5000', kind: 'ZONGPAI', off_shelf: true });
    expect(res.body.cargo[0].boxes).toHaveLength(5000);
    expect(res.body.cargo[0].boxes.slice(0, 2)).toEqual(['BOX-YRD-0001', 'BOX-YRD-0002']);
    expect(res.body.cargo[0].boxes[4999]).toBe('BOX-YRD-5000');
  });

  it('lists the cargo whose current location it is, a box on a zongpai under its zongpai', async () => {
    await service.plan('BOX-C101', { 'SKU-A': 1 });
    await service.plan('BOX-C102', { 'SKU-A': 1 });
    expect((await service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'PLT-C100' } })).status).toBe(201);
    for (const box of ['BOX-C101', 'BOX-C102'])
      expect(
        (await service.call('POST', '/v1/box/simple', { body: { box_no: box, zongpai_no: 'PLT-C100' } })).status,
      ).toBe(201);
    await scan({
      records: [
        { cargo_no: 'BOX-C101', location_code: 'PACK-C', scanned_at: minutesAgo(30) },
        { cargo_no: 'BOX-C102', location_code: 'PACK-C', scanned_at: minutesAgo(30) },
        { cargo_no: 'PLT-C100', location_code: 'DOCK-C', off_shelf: true, scanned_at: minutesAgo(20) },
        { cargo_no: 'TOTE-C1', location_code: 'DOCK-C', scanned_at: minutesAgo(10) },
        { cargo_no: 'TOTE-C2', location_code: 'DOCK-C', scanned_at: minutesAgo(40) },
        { cargo_no: 'TOTE-C2', location_code: 'A-09', scanned_at: minutesAgo(5) },
      ],
    });
    const res = await content('dock-c');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      location_code: 'DOCK-C',
      cargo: [
        {
          cargo_no: 'PLT-C100',
          kind: 'ZONGPAI',
          since: expect.any(String),
          off_shelf: true,
          boxes: ['BOX-C101', 'BOX-C102'],
        },
        { cargo_no: 'TOTE-C1', kind: 'CARGO', since: expect.any(String), off_shelf: false, boxes: [] },
      ],
      next_cursor: null,
    });
    // The boxes left the packing station on their pallet.
    expect((await content('PACK-C')).body.cargo).toEqual([]);
    // A box scanned elsewhere after its pallet is where it was scanned, on its own.
    await scan({ cargo_no: 'BOX-C102', location_code: 'PACK-C' });
    expect((await content('PACK-C')).body.cargo).toEqual([
      expect.objectContaining({ cargo_no: 'BOX-C102', kind: 'BOX', boxes: [] }),
    ]);
    expect((await content('DOCK-C')).body.cargo[0].boxes).toEqual(['BOX-C101']);
    // A box scanned where its pallet is, after the pallet, is on the pallet there: listed under it, not beside it.
    await scan({ cargo_no: 'BOX-C101', location_code: 'DOCK-C' });
    const dock = (await content('DOCK-C')).body;
    expect(dock.cargo.map((c: { cargo_no: string }) => c.cargo_no)).toEqual(['PLT-C100', 'TOTE-C1']);
    expect(dock.cargo[0].boxes).toEqual(['BOX-C101']);
  });

  it('pages through a location by cursor, without gaps or repeats', async () => {
    const records = Array.from({ length: 25 }, (_, i) => ({
      cargo_no: `BOX-P${String(i).padStart(3, '0')}`,
      location_code: 'ZONE-P',
    }));
    await scan({ records });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await content('ZONE-P', cursor === null ? '?limit=10' : `?limit=10&cursor=${cursor}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.cargo.map((c: { cargo_no: string }) => c.cargo_no));
      cursor = res.body.next_cursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(seen).toEqual(records.map((r) => r.cargo_no));
    expect(pages).toBe(3);
  });

  it('answers an empty page for a location where nothing is', async () => {
    expect((await content('EMPTY-1')).body).toEqual({ location_code: 'EMPTY-1', cargo: [], next_cursor: null });
  });

  it('lets the integration role read it, and refuses a bad location code, limit or cursor with 400', async () => {
    const integration = await service.token('erp', ['integration']);
    expect((await content('DOCK-C', '', integration)).status).toBe(200);
    expectError(await content('A'), 400, 'INVALID_LOCATION_CODE', 'location');
    expectError(await content('DOCK-C', '?limit=0'), 400, 'VALIDATION_ERROR');
    expectError(await content('DOCK-C', '?cursor=bm90LWEtY3Vyc29y'), 400, 'VALIDATION_ERROR');
  });

  it('uses one Data API call', async () => {
    service.stack.dataApi.resetCounters();
    await content('DOCK-C');
    expect(service.stack.dataApi.counters()).toEqual(
      expect.objectContaining({ ExecuteStatement: 1, BeginTransaction: 0 }),
    );
  });
});

describe('DELETE /v1/cargo/location/{cargo_no}/records/{id}', () => {
  it('voids a wrong scan: it stays in the history, marked, and the current location falls back to the scan before', async () => {
    const [, wrong] = await scan({
      records: [
        { cargo_no: 'BOX-V001', location_code: 'A-01', scanned_at: minutesAgo(20) },
        { cargo_no: 'BOX-V001', location_code: 'WRONG-1', scanned_at: minutesAgo(10) },
      ],
    });
    expect((await current('BOX-V001')).location_code).toBe('WRONG-1');
    const res = await voidScan('box-v001', wrong!.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: wrong!.id,
      cargo_no: 'BOX-V001',
      location_code: 'WRONG-1',
      voided_at: expect.any(String),
      voided_by: 'sam',
      version: 2,
    });
    expect((await current('BOX-V001')).location_code).toBe('A-01');
    const history = (await service.call('GET', `${LOCATION}/BOX-V001`)).body.history;
    expect(
      history.map((h: { location_code: string; voided_by: string | null }) => [h.location_code, h.voided_by]),
    ).toEqual([
      ['WRONG-1', 'sam'],
      ['A-01', null],
    ]);
    expect((await content('WRONG-1')).body.cargo).toEqual([]);
    expect((await content('A-01')).body.cargo.map((c: { cargo_no: string }) => c.cargo_no)).toContain('BOX-V001');
  });

  it('voids an older scan without moving the current location', async () => {
    const [older] = await scan({
      records: [
        { cargo_no: 'BOX-V002', location_code: 'B-01', scanned_at: minutesAgo(20) },
        { cargo_no: 'BOX-V002', location_code: 'B-02', scanned_at: minutesAgo(10) },
      ],
    });
    expect((await voidScan('BOX-V002', older!.id, undefined, { 'if-match': '"1"' })).status).toBe(200);
    expect((await current('BOX-V002')).location_code).toBe('B-02');
  });

  it('leaves no current location when the only scan is voided, and keeps the voided scan in the history', async () => {
    const [only] = await scan({ cargo_no: 'BOX-V003', location_code: 'C-01' });
    expect((await voidScan('BOX-V003', only!.id)).status).toBe(200);
    const res = await service.call('GET', `${LOCATION}/BOX-V003`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ cargo_no: 'BOX-V003', current: null, next_cursor: null });
    expect(res.body.history).toEqual([
      expect.objectContaining({ id: only!.id, location_code: 'C-01', voided_by: 'sam', voided_at: expect.any(String) }),
    ]);
  });

  it('ends on the newest scan not voided when two scans of one cargo are voided at once', async () => {
    for (let round = 0; round < 20; round += 1) {
      const cargo = `BOX-VR${String(round).padStart(2, '0')}`;
      const [, middle, newest] = await scan({
        records: ['R-1', 'R-2', 'R-3'].map((code, i) => ({
          cargo_no: cargo,
          location_code: code,
          scanned_at: minutesAgo(30 - i * 10),
        })),
      });
      const voids = await Promise.all([voidScan(cargo, newest!.id), voidScan(cargo, middle!.id)]);
      expect(voids.map((v) => v.status)).toEqual([200, 200]);
      expect((await current(cargo))?.location_code, cargo).toBe('R-1');
      expect((await content('R-2')).body.cargo.map((c: { cargo_no: string }) => c.cargo_no)).not.toContain(cargo);
    }
  });

  it('ends on the newest scan not voided when a late backlog arrives while the current one is voided', async () => {
    for (let round = 0; round < 20; round += 1) {
      const cargo = `BOX-VL${String(round).padStart(2, '0')}`;
      const [, newest] = await scan({
        records: [
          { cargo_no: cargo, location_code: 'L-1', scanned_at: minutesAgo(30) },
          { cargo_no: cargo, location_code: 'L-3', scanned_at: minutesAgo(10) },
        ],
      });
      const [voided, late] = await Promise.all([
        voidScan(cargo, newest!.id),
        service.call('POST', LOCATION, { body: { cargo_no: cargo, location_code: 'L-2', scanned_at: minutesAgo(20) } }),
      ]);
      expect([voided.status, late.status]).toEqual([200, 201]);
      expect((await current(cargo))?.location_code, cargo).toBe('L-2');
    }
  });

  it('refuses operators with 403 FORBIDDEN', async () => {
    const [record] = await scan({ cargo_no: 'BOX-V004', location_code: 'D-01' });
    const res = await service.call('DELETE', `${LOCATION}/BOX-V004/records/${record!.id}`, { body: { version: 1 } });
    expectError(res, 403, 'FORBIDDEN', 'auth');
    expect((await current('BOX-V004')).location_code).toBe('D-01');
  });

  it('answers 404 RECORD_NOT_FOUND for a record of another cargo, and voids nothing', async () => {
    const [theirs] = await scan({ cargo_no: 'BOX-V005', location_code: 'E-01' });
    await scan({ cargo_no: 'BOX-V006', location_code: 'E-02' });
    expectError(await voidScan('BOX-V006', theirs!.id), 404, 'RECORD_NOT_FOUND', 'location');
    expectError(await voidScan('BOX-V006', '9223372036854775807'), 404, 'RECORD_NOT_FOUND', 'location');
    expect((await current('BOX-V005')).location_code).toBe('E-01');
  });

  it('answers VERSION_CONFLICT for a voided record named at version 1, and the record as it is at version 2', async () => {
    const [record] = await scan({ cargo_no: 'BOX-V007', location_code: 'F-01' });
    const first = await voidScan('BOX-V007', record!.id);
    expect(first.status).toBe(200);
    expectError(await voidScan('BOX-V007', record!.id), 409, 'VERSION_CONFLICT');
    const again = await voidScan('BOX-V007', record!.id, { version: 2 });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });

  it('requires the version, and refuses an id that is not a record id with 400', async () => {
    const [record] = await scan({ cargo_no: 'BOX-V008', location_code: 'G-01' });
    expectError(await voidScan('BOX-V008', record!.id, {}), 400, 'VALIDATION_ERROR');
    expectError(await voidScan('BOX-V008', 'abc'), 400, 'VALIDATION_ERROR');
    expectError(await voidScan('BOX-V008', '99999999999999999999'), 400, 'VALIDATION_ERROR');
    const tooLarge = await voidScan('BOX-V008', record!.id, { version: 2 ** 31 });
    expectError(tooLarge, 400, 'VALIDATION_ERROR');
    expect(tooLarge.body.message).toBe('version must be at most 2147483647');
    expect((await current('BOX-V008')).location_code).toBe('G-01');
  });

  it('voids once under an Idempotency-Key and answers a retry the same', async () => {
    const [record] = await scan({ cargo_no: 'BOX-V009', location_code: 'H-01' });
    const headers = { 'idempotency-key': 'void-v009' };
    const first = await voidScan('BOX-V009', record!.id, { version: 1 }, headers);
    const retry = await voidScan('BOX-V009', record!.id, { version: 1 }, headers);
    expect([first.status, retry.status]).toEqual([200, 200]);
    expect(retry.body).toEqual(first.body);
  });

  it('uses one Data API call', async () => {
    const [record] = await scan({ cargo_no: 'BOX-V010', location_code: 'J-01' });
    service.stack.dataApi.resetCounters();
    await voidScan('BOX-V010', record!.id);
    expect(service.stack.dataApi.counters()).toEqual(
      expect.objectContaining({ ExecuteStatement: 1, BeginTransaction: 0 }),
    );
  });
});
