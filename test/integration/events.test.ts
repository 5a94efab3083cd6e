import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { startTestService, type ApiResponse, type TestService } from '../support/service.ts';

/**
 * Every write announces what it changed in the same statement (SPEC "Events"): the change feed
 * shows the event of each write route, and nothing for a refused write, a keyed replay or a
 * statement that failed.
 */
let service: TestService;
let erp: string;
/** A user whose every write fails when its transaction commits, after the statement wrote everything. */
let doomed: string;
beforeAll(async () => {
  service = await startTestService();
  erp = await service.token('erp-system', ['integration']);
  doomed = await service.token('doomed', ['operator', 'supervisor']);
  // An internal error (XX000): a RAISE's own P0001 in a statement that reads the ERP view is the
  // view's failing function to the service (503 ERP_VIEW_UNAVAILABLE, lib/db/erp-view.ts).
  await service.stack.db.query(`CREATE FUNCTION public.fail_doomed_commit() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'the commit of this test user fails' USING ERRCODE = 'internal_error'; END $$`);
  await service.stack.db
    .query(`CREATE CONSTRAINT TRIGGER fail_doomed_commit AFTER INSERT ON cargo.event DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (NEW.actor = 'doomed') EXECUTE FUNCTION public.fail_doomed_commit()`);
});
afterAll(async () => service?.close());

interface Envelope {
  id: string;
  sequence: number;
  type: string;
  occurred_at: string;
  actor: string;
  idempotency_key: string | null;
  data: Record<string, unknown>;
}

const feed = (query: string, token = erp) =>
  service.call<{ events: Envelope[]; next_after: number }>('GET', `/v1/events${query}`, { token });

/** Where the feed ends now: the `after` from which the next write's events are read. */
const end = async (): Promise<number> => {
  let after = 0;
  for (;;) {
    const page = await feed(`?after=${after}&limit=500`);
    if (page.body.events.length === 0) return after;
    after = page.body.next_after;
  }
};

/** The events written since `after` (every page). */
const since = async (after: number): Promise<Envelope[]> => {
  const page = await feed(`?after=${after}&limit=500`);
  expect(page.status).toBe(200);
  return page.body.events;
};

const keyed = (key: string) => ({ 'idempotency-key': key });
const supervisor = () => service.tokens.supervisor;
const envelope = (type: string, actor: string, key: string | null, data: unknown) => ({
  id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
  sequence: expect.any(Number),
  type,
  occurred_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
  actor,
  idempotency_key: key,
  data,
});
/** The data of a zongpai event: the zongpai as the write left it. */
const zongpaiData = (
  zongpaiNo: string,
  status: 'OPEN' | 'CLOSED',
  version: number,
  boxCount = 0,
  totalQuantity = 0,
) => ({
  zongpai_no: zongpaiNo,
  status,
  version,
  box_count: boxCount,
  total_quantity: totalQuantity,
});
const boxData = (res: ApiResponse, orderNo = 'SO-TEST') => ({
  box_no: res.body.box_no,
  order_no: orderNo,
  zongpai_no: res.body.zongpai_no,
  status: res.body.status,
  version: res.body.version,
  complete: res.body.complete,
  items: res.body.items,
  total_quantity: res.body.total_quantity,
});

const register = (zongpai: string, token?: string) =>
  service.call('POST', '/v1/zongpai', { body: { zongpai_no: zongpai }, ...(token ? { token } : {}) });
const save = (
  box: string,
  zongpai: string,
  items: { item_code: string; quantity: number }[],
  options: { token?: string; key?: string } = {},
) =>
  service.call('POST', '/v1/box', {
    body: { box_no: box, zongpai_no: zongpai, items },
    ...(options.token ? { token: options.token } : {}),
    ...(options.key ? { headers: keyed(options.key) } : {}),
  });

