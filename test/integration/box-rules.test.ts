import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { itemLines, startTestService, type TestService } from '../support/service.ts';

/**
 * The SPEC's rules on box and zongpai states and response shapes, as a scanner sees them. Each
 * test boxes a fresh box of the ERP plan on a fresh open zongpai (`service.freshBox()`).
 */
let service: TestService;
const supervisor = () => service.tokens.supervisor;
const patch = (box: string, body: unknown) => service.call('PATCH', `/v1/box/${box}`, { body, token: supervisor() });
const actions = async (box: string) =>
  (await service.call('GET', `/v1/box/${box}/history`)).body.events.map((e: { action: string }) => e.action);

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.close());

describe('a PATCH that changes nothing', () => {
  it('answers 200 with the box as it is: no new version, no event', async () => {
    const { box, zongpai } = await service.freshBox();
    const saved = await service.saveBox(box, zongpai, { 'SKU-A': 4, 'SKU-B': 2 });
    const res = await patch(box, { version: 1, zongpai_no: zongpai, items: itemLines({ 'SKU-B': 2, 'SKU-A': 4 }) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(saved.body);
    expect(await actions(box)).toEqual(['SAVE']);
    expect((await service.call('GET', `/v1/box/info?box_no=${box}`)).body.version).toBe(1);
  });

  it("answers 200 without a new version or event when it names the box's own closed zongpai", async () => {
    const { box, zongpai } = await service.freshBox();
    const saved = await service.saveBox(box, zongpai, { 'SKU-A': 4 });
    await service.call('POST', `/v1/zongpai/${zongpai}/close`, { token: supervisor() });
    const res = await patch(box, { version: 1, zongpai_no: zongpai });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(saved.body);
    expect(await actions(box)).toEqual(['SAVE']);
  });

  it('still answers 409 VERSION_CONFLICT for a stale version', async () => {
    const { box, zongpai } = await service.freshBox();
    await service.saveBox(box, zongpai, { 'SKU-A': 4 });
    await patch(box, { version: 1, items: [{ item_code: 'SKU-A', quantity: 3 }] });
    expectError(await patch(box, { version: 1, zongpai_no: zongpai }), 409, 'VERSION_CONFLICT');
  });
});

describe('a box on a closed zongpai', () => {
  it('refuses new items for a box on a closed zongpai with 409 ZONGPAI_CLOSED and keeps the box as it was', async () => {
    const { box, zongpai } = await service.freshBox();
    await service.saveBox(box, zongpai, { 'SKU-A': 4 });
    await service.call('POST', `/v1/zongpai/${zongpai}/close`, { token: supervisor() });
    expectError(
      await patch(box, { version: 1, zongpai_no: zongpai, items: [{ item_code: 'SKU-A', quantity: 5 }] }),
      409,
      'ZONGPAI_CLOSED',
    );
    expectError(await patch(box, { version: 1, items: itemLines({ 'SKU-A': 4, 'SKU-B': 1 }) }), 409, 'ZONGPAI_CLOSED');
    expect(await actions(box)).toEqual(['SAVE']);
  });
});

describe('closing a closed zongpai', () => {
  it('answers 200 with its state and changes nothing', async () => {
    const { box, zongpai } = await service.freshBox();
    await service.saveBox(box, zongpai, { 'SKU-A': 4 });
    const first = await service.call('POST', `/v1/zongpai/${zongpai}/close`, { token: supervisor() });
    const other = await service.token('ines', ['supervisor']);
    const again = await service.call('POST', `/v1/zongpai/${zongpai}/close`, { token: other });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.body).toEqual(
      expect.objectContaining({ status: 'CLOSED', closed_by: 'sam', box_count: 1, total_quantity: 4 }),
    );
  });
});

describe('zongpai numbers', () => {
  it('refuses a zongpai number that is a box of the ERP plan with INVALID_ZONGPAI and registers nothing', async () => {
    const { box } = await service.freshBox();
    for (const number of [box, 'BOX-1001']) {
      const res = await service.call('POST', '/v1/zongpai', { body: { zongpai_no: number } });
      expectError(res, 400, 'INVALID_ZONGPAI', 'zongpai');
      expect(res.body.message).toMatch(/box/i);
      expectError(await service.call('GET', `/v1/zongpai/${number}`), 404, 'ZONGPAI_NOT_FOUND');
    }
  });

  it('answers a box label scanned as the zongpai of a save or a move with INVALID_ZONGPAI, not ZONGPAI_NOT_FOUND', async () => {
    const { box, zongpai } = await service.freshBox();
    const other = await service.freshBox();
    for (const res of [
      await service.call('POST', '/v1/box/simple', { body: { box_no: box, zongpai_no: other.box } }),
      await service.saveBox(box, other.box, { 'SKU-A': 1 }),
    ]) {
      expectError(res, 400, 'INVALID_ZONGPAI', 'zongpai');
      expect(res.body.message).toBe(
        `zongpai_no '${other.box}' is the number of a box in the ERP plan: scan the zongpai label`,
      );
    }
    expect((await service.saveBox(box, zongpai, { 'SKU-A': 1 })).status).toBe(201);
    const moved = await patch(box, { version: 1, zongpai_no: other.box });
    expectError(moved, 400, 'INVALID_ZONGPAI', 'zongpai');
    expectError(await service.saveBox(other.box, 'PLT-NOWHERE', { 'SKU-A': 1 }), 404, 'ZONGPAI_NOT_FOUND');
  });

  it('reads a zongpai label that is an SSCC as a box label is read, so that scanning it at a location moves its boxes', async () => {
    // An SSCC pallet label: GS1-128 `00` + the 18-digit SSCC, as scanners send it.
    const sscc = '350123456789012349';
    const registered = await service.call('POST', '/v1/zongpai', { body: { zongpai_no: `00${sscc}` } });
    expect(registered.status).toBe(201);
    expect(registered.body.zongpai_no).toBe(sscc);
    const { box } = await service.freshBox();
    await service.call('POST', '/v1/cargo/location', { body: { cargo_no: box, location_code: 'A-01' } });
    const saved = await service.call('POST', '/v1/box/simple', { body: { box_no: box, zongpai_no: `(00)${sscc}` } });
    expect(saved.status).toBe(201);
    expect(saved.body.zongpai_no).toBe(sscc);
    const scanned = await service.call('POST', '/v1/cargo/location', {
      body: { cargo_no: `00${sscc}`, location_code: 'DOCK-7', off_shelf: true },
    });
    expect(scanned.body.records[0].cargo_no).toBe(sscc);
    const where = await service.call('GET', `/v1/cargo/location/${box}`);
    expect(where.body.current).toMatchObject({ location_code: 'DOCK-7', via: 'ZONGPAI' });
    expect((await service.call('GET', `/v1/zongpai/00${sscc}`)).body.zongpai_no).toBe(sscc);
  });

  it('refuses an 18-digit zongpai number whose SSCC check digit is wrong with INVALID_ZONGPAI, as it would be refused as cargo', async () => {
    const res = await service.call('POST', '/v1/zongpai', { body: { zongpai_no: '106141411234567890' } });
    expectError(res, 400, 'INVALID_ZONGPAI', 'zongpai');
    expect(res.body.message).toBe("zongpai_no '106141411234567890' is an SSCC whose GS1 check digit is wrong");
    const zh = await service.call('POST', '/v1/zongpai', {
      body: { zongpai_no: '106141411234567890' },
      headers: { 'accept-language': 'zh' },
    });
    expect(zh.body.message).toBe("总牌号 '106141411234567890'无效：SSCC 校验位错误");
  });

  it("keeps a box's own scans reported via the BOX", async () => {
    const { box } = await service.freshBox();
    await service.call('POST', '/v1/zongpai', { body: { zongpai_no: box } });
    await service.call('POST', '/v1/cargo/location', { body: { cargo_no: box, location_code: 'A-01' } });
    const where = await service.call('GET', `/v1/cargo/location/${box}`);
    expect(where.body.current.via).toBe('BOX');
    expect(where.body.history).toHaveLength(1);
  });
});

describe('what a box response says', () => {
  it('lists items ordered by item_code in the save, the edit and the history', async () => {
    const { box, zongpai } = await service.freshBox({ 'SKU-B': 5, 'SKU-A': 10, 'SKU-C': 5 });
    const items = [
      { item_code: 'SKU-C', quantity: 1 },
      { item_code: 'SKU-A', quantity: 2 },
      { item_code: 'SKU-B', quantity: 3 },
    ];
    const sorted = [...items].sort((a, b) => a.item_code.localeCompare(b.item_code));
    expect(
      (await service.call('POST', '/v1/box', { body: { box_no: box, zongpai_no: zongpai, items } })).body.items,
    ).toEqual(sorted);
    expect(
      (await patch(box, { version: 1, items: [...items].reverse().map((i) => ({ ...i, quantity: i.quantity + 1 })) }))
        .body.items,
    ).toEqual(sorted.map((i) => ({ ...i, quantity: i.quantity + 1 })));
    const history = (await service.call('GET', `/v1/box/${box}/history`)).body.events;
    expect(history.map((e: { items: unknown }) => e.items)).toEqual([
      sorted,
      sorted.map((i) => ({ ...i, quantity: i.quantity + 1 })),
    ]);
  });

  it('says complete when the box holds every planned item at exactly its planned quantity', async () => {
    const { box, zongpai } = await service.freshBox({ 'SKU-A': 10, 'SKU-B': 5 });
    const info = async () => (await service.call('GET', `/v1/box/info?box_no=${box}`)).body.complete;
    expect(await info()).toBe(false);
    const short = await service.saveBox(box, zongpai, { 'SKU-A': 10, 'SKU-B': 4 });
    expect(short.body.complete).toBe(false);
    expect(await info()).toBe(false);
    const full = await patch(box, { version: 1, items: itemLines({ 'SKU-B': 5, 'SKU-A': 10 }) });
    expect(full.body.complete).toBe(true);
    expect(await info()).toBe(true);
    const moved = await patch(box, { version: 2, items: [{ item_code: 'SKU-A', quantity: 10 }] });
    expect(moved.body.complete).toBe(false);
  });

  it('says complete for a one-scan save, which boxes exactly the plan', async () => {
    const plan = { 'SKU-A': 10, 'SKU-B': 5 };
    const { box, zongpai } = await service.freshBox(plan);
    const res = await service.call('POST', '/v1/box/simple', { body: { box_no: box, zongpai_no: zongpai } });
    expect(res.body).toEqual(expect.objectContaining({ complete: true, items: itemLines(plan) }));
  });
});
