import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { box1003Lines } from '../support/demo-erp.ts';
import { itemLines, minutesAgo, startTestService, type TestService } from '../support/service.ts';

/** Each test boxes a fresh box of the ERP plan on a fresh open zongpai (`service.freshBox()`). */
let service: TestService;
const supervisor = () => service.tokens.supervisor;
const save = (body: unknown) => service.call('POST', '/v1/box', { body });
/** A supervisor's PATCH of the box. */
const patch = (box: string, body: unknown, options: { headers?: Record<string, string> } = {}) =>
  service.call('PATCH', `/v1/box/${box}`, { ...options, body, token: supervisor() });

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.close());

describe('GET /v1/box/info', () => {
  it('answers the ERP plan of a demo box that is not boxed yet', async () => {
    const res = await service.call('GET', '/v1/box/info?box_no=box-1003');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      expect.objectContaining({
        box_no: 'BOX-1003',
        order_no: 'SO-24002',
        customer_name: 'Hangzhou West Lake Foods',
        status: 'NOT_BOXED',
        zongpai_no: null,
        version: 0,
      }),
    );
    expect(res.body.items).toEqual(box1003Lines);
  });

  it('shows what is boxed beside the plan once saved', async () => {
    const { box, zongpai } = await service.freshBox();
    await service.saveBox(box, zongpai, { 'SKU-A': 7 });
    const res = await service.call('GET', `/v1/box/info?box_no=${box}`);
    expect(res.body).toEqual(expect.objectContaining({ status: 'BOXED', zongpai_no: zongpai, version: 1 }));
    expect(
      res.body.items.map((i: { item_code: string; boxed_quantity: number }) => [i.item_code, i.boxed_quantity]),
    ).toEqual([
      ['SKU-A', 7],
      ['SKU-B', 0],
    ]);
  });

  it('answers 404 BOX_NOT_FOUND for a box the ERP does not plan', async () => {
    expectError(await service.call('GET', '/v1/box/info?box_no=BOX-NOPE'), 404, 'BOX_NOT_FOUND', 'box');
  });

  it('answers 400 INVALID_BOX_NO for a bad or missing box number', async () => {
    expectError(await service.call('GET', '/v1/box/info?box_no=ab'), 400, 'INVALID_BOX_NO', 'box');
    expectError(await service.call('GET', '/v1/box/info'), 400, 'INVALID_BOX_NO');
  });
});