describe('GET /v1/events', () => {
  it('lets the integration role and supervisors read the feed, and refuses operators with FORBIDDEN', async () => {
    expect((await feed('')).status).toBe(200);
    expect((await feed('', supervisor())).status).toBe(200);
    expectError(await feed('', service.tokens.operator), 403, 'FORBIDDEN', 'auth');
  });

  it('answers an empty page with next_after repeating after', async () => {
    const after = (await end()) + 1000;
    const res = await feed(`?after=${after}`);
    expect(res.body).toEqual({ events: [], next_after: after });
  });

  it('pages in sequence order: next_after is the last sequence of the page', async () => {
    const after = await end();
    await service.call('POST', '/v1/cargo/location', {
      body: { records: [1, 2, 3].map((n) => ({ cargo_no: `BOX-EP0${n}`, location_code: 'A-01' })) },
    });
    const first = await feed(`?after=${after}&limit=2`);
    expect(first.body.events.map((e) => e.data.cargo_no)).toEqual(['BOX-EP01', 'BOX-EP02']);
    expect(first.body.next_after).toBe(first.body.events[1]?.sequence);
    const second = await feed(`?after=${first.body.next_after}&limit=2`);
    expect(second.body.events.map((e) => e.data.cargo_no)).toEqual(['BOX-EP03']);
    expect(second.body.events[0]?.sequence).toBe(first.body.next_after + 1);
  });

  it('numbers events forward only: setting the counter back is refused, and the next write numbers on', async () => {
    await service.call('POST', '/v1/cargo/location', { body: { cargo_no: 'BOX-SEQUENCE-0', location_code: 'A-01' } });
    const after = await end();
    expect(after).toBeGreaterThan(0);
    await expect(service.stack.db.query('UPDATE cargo.event_sequence SET last = last - 1')).rejects.toMatchObject({
      sqlState: '23514',
    });
    const res = await service.call('POST', '/v1/cargo/location', {
      body: { cargo_no: 'BOX-SEQUENCE-1', location_code: 'A-01' },
    });
    expect(res.status).toBe(201);
    expect((await since(after)).map((e) => e.sequence)).toEqual([after + 1]);
  });

  // Boxes of hundreds of items make events of tens of KB: 500 of them are more than the 1 MiB the
  // Data API answers in one result. A page then holds fewer events; reading on gets them all.
  it('answers a page of large events within the Data API result limit, and the next page goes on', async () => {
    const after = await end();
    const items = Array.from({ length: 400 }, (_, i) => ({
      item_code: `SKU-LARGE-EVENT-${String(i).padStart(3, '0')}`,
      quantity: 1,
    }));
    const { rows } = await service.stack.db.query<{ last: number }>(
      'UPDATE cargo.event_sequence SET last = last + 60 RETURNING last',
    );
    const last = Number(rows[0]!.last);
    await service.stack.db.query(
      `INSERT INTO cargo.event (sequence, type, occurred_at, actor, idempotency_key, data)
       SELECT :last - 60 + n, 'box.saved', now(), 'alice', NULL,
              jsonb_build_object('box_no', 'BOX-LARGE-' || n, 'items', CAST(:items AS jsonb))
       FROM generate_series(1, 60) AS n`,
      { last, items: JSON.stringify(items) },
    );
    const first = await feed(`?after=${after}&limit=500`);
    expect(first.status).toBe(200);
    expect(first.body.events.length).toBeGreaterThan(0);
    expect(first.body.events.length).toBeLessThan(60);
    const seen = [...first.body.events];
    let next = first.body.next_after;
    for (;;) {
      const page = await feed(`?after=${next}&limit=500`);
      expect(page.status).toBe(200);
      if (page.body.events.length === 0) break;
      seen.push(...page.body.events);
      next = page.body.next_after;
    }
    expect(seen.map((e) => e.sequence)).toEqual(Array.from({ length: 60 }, (_, i) => last - 59 + i));
    expect(seen[59]?.data).toMatchObject({ box_no: 'BOX-LARGE-60', items });
  });

  it.each(['limit=0', 'limit=501', 'limit=ten', 'after=-1', 'after=1.5', 'after=x'])(
    'refuses ?%s with VALIDATION_ERROR',
    async (query) => {
      expectError(await feed(`?${query}`), 400, 'VALIDATION_ERROR', 'request');
    },
  );
});

