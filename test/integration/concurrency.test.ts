import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minutesAgo, startTestService, type ApiResponse, type TestService } from '../support/service.ts';

/**
 * Real parallel requests through the emulators. Over PostgreSQL the Data API emulator runs them
 * on a connection pool, so they truly race in the database; over PGlite they are serialised,
 * and the same outcomes must hold.
 */
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.close());

const statuses = (responses: { status: number }[]) =>
  responses.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {});
/** Every answer but the winners' (`won`) is 409 with `errorCode`. */
const expectOthersRefused = (responses: ApiResponse[], won: number, errorCode: string) =>
  expect(
    responses.filter((r) => r.status !== won).every((r) => r.status === 409 && r.body.error_code === errorCode),
  ).toBe(true);
/** `count` box numbers `BOX-<series>-00`, `-01`, … */
const boxNos = (series: string, count: number) =>
  Array.from({ length: count }, (_, i) => `BOX-${series}-${String(i).padStart(2, '0')}`);
const register = (zongpaiNo: string) => service.call('POST', '/v1/zongpai', { body: { zongpai_no: zongpaiNo } });
const close = (zongpaiNo: string) =>
  service.call('POST', `/v1/zongpai/${zongpaiNo}/close`, { token: service.tokens.supervisor });
const boxesOn = (zongpai: ApiResponse) => zongpai.body.boxes.map((b: { box_no: string }) => b.box_no);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('racing requests', () => {
  it('20 concurrent appends of different boxes to one zongpai all land on it', async () => {
    await register('PLT-RACE-1');
    const boxes = boxNos('R1', 20);
    for (const box of boxes) await service.plan(box, { 'SKU-A': 3 });
    const responses = await Promise.all(boxes.map((box) => service.saveBox(box, 'PLT-RACE-1', { 'SKU-A': 3 })));
    expect(statuses(responses)).toEqual({ 201: 20 });
    const pallet = await service.call('GET', '/v1/zongpai/PLT-RACE-1');
    expect(pallet.body).toEqual(expect.objectContaining({ box_count: 20, total_quantity: 60 }));
    expect(boxesOn(pallet)).toEqual(boxes);
  });

  it('10 concurrent saves of one box: exactly one 201 and nine 409 BOX_ALREADY_BOXED', async () => {
    await register('PLT-RACE-2');
    await service.plan('BOX-R2', { 'SKU-A': 10 });
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => service.saveBox('BOX-R2', 'PLT-RACE-2', { 'SKU-A': i + 1 })),
    );
    expect(statuses(responses)).toEqual({ 201: 1, 409: 9 });
    expectOthersRefused(responses, 201, 'BOX_ALREADY_BOXED');
    const winner = responses.find((r) => r.status === 201);
    const history = await service.call('GET', '/v1/box/BOX-R2/history');
    expect(history.body.events).toHaveLength(1);
    expect(history.body.events[0].items).toEqual(winner?.body.items);
  });

  it('concurrent PATCHes with the same version: one 200, the rest VERSION_CONFLICT', async () => {
    await register('PLT-RACE-3');
    await service.plan('BOX-R3', { 'SKU-A': 10 });
    await service.saveBox('BOX-R3', 'PLT-RACE-3', { 'SKU-A': 1 });
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        service.call('PATCH', '/v1/box/BOX-R3', {
          body: { version: 1, items: [{ item_code: 'SKU-A', quantity: i + 2 }] },
          token: service.tokens.supervisor,
        }),
      ),
    );
    expect(statuses(responses)).toEqual({ 200: 1, 409: 7 });
    expectOthersRefused(responses, 200, 'VERSION_CONFLICT');
    const winner = responses.find((r) => r.status === 200);
    const info = await service.call('GET', '/v1/box/info?box_no=BOX-R3');
    expect(info.body.version).toBe(2);
    expect(info.body.items[0].boxed_quantity).toBe(winner?.body.items[0].quantity);
  });

  it('a close racing with appends: every box that got 201 is on the zongpai, the rest got ZONGPAI_CLOSED', async () => {
    await register('PLT-RACE-4');
    const boxes = boxNos('R4', 12);
    for (const box of boxes) await service.plan(box, { 'SKU-A': 1 });
    const appends = boxes.map((box_no) =>
      service.call('POST', '/v1/box/simple', { body: { box_no, zongpai_no: 'PLT-RACE-4' } }),
    );
    const [responses, closed] = await Promise.all([Promise.all(appends), close('PLT-RACE-4')]);
    expect(closed.status).toBe(200);
    const landed = boxes.filter((_, i) => responses[i]?.status === 201);
    expectOthersRefused(responses, 201, 'ZONGPAI_CLOSED');
    expect(boxesOn(await service.call('GET', '/v1/zongpai/PLT-RACE-4'))).toEqual(landed);
  });
  it('a close racing appends answers with exactly the boxes on the zongpai when it closed; no append lands after it', async () => {
    await register('PLT-RACE-5');
    const boxes = boxNos('R5', 40);
    // Many items per box keep each append's statement running for a while after it locked the zongpai.
    const plan = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`SKU-${String(i).padStart(3, '0')}`, 1]));
    for (const box of boxes) await service.plan(box, plan);
    const appends = boxes.map(async (box_no, i) => {
      await sleep(i * 2);
      return service.call('POST', '/v1/box/simple', { body: { box_no, zongpai_no: 'PLT-RACE-5' } });
    });
    const closing = sleep(35).then(() => close('PLT-RACE-5'));
    const [responses, closed] = await Promise.all([Promise.all(appends), closing]);
    const landed = boxes.filter((_, i) => responses[i]?.status === 201);
    expectOthersRefused(responses, 201, 'ZONGPAI_CLOSED');
    const pallet = await service.call('GET', '/v1/zongpai/PLT-RACE-5');
    expect(closed.status).toBe(200);
    expect(closed.body).toEqual(pallet.body);
    expect(closed.body).toEqual(
      expect.objectContaining({ status: 'CLOSED', box_count: landed.length, total_quantity: landed.length * 300 }),
    );
    expect(boxesOn(closed)).toEqual(landed);
  });
  it('a close that waits for an append in flight lists the appended box in its answer', async () => {
    await register('PLT-RACE-6');
    await service.plan('BOX-R6', { 'SKU-A': 2 });
    const { makeBoxSave } = await import('../../lib/box/index.ts');
    // The append's own statement, in a transaction kept open while the close begins.
    const closing = await service.stack.db.transaction(async (tx) => {
      const append = makeBoxSave({ db: tx, config: service.stack.config });
      expect((await append({ box_no: 'BOX-R6', zongpai_no: 'PLT-RACE-6' }, 'olga')).status).toBe('BOXED');
      const closed = close('PLT-RACE-6');
      await sleep(300);
      return { closed };
    });
    const closed = await closing.closed;
    expect(closed.status).toBe(200);
    expect(closed.body).toEqual(
      expect.objectContaining({
        status: 'CLOSED',
        box_count: 1,
        total_quantity: 2,
        boxes: [{ box_no: 'BOX-R6', total_quantity: 2 }],
      }),
    );
    expect(closed.body).toEqual((await service.call('GET', '/v1/zongpai/PLT-RACE-6')).body);
  });

  it('two supervisors voiding two scans of one cargo at once: both voids hold, the current location is the newest left', async () => {
    const [sam, sue] = await Promise.all([
      service.token('sam', ['operator', 'supervisor']),
      service.token('sue', ['operator', 'supervisor']),
    ]);
    const voidScan = (cargo: string, id: string, token: string, key: string) =>
      service.call('DELETE', `/v1/cargo/location/${cargo}/records/${id}`, {
        body: { version: 1 },
        headers: { 'idempotency-key': key },
        token,
      });
    // Which two of three scans (oldest, middle, newest) are voided, and where the cargo is then.
    const pairs = [
      [2, 1, 'V-1'],
      [2, 0, 'V-2'],
      [1, 0, 'V-3'],
    ] as const;
    for (let round = 0; round < 24; round += 1) {
      const [first, second, left] = pairs[round % pairs.length]!;
      const cargo = `BOX-RV${String(round).padStart(2, '0')}`;
      const scanned = await service.call('POST', '/v1/cargo/location', {
        body: {
          records: ['V-1', 'V-2', 'V-3'].map((code, i) => ({
            cargo_no: cargo,
            location_code: code,
            scanned_at: minutesAgo(30 - i * 10),
          })),
        },
      });
      const ids = scanned.body.records.map((r: { id: string }) => r.id) as string[];
      const voids = await Promise.all([
        voidScan(cargo, ids[first]!, sam, `k-rv-${round}-sam`),
        voidScan(cargo, ids[second]!, sue, `k-rv-${round}-sue`),
      ]);
      expect(
        voids.map((v) => [v.status, v.body.voided_by]),
        cargo,
      ).toEqual([
        [200, 'sam'],
        [200, 'sue'],
      ]);
      const located = await service.call('GET', `/v1/cargo/location/${cargo}`);
      expect(located.body.current?.location_code, cargo).toBe(left);
      expect(
        located.body.history
          .filter((h: { voided_by?: string | null }) => h.voided_by != null)
          .map((h: { id: string; voided_by: string }) => [h.id, h.voided_by])
          .sort(),
        cargo,
      ).toEqual(
        [
          [ids[first], 'sam'],
          [ids[second], 'sue'],
        ].sort(),
      );
    }
  });
});
