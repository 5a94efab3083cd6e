import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.ts';

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

describe('racing requests', () => {
  it('20 concurrent appends of different boxes to one zongpai all land on it', async () => {
    await service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'PLT-RACE-1' } });
    const boxes = Array.from({ length: 20 }, (_, i) => `BOX-R1-${String(i).padStart(2, '0')}`);
    for (const box of boxes) await service.plan(box, { 'SKU-A': 3 });
    const responses = await Promise.all(
      boxes.map((box_no) =>
        service.call('POST', '/v1/box', {
          body: { box_no, zongpai_no: 'PLT-RACE-1', items: [{ item_code: 'SKU-A', quantity: 3 }] },
        }),
      ),
    );
    expect(statuses(responses)).toEqual({ 201: 20 });
    const pallet = await service.call('GET', '/v1/zongpai/PLT-RACE-1');
    expect(pallet.body).toEqual(expect.objectContaining({ box_count: 20, total_quantity: 60 }));
    expect(pallet.body.boxes.map((b: { box_no: string }) => b.box_no)).toEqual(boxes);
  });

  it('10 concurrent saves of one box: exactly one 201 and nine 409 BOX_ALREADY_BOXED', async () => {
    await service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'PLT-RACE-2' } });
    await service.plan('BOX-R2', { 'SKU-A': 10 });
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        service.call('POST', '/v1/box', {
          body: { box_no: 'BOX-R2', zongpai_no: 'PLT-RACE-2', items: [{ item_code: 'SKU-A', quantity: i + 1 }] },
        }),
      ),
    );
    expect(statuses(responses)).toEqual({ 201: 1, 409: 9 });
    expect(responses.filter((r) => r.status === 409).every((r) => r.body.error_code === 'BOX_ALREADY_BOXED')).toBe(
      true,
    );
    const winner = responses.find((r) => r.status === 201);
    const history = await service.call('GET', '/v1/box/BOX-R2/history');
    expect(history.body.events).toHaveLength(1);
    expect(history.body.events[0].items).toEqual(winner?.body.items);
  });

  it('concurrent PATCHes with the same version: one 200, the rest VERSION_CONFLICT', async () => {
    await service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'PLT-RACE-3' } });
    await service.plan('BOX-R3', { 'SKU-A': 10 });
    await service.call('POST', '/v1/box', {
      body: { box_no: 'BOX-R3', zongpai_no: 'PLT-RACE-3', items: [{ item_code: 'SKU-A', quantity: 1 }] },
    });
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        service.call('PATCH', '/v1/box/BOX-R3', {
          body: { version: 1, items: [{ item_code: 'SKU-A', quantity: i + 2 }] },
          token: service.tokens.supervisor,
        }),
      ),
    );
    expect(statuses(responses)).toEqual({ 200: 1, 409: 7 });
    expect(responses.filter((r) => r.status === 409).every((r) => r.body.error_code === 'VERSION_CONFLICT')).toBe(true);
    const winner = responses.find((r) => r.status === 200);
    const info = await service.call('GET', '/v1/box/info?box_no=BOX-R3');
    expect(info.body.version).toBe(2);
    expect(info.body.items[0].boxed_quantity).toBe(winner?.body.items[0].quantity);
  });

  it('a close racing with appends: every box that got 201 is on the zongpai, the rest got ZONGPAI_CLOSED', async () => {
    await service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'PLT-RACE-4' } });
    const boxes = Array.from({ length: 12 }, (_, i) => `BOX-R4-${String(i).padStart(2, '0')}`);
    for (const box of boxes) await service.plan(box, { 'SKU-A': 1 });
    const appends = boxes.map((box_no) =>
      service.call('POST', '/v1/box/simple', { body: { box_no, zongpai_no: 'PLT-RACE-4' } }),
    );
    const close = service.call('POST', '/v1/zongpai/PLT-RACE-4/close', { token: service.tokens.supervisor });
    const [responses, closed] = await Promise.all([Promise.all(appends), close]);
    expect(closed.status).toBe(200);
    const landed = boxes.filter((_, i) => responses[i]?.status === 201);
    expect(
      responses
        .filter((r) => r.status !== 201)
        .every((r) => r.status === 409 && r.body.error_code === 'ZONGPAI_CLOSED'),
    ).toBe(true);
    const pallet = await service.call('GET', '/v1/zongpai/PLT-RACE-4');
    expect(pallet.body.boxes.map((b: { box_no: string }) => b.box_no)).toEqual(landed);
  });
  it('a close racing appends answers with exactly the boxes on the zongpai when it closed; no append lands after it', async () => {
    await service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'PLT-RACE-5' } });
    const boxes = Array.from({ length: 40 }, (_, i) => `BOX-R5-${String(i).padStart(2, '0')}`);
    // Many items per box keep each append's statement running for a while after it locked the zongpai.
    const plan = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`SKU-${String(i).padStart(3, '0')}`, 1]));
    for (const box of boxes) await service.plan(box, plan);
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const appends = boxes.map(async (box_no, i) => {
      await sleep(i * 2);
      return service.call('POST', '/v1/box/simple', { body: { box_no, zongpai_no: 'PLT-RACE-5' } });
    });
    const close = sleep(35).then(() =>
      service.call('POST', '/v1/zongpai/PLT-RACE-5/close', { token: service.tokens.supervisor }),
    );
    const [responses, closed] = await Promise.all([Promise.all(appends), close]);
    const landed = boxes.filter((_, i) => responses[i]?.status === 201);
    expect(
      responses
        .filter((r) => r.status !== 201)
        .every((r) => r.status === 409 && r.body.error_code === 'ZONGPAI_CLOSED'),
    ).toBe(true);
    const pallet = await service.call('GET', '/v1/zongpai/PLT-RACE-5');
    expect(closed.status).toBe(200);
    expect(closed.body).toEqual(pallet.body);
    expect(closed.body).toEqual(
      expect.objectContaining({ status: 'CLOSED', box_count: landed.length, total_quantity: landed.length * 300 }),
    );
    expect(closed.body.boxes.map((b: { box_no: string }) => b.box_no)).toEqual(landed);
  });
  it('a close that waits for an append in flight lists the appended box in its answer', async () => {
    await service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'PLT-RACE-6' } });
    await service.plan('BOX-R6', { 'SKU-A': 2 });
    const { makeBoxSave } = await import('../../lib/box/index.ts');
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // The append's own statement, in a transaction kept open while the close begins.
    const closing = await service.stack.db.transaction(async (tx) => {
      const append = makeBoxSave({ db: tx, config: service.stack.config });
      expect((await append({ box_no: 'BOX-R6', zongpai_no: 'PLT-RACE-6' }, 'olga')).status).toBe('BOXED');
      const close = service.call('POST', '/v1/zongpai/PLT-RACE-6/close', { token: service.tokens.supervisor });
      await sleep(300);
      return { close };
    });
    const closed = await closing.close;
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
});