describe('POST location: cargo.located', () => {
  it('announces each stored record with the record as data, in the order of the backlog', async () => {
    const after = await end();
    const res = await service.call('POST', '/v1/cargo/location', {
      body: {
        records: [
          { cargo_no: 'BOX-EL01', location_code: 'A-01', device_id: 'PDA-7' },
          { cargo_no: 'BOX-EL02', location_code: 'STAGE', off_shelf: true },
        ],
      },
    });
    expect(res.status).toBe(201);
    const events = await since(after);
    expect(events).toEqual(res.body.records.map((record: unknown) => envelope('cargo.located', 'olga', null, record)));
    expect(events.map((e) => e.sequence)).toEqual([after + 1, after + 2]);
  });

  it('announces nothing for a refused backlog', async () => {
    const after = await end();
    const res = await service.call('POST', '/v1/cargo/location', {
      body: {
        records: [
          { cargo_no: 'BOX-EL03', location_code: 'A-01' },
          { cargo_no: 'BOX-EL03', location_code: 'a b' },
        ],
      },
    });
    expectError(res, 400, 'INVALID_LOCATION_CODE');
    expect(await since(after)).toEqual([]);
  });

  it('carries the Idempotency-Key, and a keyed replay announces nothing more', async () => {
    const after = await end();
    const body = { cargo_no: 'BOX-EL04', location_code: 'A-01' };
    const first = await service.call('POST', '/v1/cargo/location', { body, headers: keyed('ev-loc-1') });
    const replay = await service.call('POST', '/v1/cargo/location', { body, headers: keyed('ev-loc-1') });
    expect(replay.body).toEqual(first.body);
    expect(await since(after)).toEqual([envelope('cargo.located', 'olga', 'ev-loc-1', first.body.records[0])]);
  });

  it('announces nothing, and stores nothing, when the statement fails', async () => {
    const after = await end();
    expectError(
      await service.call('POST', '/v1/cargo/location', {
        body: { cargo_no: 'BOX-EL05', location_code: 'A-01' },
        token: doomed,
      }),
      500,
      'INTERNAL_ERROR',
    );
    expect(await since(after)).toEqual([]);
    expectError(await service.call('GET', '/v1/cargo/location/BOX-EL05'), 404, 'CARGO_NOT_FOUND');
  });
});