describe('POST /v1/box', () => {
  it('saves the box and appends it to its zongpai', async () => {
    const { box, zongpai } = await service.freshBox();
    const res = await save({
      box_no: ` ${box.toLowerCase()}\r\n`,
      zongpai_no: zongpai.toLowerCase(),
      items: [
        { item_code: ' SKU-B ', quantity: 5 },
        { item_code: 'SKU-A', quantity: 3 },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual(
      expect.objectContaining({
        box_no: box,
        zongpai_no: zongpai,
        status: 'BOXED',
        version: 1,
        total_quantity: 8,
        saved_by: 'olga',
        complete: false,
        items: [
          { item_code: 'SKU-A', quantity: 3 },
          { item_code: 'SKU-B', quantity: 5 },
        ],
      }),
    );
    expect(Date.parse(res.body.saved_at)).not.toBeNaN();
    const pallet = await service.call('GET', `/v1/zongpai/${zongpai}`);
    expect(pallet.body).toEqual(
      expect.objectContaining({
        status: 'OPEN',
        box_count: 1,
        total_quantity: 8,
        boxes: [{ box_no: box, total_quantity: 8 }],
      }),
    );
  });

  it('normalises a GS1-128 scan of an SSCC box label', async () => {
    const { zongpai } = await service.freshBox();
    const res = await save({
      box_no: ']C100106141411234567897',
      zongpai_no: zongpai,
      items: [{ item_code: 'SKU-PAPER-A4', quantity: 40 }],
    });
    expect(res.status).toBe(201);
    expect(res.body.box_no).toBe('106141411234567897');
  });

  it('answers 409 BOX_ALREADY_BOXED for a box saved before', async () => {
    const { box, zongpai } = await service.freshBox();
    await service.saveBox(box, zongpai, { 'SKU-A': 1 });
    expectError(await service.saveBox(box, zongpai, { 'SKU-A': 2 }), 409, 'BOX_ALREADY_BOXED', 'box');
  });

  it('refuses a field it does not take, in the body or an item, and stores nothing', async () => {
    const { box, zongpai } = await service.freshBox();
    const extra = await save({
      box_no: box,
      zongpai_no: zongpai,
      items: [{ item_code: 'SKU-A', quantity: 1 }],
      note: 'x',
    });
    expectError(extra, 400, 'VALIDATION_ERROR', 'request');
    expect(extra.body.message).toBe("body has a field this request does not take: 'note'");
    const misspelt = await save({ box_no: box, zongpai_no: zongpai, items: [{ item_code: 'SKU-A', qty: 1 }] });
    expect(misspelt.status).toBe(400);
    expect(misspelt.body.details.map((d: { field: string; message: string }) => d.message)).toContain(
      "items[0] has a field this request does not take: 'qty'",
    );
    const simple = await service.call('POST', '/v1/box/simple', {
      body: { box_no: box, zongpai_no: zongpai, items: [] },
    });
    expectError(simple, 400, 'VALIDATION_ERROR');
    expect((await service.call('GET', `/v1/box/info?box_no=${box}`)).body.status).toBe('NOT_BOXED');
  });

  it('answers 404 ZONGPAI_NOT_FOUND for an unregistered zongpai and stores nothing', async () => {
    const { box } = await service.freshBox();
    expectError(await service.saveBox(box, 'PLT-NONE', { 'SKU-A': 1 }), 404, 'ZONGPAI_NOT_FOUND', 'zongpai');
    expect((await service.call('GET', `/v1/box/info?box_no=${box}`)).body.status).toBe('NOT_BOXED');
  });

  it('answers 409 ZONGPAI_CLOSED when appending to a closed zongpai', async () => {
    const { box, zongpai } = await service.freshBox();
    await service.call('POST', `/v1/zongpai/${zongpai}/close`, { token: supervisor() });
    expectError(await service.saveBox(box, zongpai, { 'SKU-A': 1 }), 409, 'ZONGPAI_CLOSED', 'zongpai');
  });

  it('answers 404 BOX_NOT_FOUND for a box not in the ERP view', async () => {
    const { zongpai } = await service.freshBox();
    expectError(await service.saveBox('BOX-UNPLANNED', zongpai, { 'SKU-A': 1 }), 404, 'BOX_NOT_FOUND');
  });

  it('answers 422 ITEM_NOT_IN_PLAN for an item the plan does not list, and stores nothing', async () => {
    const { box, zongpai } = await service.freshBox();
    const res = await service.saveBox(box, zongpai, { 'SKU-A': 1, 'SKU-X': 1 });
    expectError(res, 422, 'ITEM_NOT_IN_PLAN', 'box');
    expect(res.body.message).toContain('SKU-X');
    expect((await service.call('GET', `/v1/zongpai/${zongpai}`)).body.box_count).toBe(0);
  });

  it('answers 422 QUANTITY_EXCEEDS_PLAN above the planned quantity', async () => {
    const { box, zongpai } = await service.freshBox();
    const res = await service.saveBox(box, zongpai, { 'SKU-B': 6 });
    expectError(res, 422, 'QUANTITY_EXCEEDS_PLAN', 'box');
    expect(res.body.message).toContain('5');
  });

  it('answers 400 DUPLICATE_BOX_ITEM for the same item twice, also after trimming', async () => {
    const { box, zongpai } = await service.freshBox();
    expectError(
      await save({
        box_no: box,
        zongpai_no: zongpai,
        items: [
          { item_code: 'SKU-A', quantity: 1 },
          { item_code: ' SKU-A\r\n', quantity: 2 },
        ],
      }),
      400,
      'DUPLICATE_BOX_ITEM',
      'box',
    );
  });

  it.each([0, -1, 1.5, '3', 100_000, null, 1e400])('answers 400 INVALID_QUANTITY for quantity %s', async (quantity) => {
    const rawBody =
      `{"box_no":"BOX-1001","zongpai_no":"PLT-X001","items":[{"item_code":"SKU-TEA-250","quantity":${JSON.stringify(quantity) ?? 'null'}}]}`.replace(
        '1e+400',
        '1e400',
      );
    expectError(
      await service.call('POST', '/v1/box', {
        rawBody: quantity === 1e400 ? rawBody.replace('null', '1e400') : rawBody,
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'INVALID_QUANTITY',
      'box',
    );
  });

  it.each([
    ['an empty item code', { item_code: '  ', quantity: 1 }, 'INVALID_ITEM_CODE'],
    ['an item code with a control character', { item_code: 'SKU\u0007', quantity: 1 }, 'INVALID_ITEM_CODE'],
    ['an item code of 65 characters', { item_code: 'X'.repeat(65), quantity: 1 }, 'INVALID_ITEM_CODE'],
  ])('answers 400 for %s', async (_name, item, code) => {
    expectError(await save({ box_no: 'BOX-1001', zongpai_no: 'PLT-X001', items: [item] }), 400, code);
  });

  it('answers 400 for no items, more than 500 items, and a bad zongpai number', async () => {
    expectError(await save({ box_no: 'BOX-1001', zongpai_no: 'PLT-X001', items: [] }), 400, 'VALIDATION_ERROR');
    const many = Array.from({ length: 501 }, (_, i) => ({ item_code: `SKU-${i}`, quantity: 1 }));
    expectError(await save({ box_no: 'BOX-1001', zongpai_no: 'PLT-X001', items: many }), 400, 'VALIDATION_ERROR');
    expectError(await service.saveBox('BOX-1001', 'P!', { 'SKU-A': 1 }), 400, 'INVALID_ZONGPAI', 'zongpai');
  });

  it('saves a box of 500 items in one go', async () => {
    const plan = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`SKU-${String(i).padStart(3, '0')}`, 10]));
    const { box, zongpai } = await service.freshBox(plan);
    const res = await service.saveBox(box, zongpai, Object.fromEntries(Object.keys(plan).map((code) => [code, 2])));
    expect(res.status).toBe(201);
    expect(res.body.total_quantity).toBe(1000);
  });
});

describe('POST /v1/box/simple', () => {
  it('boxes exactly the ERP plan from one scan of box and zongpai', async () => {
    const plan = { 'SKU-A': 10, 'SKU-B': 5 };
    const { box, zongpai } = await service.freshBox(plan);
    const res = await service.call('POST', '/v1/box/simple', { body: { box_no: box, zongpai_no: zongpai } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual(
      expect.objectContaining({ status: 'BOXED', version: 1, total_quantity: 15, items: itemLines(plan) }),
    );
  });

  it('answers the same errors as a full save', async () => {
    const { box, zongpai } = await service.freshBox();
    await service.call('POST', '/v1/box/simple', { body: { box_no: box, zongpai_no: zongpai } });
    expectError(
      await service.call('POST', '/v1/box/simple', { body: { box_no: box, zongpai_no: zongpai } }),
      409,
      'BOX_ALREADY_BOXED',
    );
    expectError(
      await service.call('POST', '/v1/box/simple', { body: { box_no: 'BOX-UNPLANNED', zongpai_no: zongpai } }),
      404,
      'BOX_NOT_FOUND',
    );
    expectError(await service.call('POST', '/v1/box/simple', { body: { box_no: box } }), 400, 'INVALID_ZONGPAI');
  });
});

describe('PATCH /v1/box/{box_no}', () => {
  const boxed = async () => {
    const ids = await service.freshBox();
    const other = `${ids.zongpai}-B`;
    await service.call('POST', '/v1/zongpai', { body: { zongpai_no: other } });
    await service.saveBox(ids.box, ids.zongpai, { 'SKU-A': 4 });
    return { ...ids, other };
  };

  it('moves a box to another zongpai; the totals follow', async () => {
    const { box, zongpai, other } = await boxed();
    const res = await patch(box, { version: 1, zongpai_no: other });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      expect.objectContaining({
        box_no: box,
        zongpai_no: other,
        version: 2,
        saved_by: 'sam',
        items: [{ item_code: 'SKU-A', quantity: 4 }],
      }),
    );
    expect((await service.call('GET', `/v1/zongpai/${zongpai}`)).body.box_count).toBe(0);
    expect((await service.call('GET', `/v1/zongpai/${other}`)).body).toEqual(
      expect.objectContaining({ box_count: 1, total_quantity: 4 }),
    );
  });

  it('replaces the items, checked against the plan, taking the version from If-Match', async () => {
    const { box } = await boxed();
    const res = await patch(box, { items: [{ item_code: 'SKU-B', quantity: 5 }] }, { headers: { 'if-match': '"1"' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      expect.objectContaining({ version: 2, total_quantity: 5, items: [{ item_code: 'SKU-B', quantity: 5 }] }),
    );
    const info = await service.call('GET', `/v1/box/info?box_no=${box}`);
    expect(info.body.items.map((i: { boxed_quantity: number }) => i.boxed_quantity)).toEqual([0, 5]);
    expectError(
      await patch(box, { version: 2, items: [{ item_code: 'SKU-B', quantity: 9 }] }),
      422,
      'QUANTITY_EXCEEDS_PLAN',
    );
  });

  it('answers 409 VERSION_CONFLICT for a stale version, 400 for none', async () => {
    const { box, other } = await boxed();
    await patch(box, { version: 1, zongpai_no: other });
    expectError(
      await patch(box, { version: 1, items: [{ item_code: 'SKU-A', quantity: 1 }] }),
      409,
      'VERSION_CONFLICT',
      'box',
    );
    expectError(await patch(box, { zongpai_no: other }), 400, 'VALIDATION_ERROR');
    expectError(await patch(box, { version: 2 }), 400, 'VALIDATION_ERROR');
  });

  it('refuses a version past the largest a box can have with 400, for an edit and an undo, changing nothing', async () => {
    const { box, other } = await boxed();
    for (const version of [2 ** 31, Number.MAX_SAFE_INTEGER]) {
      const edit = await patch(box, { version, zongpai_no: other });
      expectError(edit, 400, 'VALIDATION_ERROR', 'request');
      expect(edit.body.message).toBe('version must be at most 2147483647');
      const undo = await service.call('DELETE', `/v1/box/${box}`, { body: { version }, token: supervisor() });
      expectError(undo, 400, 'VALIDATION_ERROR', 'request');
    }
    const info = await service.call('GET', `/v1/box/info?box_no=${box}`);
    expect(info.body).toMatchObject({ status: 'BOXED', version: 1 });
  });

  it('answers 409 ZONGPAI_CLOSED when moving out of or into a closed zongpai', async () => {
    const { box, zongpai, other } = await boxed();
    await service.call('POST', `/v1/zongpai/${other}/close`, { token: supervisor() });
    expectError(await patch(box, { version: 1, zongpai_no: other }), 409, 'ZONGPAI_CLOSED');
    await service.call('POST', `/v1/zongpai/${zongpai}/close`, { token: supervisor() });
    const third = await service.freshBox();
    expectError(await patch(box, { version: 1, zongpai_no: third.zongpai }), 409, 'ZONGPAI_CLOSED');
  });

  it('answers 404 for an unknown zongpai or a box that is not boxed', async () => {
    const { box } = await boxed();
    expectError(await patch(box, { version: 1, zongpai_no: 'PLT-NONE' }), 404, 'ZONGPAI_NOT_FOUND');
    const unboxed = await service.freshBox();
    const res = await patch(unboxed.box, { version: 1, zongpai_no: unboxed.zongpai });
    expectError(res, 404, 'BOX_NOT_FOUND');
    expect(res.body.message).toMatch(/not boxed/);
  });

  it('answers 403 FORBIDDEN to an operator', async () => {
    const { box, other } = await boxed();
    expectError(
      await service.call('PATCH', `/v1/box/${box}`, { body: { version: 1, zongpai_no: other } }),
      403,
      'FORBIDDEN',
      'auth',
    );
  });
});

describe('DELETE /v1/box/{box_no} and the history', () => {
  it('undoes a boxing: the box is empty and leaves its zongpai; it can be saved again', async () => {
    const { box, zongpai } = await service.freshBox();
    await service.saveBox(box, zongpai, { 'SKU-A': 4 });
    const undone = await service.call('DELETE', `/v1/box/${box}`, {
      headers: { 'if-match': '1' },
      token: supervisor(),
    });
    expect(undone.status).toBe(200);
    expect(undone.body).toEqual(expect.objectContaining({ box_no: box, status: 'NOT_BOXED', version: 2 }));
    expect((await service.call('GET', `/v1/zongpai/${zongpai}`)).body.box_count).toBe(0);
    const info = await service.call('GET', `/v1/box/info?box_no=${box}`);
    expect(info.body).toEqual(expect.objectContaining({ status: 'NOT_BOXED', zongpai_no: null, version: 2 }));
    expect(info.body.items.every((i: { boxed_quantity: number }) => i.boxed_quantity === 0)).toBe(true);
    const again = await service.saveBox(box, zongpai, { 'SKU-B': 1 });
    expect(again.body.version).toBe(3);
  });

  it('answers 404 for undoing a box that is not boxed, 409 for a stale version', async () => {
    const { box, zongpai } = await service.freshBox();
    await service.saveBox(box, zongpai, { 'SKU-A': 4 });
    expectError(
      await service.call('DELETE', `/v1/box/${box}`, { body: { version: 7 }, token: supervisor() }),
      409,
      'VERSION_CONFLICT',
    );
    await service.call('DELETE', `/v1/box/${box}`, { body: { version: 1 }, token: supervisor() });
    expectError(
      await service.call('DELETE', `/v1/box/${box}`, { body: { version: 2 }, token: supervisor() }),
      404,
      'BOX_NOT_FOUND',
    );
    expectError(
      await service.call('DELETE', '/v1/box/BOX-UNPLANNED', { body: { version: 1 }, token: supervisor() }),
      404,
      'BOX_NOT_FOUND',
    );
  });

  it('answers 409 ZONGPAI_CLOSED when the box sits on a closed zongpai', async () => {
    const { box, zongpai } = await service.freshBox();
    await service.saveBox(box, zongpai, { 'SKU-A': 4 });
    await service.call('POST', `/v1/zongpai/${zongpai}/close`, { token: supervisor() });
    expectError(
      await service.call('DELETE', `/v1/box/${box}`, { body: { version: 1 }, token: supervisor() }),
      409,
      'ZONGPAI_CLOSED',
    );
  });

  it('keeps every save, edit and undo with who, when, zongpai and items, oldest first', async () => {
    const { box, zongpai } = await service.freshBox();
    await service.saveBox(box, zongpai, { 'SKU-A': 4 });
    await patch(box, { version: 1, items: [{ item_code: 'SKU-A', quantity: 2 }] });
    await service.call('DELETE', `/v1/box/${box}`, { body: { version: 2 }, token: supervisor() });
    const res = await service.call('GET', `/v1/box/${box}/history`);
    expect(res.status).toBe(200);
    expect(res.body.box_no).toBe(box);
    expect(
      res.body.events.map((e: Record<string, unknown>) => [e.action, e.version, e.actor, e.zongpai_no, e.items]),
    ).toEqual([
      ['SAVE', 1, 'olga', zongpai, [{ item_code: 'SKU-A', quantity: 4 }]],
      ['EDIT', 2, 'sam', zongpai, [{ item_code: 'SKU-A', quantity: 2 }]],
      ['UNDO', 3, 'sam', null, []],
    ]);
    expect(res.body.events.every((e: { at: string }) => !Number.isNaN(Date.parse(e.at)))).toBe(true);
  });

  it('answers an empty history for a planned box never boxed, 404 for an unknown one', async () => {
    expect((await service.call('GET', '/v1/box/BOX-1004/history')).body).toEqual({ box_no: 'BOX-1004', events: [] });
    expectError(await service.call('GET', '/v1/box/BOX-UNPLANNED/history'), 404, 'BOX_NOT_FOUND');
  });
});

describe('zongpai', () => {
  it('registers once; a second registration is 409 ZONGPAI_ALREADY_EXISTS', async () => {
    const res = await service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'plt-z001' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual(
      expect.objectContaining({ zongpai_no: 'PLT-Z001', status: 'OPEN', box_count: 0, total_quantity: 0, boxes: [] }),
    );
    expectError(
      await service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'PLT-Z001' } }),
      409,
      'ZONGPAI_ALREADY_EXISTS',
      'zongpai',
    );
  });

  it('closes an empty zongpai; closing again answers 200 with its state; an operator may not close', async () => {
    await service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'PLT-Z002' } });
    expectError(await service.call('POST', '/v1/zongpai/PLT-Z002/close'), 403, 'FORBIDDEN');
    const res = await service.call('POST', '/v1/zongpai/PLT-Z002/close', { token: supervisor() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      expect.objectContaining({ zongpai_no: 'PLT-Z002', status: 'CLOSED', closed_by: 'sam', box_count: 0 }),
    );
    const again = await service.call('POST', '/v1/zongpai/PLT-Z002/close', { token: supervisor() });
    expect({ status: again.status, body: again.body }).toEqual({ status: 200, body: res.body });
  });

  it('takes no body on close and reopen but an empty object: anything else is 400 and changes nothing', async () => {
    await service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'PLT-Z003' } });
    for (const action of ['close', 'reopen'])
      for (const rawBody of ['{"force":true}', '{"zongpai_no":"PLT-Z004"}', '[1,2,3]', 'null', '"CLOSED"']) {
        const refused = await service.call('POST', `/v1/zongpai/PLT-Z003/${action}`, {
          rawBody,
          headers: { 'content-type': 'application/json' },
          token: supervisor(),
        });
        expectError(refused, 400, 'VALIDATION_ERROR', 'request');
      }
    expect((await service.call('GET', '/v1/zongpai/PLT-Z003')).body.status).toBe('OPEN');
    const closed = await service.call('POST', '/v1/zongpai/PLT-Z003/close', { body: {}, token: supervisor() });
    expect(closed.body.status).toBe('CLOSED');
    const reopened = await service.call('POST', '/v1/zongpai/PLT-Z003/reopen', { token: supervisor() });
    expect(reopened.body.status).toBe('OPEN');
  });

  it('answers 404 ZONGPAI_NOT_FOUND and 400 INVALID_ZONGPAI', async () => {
    expectError(await service.call('GET', '/v1/zongpai/PLT-NONE'), 404, 'ZONGPAI_NOT_FOUND', 'zongpai');
    expectError(
      await service.call('POST', '/v1/zongpai/PLT-NONE/close', { token: supervisor() }),
      404,
      'ZONGPAI_NOT_FOUND',
    );
    expectError(await service.call('GET', `/v1/zongpai/${encodeURIComponent('PLT 1')}`), 400, 'INVALID_ZONGPAI');
    expectError(await service.call('POST', '/v1/zongpai', { body: {} }), 400, 'INVALID_ZONGPAI');
  });
});