describe('POST /v1/box and /v1/box/simple: box.saved', () => {
  it('announces the saved box with its order, zongpai, version, items and completeness', async () => {
    await service.plan('BOX-EB01', { 'SKU-B': 2, 'SKU-A': 3 }, 'SO-EB01');
    await register('PLT-EB01');
    const after = await end();
    const res = await save('BOX-EB01', 'PLT-EB01', [
      { item_code: 'SKU-B', quantity: 2 },
      { item_code: 'SKU-A', quantity: 1 },
    ]);
    expect(res.status).toBe(201);
    expect(await since(after)).toEqual([
      envelope('box.saved', 'olga', null, {
        box_no: 'BOX-EB01',
        order_no: 'SO-EB01',
        zongpai_no: 'PLT-EB01',
        status: 'BOXED',
        version: 1,
        complete: false,
        items: [
          { item_code: 'SKU-A', quantity: 1 },
          { item_code: 'SKU-B', quantity: 2 },
        ],
        total_quantity: 3,
      }),
    ]);
  });

  it('announces a simple save as box.saved, complete against its plan', async () => {
    await service.plan('BOX-EB02', { 'SKU-A': 4 });
    await register('PLT-EB02');
    const after = await end();
    const res = await service.call('POST', '/v1/box/simple', {
      body: { box_no: 'BOX-EB02', zongpai_no: 'PLT-EB02' },
      headers: keyed('ev-simple-1'),
    });
    expect(res.status).toBe(201);
    expect(await since(after)).toEqual([
      envelope('box.saved', 'olga', 'ev-simple-1', { ...boxData(res), complete: true }),
    ]);
    await service.call('POST', '/v1/box/simple', {
      body: { box_no: 'BOX-EB02', zongpai_no: 'PLT-EB02' },
      headers: keyed('ev-simple-1'),
    });
    expect(await since(after)).toHaveLength(1);
  });

  it('announces nothing for a refused save (BOX_ALREADY_BOXED, ZONGPAI_NOT_FOUND, ITEM_NOT_IN_PLAN)', async () => {
    const after = await end();
    expectError(await save('BOX-EB01', 'PLT-EB01', [{ item_code: 'SKU-A', quantity: 1 }]), 409, 'BOX_ALREADY_BOXED');
    await service.plan('BOX-EB03', { 'SKU-A': 1 });
    expectError(await save('BOX-EB03', 'PLT-NONE', [{ item_code: 'SKU-A', quantity: 1 }]), 404, 'ZONGPAI_NOT_FOUND');
    expectError(await save('BOX-EB03', 'PLT-EB01', [{ item_code: 'SKU-Z', quantity: 1 }]), 422, 'ITEM_NOT_IN_PLAN');
    expect(await since(after)).toEqual([]);
  });

  it('carries the Idempotency-Key, and a keyed replay announces nothing more', async () => {
    await service.plan('BOX-EB04', { 'SKU-A': 1 });
    await register('PLT-EB04');
    const after = await end();
    const first = await save('BOX-EB04', 'PLT-EB04', [{ item_code: 'SKU-A', quantity: 1 }], { key: 'ev-save-1' });
    const replay = await save('BOX-EB04', 'PLT-EB04', [{ item_code: 'SKU-A', quantity: 1 }], { key: 'ev-save-1' });
    expect(replay.body).toEqual(first.body);
    expect(await since(after)).toEqual([envelope('box.saved', 'olga', 'ev-save-1', boxData(first))]);
  });

  it('announces nothing, and saves nothing, when the statement fails', async () => {
    await service.plan('BOX-EB05', { 'SKU-A': 1 });
    await register('PLT-EB05');
    const after = await end();
    expectError(
      await save('BOX-EB05', 'PLT-EB05', [{ item_code: 'SKU-A', quantity: 1 }], { token: doomed }),
      500,
      'INTERNAL_ERROR',
    );
    expect(await since(after)).toEqual([]);
    expect((await service.call('GET', '/v1/box/info?box_no=BOX-EB05')).body.status).toBe('NOT_BOXED');
  });
});