describe('locations of boxes on a zongpai', () => {
  it('moves a box with its zongpai: the newer scan of either is where the box is', async () => {
    const { box, zongpai } = await service.freshBox();
    await service.call('POST', '/v1/cargo/location', {
      body: { cargo_no: box, location_code: 'PACK-1', scanned_at: minutesAgo(1) },
    });
    await service.saveBox(box, zongpai, { 'SKU-A': 1 });
    await service.call('POST', '/v1/cargo/location', {
      body: { cargo_no: zongpai, location_code: 'DOCK-2', off_shelf: true },
    });
    const res = await service.call('GET', `/v1/cargo/location/${box}`);
    expect(res.body.current).toEqual(
      expect.objectContaining({ location_code: 'DOCK-2', off_shelf: true, via: 'ZONGPAI', cargo_no: zongpai }),
    );
    expect(res.body.history.map((h: { location_code: string; via: string }) => [h.location_code, h.via])).toEqual([
      ['DOCK-2', 'ZONGPAI'],
      ['PACK-1', 'BOX'],
    ]);
    const pallet = await service.call('GET', `/v1/cargo/location/${zongpai}`);
    expect(pallet.body.current).toEqual(expect.objectContaining({ location_code: 'DOCK-2', via: 'ZONGPAI' }));
  });
});