describe('PATCH /v1/box/{box_no}: box.edited; DELETE /v1/box/{box_no}: box.undone', () => {
  const edit = (box: string, body: unknown, options: { token?: string; key?: string } = {}) =>
    service.call('PATCH', `/v1/box/${box}`, {
      body,
      token: options.token ?? supervisor(),
      ...(options.key ? { headers: keyed(options.key) } : {}),
    });
  const undo = (box: string, version: number, options: { token?: string; key?: string } = {}) =>
    service.call('DELETE', `/v1/box/${box}`, {
      body: { version },
      token: options.token ?? supervisor(),
      ...(options.key ? { headers: keyed(options.key) } : {}),
    });

  beforeAll(async () => {
    for (const n of [1, 2, 3]) {
      await service.plan(`BOX-EE0${n}`, { 'SKU-A': 2, 'SKU-B': 1 }, 'SO-EE');
    }
    await register('PLT-EE01');
    await register('PLT-EE02');
    for (const n of [1, 2, 3]) await save(`BOX-EE0${n}`, 'PLT-EE01', [{ item_code: 'SKU-A', quantity: 2 }]);
  });

  it('announces an edit with the box after it: moved, new items, next version, by the supervisor', async () => {
    const after = await end();
    const move = {
      version: 1,
      zongpai_no: 'PLT-EE02',
      items: [
        { item_code: 'SKU-B', quantity: 1 },
        { item_code: 'SKU-A', quantity: 2 },
      ],
    };
    const res = await edit('BOX-EE01', move, { key: 'ev-edit-1' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      zongpai_no: 'PLT-EE02',
      status: 'BOXED',
      version: 2,
      complete: true,
      total_quantity: 3,
    });
    expect(res.body.items).toEqual([
      { item_code: 'SKU-A', quantity: 2 },
      { item_code: 'SKU-B', quantity: 1 },
    ]);
    expect(await since(after)).toEqual([envelope('box.edited', 'sam', 'ev-edit-1', boxData(res, 'SO-EE'))]);
    expect((await edit('BOX-EE01', move, { key: 'ev-edit-1' })).body).toEqual(res.body);
    expect(await since(after)).toHaveLength(1);
  });

  it('announces nothing for an edit that changes nothing, or a stale version', async () => {
    const after = await end();
    expect((await edit('BOX-EE02', { version: 1, zongpai_no: 'PLT-EE01' })).status).toBe(200);
    expectError(await edit('BOX-EE02', { version: 7, zongpai_no: 'PLT-EE02' }), 409, 'VERSION_CONFLICT');
    expect(await since(after)).toEqual([]);
  });

  it('announces nothing, and edits nothing, when the statement fails', async () => {
    const after = await end();
    expectError(
      await edit('BOX-EE02', { version: 1, zongpai_no: 'PLT-EE02' }, { token: doomed }),
      500,
      'INTERNAL_ERROR',
    );
    expect(await since(after)).toEqual([]);
    expect((await service.call('GET', '/v1/box/info?box_no=BOX-EE02')).body).toMatchObject({
      zongpai_no: 'PLT-EE01',
      version: 1,
    });
  });

  it('announces an undo: NOT_BOXED, no zongpai, no items, the next version', async () => {
    const after = await end();
    const res = await undo('BOX-EE03', 1, { key: 'ev-undo-1' });
    expect(res.status).toBe(200);
    expect(await since(after)).toEqual([
      envelope('box.undone', 'sam', 'ev-undo-1', {
        box_no: 'BOX-EE03',
        order_no: 'SO-EE',
        zongpai_no: null,
        status: 'NOT_BOXED',
        version: 2,
        complete: false,
        items: [],
        total_quantity: 0,
      }),
    ]);
    expect((await undo('BOX-EE03', 1, { key: 'ev-undo-1' })).body).toEqual(res.body);
    expect(await since(after)).toHaveLength(1);
  });

  it('announces nothing for a refused undo, or when the statement fails', async () => {
    const after = await end();
    expectError(await undo('BOX-EE03', 2), 404, 'BOX_NOT_FOUND');
    expectError(await undo('BOX-EE02', 1, { token: doomed }), 500, 'INTERNAL_ERROR');
    expect(await since(after)).toEqual([]);
    expect((await service.call('GET', '/v1/box/info?box_no=BOX-EE02')).body.status).toBe('BOXED');
  });
});

describe('POST /v1/zongpai: zongpai.registered; POST close: zongpai.closed', () => {
  it('announces a registration: OPEN, no boxes', async () => {
    const after = await end();
    const registerKeyed = () =>
      service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'PLT-EZ01' }, headers: keyed('ev-reg-1') });
    expect((await registerKeyed()).status).toBe(201);
    expect((await registerKeyed()).status).toBe(201);
    expect(await since(after)).toEqual([
      envelope('zongpai.registered', 'olga', 'ev-reg-1', zongpaiData('PLT-EZ01', 'OPEN', 1)),
    ]);
  });

  it('announces nothing for a refused registration, or when the statement fails', async () => {
    const after = await end();
    expectError(await register('PLT-EZ01'), 409, 'ZONGPAI_ALREADY_EXISTS');
    expectError(await register('PLT-EZ02', doomed), 500, 'INTERNAL_ERROR');
    expect(await since(after)).toEqual([]);
    expectError(await service.call('GET', '/v1/zongpai/PLT-EZ02'), 404, 'ZONGPAI_NOT_FOUND');
  });

  it('announces a close with the boxes it holds, once: closing a closed zongpai announces nothing', async () => {
    await service.plan('BOX-EZ03', { 'SKU-A': 5 });
    await register('PLT-EZ03');
    await save('BOX-EZ03', 'PLT-EZ03', [{ item_code: 'SKU-A', quantity: 5 }]);
    const after = await end();
    const close = () => service.call('POST', '/v1/zongpai/PLT-EZ03/close', { token: supervisor() });
    expect((await close()).status).toBe(200);
    expect((await close()).status).toBe(200);
    expect(await since(after)).toEqual([
      envelope('zongpai.closed', 'sam', null, zongpaiData('PLT-EZ03', 'CLOSED', 2, 1, 5)),
    ]);
  });

  it('announces nothing for a close of an unknown zongpai, a keyed replay, or when the statement fails', async () => {
    await register('PLT-EZ04');
    await register('PLT-EZ05');
    const after = await end();
    expectError(
      await service.call('POST', '/v1/zongpai/PLT-NONE/close', { token: supervisor() }),
      404,
      'ZONGPAI_NOT_FOUND',
    );
    expectError(await service.call('POST', '/v1/zongpai/PLT-EZ05/close', { token: doomed }), 500, 'INTERNAL_ERROR');
    expect(await since(after)).toEqual([]);
    expect((await service.call('GET', '/v1/zongpai/PLT-EZ05')).body.status).toBe('OPEN');
    const close = () =>
      service.call('POST', '/v1/zongpai/PLT-EZ04/close', { token: supervisor(), headers: keyed('ev-close-1') });
    await close();
    await close();
    expect((await since(after)).map((e) => [e.type, e.idempotency_key, e.data.zongpai_no])).toEqual([
      ['zongpai.closed', 'ev-close-1', 'PLT-EZ04'],
    ]);
  });
});

describe('POST /v1/zongpai/{zongpai_no}/reopen: zongpai.reopened', () => {
  const reopen = (zongpaiNo: string, token: string, key?: string) =>
    service.call('POST', `/v1/zongpai/${zongpaiNo}/reopen`, {
      token,
      ...(key === undefined ? {} : { headers: keyed(key) }),
    });
  const closed = async (zongpaiNo: string) => {
    expect((await service.call('POST', '/v1/zongpai', { body: { zongpai_no: zongpaiNo } })).status).toBe(201);
    expect((await service.call('POST', `/v1/zongpai/${zongpaiNo}/close`, { token: supervisor() })).status).toBe(200);
  };

  it('announces a reopening once under its Idempotency-Key, and nothing for its keyed replay', async () => {
    await closed('PLT-EZ21');
    const after = await end();
    expect((await reopen('PLT-EZ21', supervisor(), 'ev-reopen-1')).status).toBe(200);
    expect((await reopen('PLT-EZ21', supervisor(), 'ev-reopen-1')).status).toBe(200);
    expect(await since(after)).toEqual([
      envelope('zongpai.reopened', 'sam', 'ev-reopen-1', zongpaiData('PLT-EZ21', 'OPEN', 3)),
    ]);
  });

  it('announces nothing for a refused reopening (an operator, an unknown zongpai), or when the statement fails', async () => {
    await closed('PLT-EZ22');
    const after = await end();
    expectError(await reopen('PLT-EZ22', service.tokens.operator), 403, 'FORBIDDEN');
    expectError(await reopen('PLT-NONE', supervisor()), 404, 'ZONGPAI_NOT_FOUND');
    expectError(await reopen('PLT-EZ22', doomed), 500, 'INTERNAL_ERROR');
    expect(await since(after)).toEqual([]);
    expect((await service.call('GET', '/v1/zongpai/PLT-EZ22')).body.status).toBe('CLOSED');
  });
});