describe('round trips', () => {
  it('uses exactly one Data API call per request on every boxing route', async () => {
    const { box, zongpai } = await service.freshBox();
    const other = await service.freshBox();
    const calls: [string, string, Record<string, unknown>?][] = [
      ['GET', `/v1/box/info?box_no=${box}`],
      ['POST', '/v1/box', { body: { box_no: box, zongpai_no: zongpai, items: [{ item_code: 'SKU-A', quantity: 1 }] } }],
      ['PATCH', `/v1/box/${box}`, { body: { version: 1, zongpai_no: other.zongpai }, token: supervisor() }],
      ['DELETE', `/v1/box/${box}`, { body: { version: 2 }, token: supervisor() }],
      ['POST', '/v1/box/simple', { body: { box_no: box, zongpai_no: zongpai } }],
      ['GET', `/v1/box/${box}/history`],
      ['POST', '/v1/zongpai', { body: { zongpai_no: `${zongpai}-RT` } }],
      ['GET', `/v1/zongpai/${zongpai}`],
      ['POST', `/v1/zongpai/${zongpai}-RT/close`, { token: supervisor() }],
    ];
    for (const [method, path, options] of calls) {
      service.stack.dataApi.resetCounters();
      const res = await service.call(method, path, options);
      expect(res.status, `${method} ${path}`).toBeLessThan(300);
      const counters = service.stack.dataApi.counters();
      expect(
        Object.values(counters).reduce((a, b) => a + b, 0),
        `${method} ${path}`,
      ).toBe(1);
      expect(counters.ExecuteStatement).toBe(1);
    }
  });
});