describe('DELETE /v1/cargo/location/{cargo_no}/records/{id}: location.voided', () => {
  const scanOne = async (cargoNo: string, locationCode: string) => {
    const res = await service.call('POST', '/v1/cargo/location', {
      body: { cargo_no: cargoNo, location_code: locationCode, device_id: 'PDA-9' },
    });
    expect(res.status).toBe(201);
    return res.body.records[0] as Record<string, unknown> & { id: string };
  };
  const voidScan = (cargoNo: string, id: string, options: { version?: number; token?: string; key?: string } = {}) =>
    service.call('DELETE', `/v1/cargo/location/${cargoNo}/records/${id}`, {
      body: { version: options.version ?? 1 },
      token: options.token ?? supervisor(),
      ...(options.key ? { headers: keyed(options.key) } : {}),
    });

  it('announces a void with the whole record, voided_at and voided_by, under its Idempotency-Key, once', async () => {
    const record = await scanOne('BOX-EV01', 'WRONG-1');
    const after = await end();
    const res = await voidScan('BOX-EV01', record.id, { key: 'ev-void-1' });
    expect(res.status).toBe(200);
    expect((await voidScan('BOX-EV01', record.id, { key: 'ev-void-1' })).body).toEqual(res.body);
    expect(await since(after)).toEqual([
      envelope('location.voided', 'sam', 'ev-void-1', {
        ...record,
        version: 2,
        voided_at: res.body.voided_at,
        voided_by: 'sam',
      }),
    ]);
  });

  it('announces a void that moves the current location back, and one that leaves no current location', async () => {
    const before = await scanOne('BOX-EV02', 'A-01');
    const wrong = await scanOne('BOX-EV02', 'WRONG-2');
    const only = await scanOne('BOX-EV03', 'WRONG-3');
    const after = await end();
    const moved = await voidScan('BOX-EV02', wrong.id);
    const forgotten = await voidScan('BOX-EV03', only.id);
    expect([moved.status, forgotten.status]).toEqual([200, 200]);
    expect(await since(after)).toEqual([
      envelope('location.voided', 'sam', null, {
        ...wrong,
        version: 2,
        voided_at: moved.body.voided_at,
        voided_by: 'sam',
      }),
      envelope('location.voided', 'sam', null, {
        ...only,
        version: 2,
        voided_at: forgotten.body.voided_at,
        voided_by: 'sam',
      }),
    ]);
    expect((await service.call('GET', `/v1/cargo/location/BOX-EV02`)).body.current.id).toBe(before.id);
  });

  it('announces nothing for a refused void (operator, another cargo, stale version) or a voided record answered as it is', async () => {
    const record = await scanOne('BOX-EV04', 'WRONG-4');
    const theirs = await scanOne('BOX-EV05', 'B-01');
    await voidScan('BOX-EV04', record.id);
    const after = await end();
    expectError(await voidScan('BOX-EV05', theirs.id, { token: service.tokens.operator }), 403, 'FORBIDDEN', 'auth');
    expectError(await voidScan('BOX-EV04', theirs.id), 404, 'RECORD_NOT_FOUND', 'location');
    expectError(await voidScan('BOX-EV04', record.id), 409, 'VERSION_CONFLICT');
    expect((await voidScan('BOX-EV04', record.id, { version: 2 })).status).toBe(200);
    expect(await since(after)).toEqual([]);
  });

  it('announces nothing, and voids nothing, when the statement fails', async () => {
    const record = await scanOne('BOX-EV06', 'C-01');
    const after = await end();
    expectError(await voidScan('BOX-EV06', record.id, { token: doomed }), 500, 'INTERNAL_ERROR');
    expect(await since(after)).toEqual([]);
    const where = (await service.call('GET', '/v1/cargo/location/BOX-EV06')).body;
    expect([where.current.id, where.history[0].voided_at]).toEqual([record.id, null]);
  });
});

describe('one Data API call per request, with its events', () => {
  it('a write and its events, its keyed replay, and a page of the feed each cost exactly one ExecuteStatement', async () => {
    const calls = async (request: () => Promise<ApiResponse>) => {
      service.stack.dataApi.resetCounters();
      const res = await request();
      const counters = service.stack.dataApi.counters();
      return {
        status: res.status,
        ExecuteStatement: counters.ExecuteStatement,
        BatchExecuteStatement: counters.BatchExecuteStatement,
        BeginTransaction: counters.BeginTransaction,
      };
    };
    const one = (status: number) => ({ status, ExecuteStatement: 1, BatchExecuteStatement: 0, BeginTransaction: 0 });
    const backlog = {
      records: Array.from({ length: 500 }, (_, i) => ({
        cargo_no: `BOX-EC${String(i).padStart(3, '0')}`,
        location_code: 'A-01',
      })),
    };
    const after = await end();
    expect(
      await calls(() => service.call('POST', '/v1/cargo/location', { body: backlog, headers: keyed('ev-calls-1') })),
    ).toEqual(one(201));
    expect(
      await calls(() => service.call('POST', '/v1/cargo/location', { body: backlog, headers: keyed('ev-calls-1') })),
    ).toEqual(one(201));
    expect(await calls(() => feed(`?after=${after}&limit=500`))).toEqual(one(200));
    expect(await since(after)).toHaveLength(500);
  });
});
