import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { minutesAgo, startTestService, type CallOptions, type TestService } from '../support/service.ts';
import { compileWrite, PROCEED, runWrite, type Idempotency, type WriteStatement } from '../../lib/db/write.ts';
import { AppError } from '../../lib/errors/app-error.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.close());

const keyed = (key: string, headers: Record<string, string> = {}) => ({ 'idempotency-key': key, ...headers });
const history = async (cargo: string) =>
  (await service.call('GET', `/v1/cargo/location/${cargo}?limit=100`)).body.history ?? [];
/** A keyed scan: `POST /v1/cargo/location` under `key`. */
const locate = (body: unknown, key: string, options: CallOptions = {}) =>
  service.call('POST', '/v1/cargo/location', { body, headers: keyed(key), ...options });
/** A keyed simple save: `POST /v1/box/simple` under `key`. */
const saveSimple = (body: unknown, key: string) =>
  service.call('POST', '/v1/box/simple', { body, headers: keyed(key) });
const register = (zongpaiNo: string) => service.call('POST', '/v1/zongpai', { body: { zongpai_no: zongpaiNo } });
/** Lets a stored key expire a minute ago. */
const expire = (key: string) =>
  service.stack.db.query(
    `UPDATE cargo.idempotency_key SET expires_at = now() - interval '1 minute' WHERE idem_key = :key`,
    { key },
  );

describe('Idempotency-Key', () => {
  it('answers a retry with the first response and writes once', async () => {
    const body = { cargo_no: 'BOX-I001', location_code: 'A-01' };
    const first = await locate(body, 'k-001');
    const retry = await locate(body, 'k-001');
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(await history('BOX-I001')).toHaveLength(1);
  });

  it('answers 422 for another JSON value under the key, even one the service reads as the same scan', async () => {
    // SPEC: "same body" means the same JSON value; only key order and whitespace do not matter.
    const first = await locate({ cargo_no: 'BOX-I002', location_code: 'A-01' }, 'k-002');
    expect(first.status).toBe(201);
    for (const other of [
      { cargo_no: ' box-i002\r\n', location_code: 'a-01' },
      { cargo_no: 'BOX-I002', location_code: 'A-01', off_shelf: false },
      { records: [{ cargo_no: 'BOX-I002', location_code: 'A-01' }] },
    ]) {
      expectError(await locate(other, 'k-002'), 422, 'IDEMPOTENCY_KEY_REUSED', 'request');
    }
    // A field the route does not take is refused whatever the key.
    expectError(
      await locate({ cargo_no: 'BOX-I002', location_code: 'A-01', note: 'x' }, 'k-002'),
      400,
      'VALIDATION_ERROR',
    );
    expect(await history('BOX-I002')).toHaveLength(1);
  });

  it('answers 422 IDEMPOTENCY_KEY_REUSED for the same key with another body, and stores nothing', async () => {
    await locate({ cargo_no: 'BOX-I003', location_code: 'A-01' }, 'k-003');
    const other = await locate({ cargo_no: 'BOX-I003', location_code: 'B-02' }, 'k-003');
    expectError(other, 422, 'IDEMPOTENCY_KEY_REUSED', 'request');
    expect((await history('BOX-I003')).map((h: { location_code: string }) => h.location_code)).toEqual(['A-01']);
  });

  it('answers 422 when a key is reused on another route', async () => {
    await service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'PLT-I004' }, headers: keyed('k-004') });
    expectError(await locate({ cargo_no: 'BOX-I004', location_code: 'A-01' }, 'k-004'), 422, 'IDEMPOTENCY_KEY_REUSED');
  });

  it('keeps keys apart per caller', async () => {
    const other = await service.token('oscar', ['operator']);
    const body = { cargo_no: 'BOX-I005', location_code: 'A-01' };
    await locate(body, 'k-005');
    const res = await locate(body, 'k-005', { token: other });
    expect(res.body.records[0].recorded_by).toBe('oscar');
    expect(await history('BOX-I005')).toHaveLength(2);
  });

  it('100 racing copies of a backlog with one key: one write, identical answers', async () => {
    const body = { records: Array.from({ length: 20 }, (_, i) => ({ cargo_no: 'BOX-I006', location_code: `R-${i}` })) };
    const responses = await Promise.all(Array.from({ length: 100 }, () => locate(body, 'k-006')));
    expect(new Set(responses.map((r) => r.status))).toEqual(new Set([201]));
    expect(new Set(responses.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(await history('BOX-I006')).toHaveLength(20);
  });

  // An offline handheld's upload: the largest backlog, under a key, its answer (about 100 KB)
  // above the Data API's 64 KB per row, which the emulator enforces as AWS does.
  it('stores a keyed backlog of 500 and replays it, racing copies included', async () => {
    const records = Array.from({ length: 500 }, (_, i) => ({
      cargo_no: `BOX-I0B-${String(i).padStart(4, '0')}`,
      location_code: `DOCK-${String(i % 40).padStart(2, '0')}`,
      off_shelf: i % 2 === 0,
      scanned_at: minutesAgo(10 + i / 100),
      device_id: 'HH-OFFLINE-0001',
    }));
    const responses = await Promise.all(Array.from({ length: 3 }, () => locate({ records }, 'k-0b500')));
    const replay = await locate({ records }, 'k-0b500');
    for (const res of [...responses, replay]) {
      expect(res.status).toBe(201);
      expect(res.body).toEqual(responses[0]?.body);
    }
    expect(replay.body.records).toHaveLength(500);
    expect(replay.body.records[499]).toMatchObject({ cargo_no: 'BOX-I0B-0499', location_code: 'DOCK-19' });
    expect(await history('BOX-I0B-0007')).toHaveLength(1);
  });

  it('100 racing copies of a box save with one key: one write, identical answers', async () => {
    await service.plan('BOX-I007', { 'SKU-A': 5 });
    await register('PLT-I007');
    const body = { box_no: 'BOX-I007', zongpai_no: 'PLT-I007', items: [{ item_code: 'SKU-A', quantity: 5 }] };
    const responses = await Promise.all(
      Array.from({ length: 100 }, () => service.call('POST', '/v1/box', { body, headers: keyed('k-007') })),
    );
    expect(new Set(responses.map((r) => r.status))).toEqual(new Set([201]));
    expect(new Set(responses.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect((await service.call('GET', '/v1/box/BOX-I007/history')).body.events).toHaveLength(1);
  });

  it('replays edits, undos and closes too, so a retried supervisor action is not a conflict', async () => {
    await service.plan('BOX-I008', { 'SKU-A': 5 });
    await register('PLT-I008');
    await service.call('POST', '/v1/box/simple', { body: { box_no: 'BOX-I008', zongpai_no: 'PLT-I008' } });
    const sv = service.tokens.supervisor;
    const edit = () =>
      service.call('PATCH', '/v1/box/BOX-I008', {
        body: { version: 1, items: [{ item_code: 'SKU-A', quantity: 2 }] },
        headers: keyed('k-008a'),
        token: sv,
      });
    const undo = () =>
      service.call('DELETE', '/v1/box/BOX-I008', { headers: keyed('k-008b', { 'if-match': '2' }), token: sv });
    const close = () => service.call('POST', '/v1/zongpai/PLT-I008/close', { headers: keyed('k-008c'), token: sv });
    for (const action of [edit, undo, close]) {
      const first = await action();
      const again = await action();
      expect(first.status).toBe(200);
      expect(again.body).toEqual(first.body);
    }
    expect(
      (await service.call('GET', '/v1/box/BOX-I008/history')).body.events.map((e: { action: string }) => e.action),
    ).toEqual(['SAVE', 'EDIT', 'UNDO']);
  });

  it('keeps a refusal under its key too; the corrected attempt goes with a new key', async () => {
    await service.plan('BOX-I013', { 'SKU-A': 1 });
    const body = { box_no: 'BOX-I013', zongpai_no: 'PLT-I013' };
    expectError(await saveSimple(body, 'k-013a'), 404, 'ZONGPAI_NOT_FOUND');
    await register('PLT-I013');
    expectError(await saveSimple(body, 'k-013a'), 404, 'ZONGPAI_NOT_FOUND');
    expect((await saveSimple(body, 'k-013b')).status).toBe(201);
  });

  it('forgets a key after it expires: the same key then writes again', async () => {
    const body = { cargo_no: 'BOX-I009', location_code: 'A-01' };
    await locate(body, 'k-009');
    await expire('k-009');
    const again = await locate(body, 'k-009');
    expect(again.status).toBe(201);
    expect(await history('BOX-I009')).toHaveLength(2);
  });

  it('sweeps expired keys away with the hourly maintenance, signed in as its own database user', async () => {
    await locate({ cargo_no: 'BOX-I010', location_code: 'A-01' }, 'k-010');
    await expire('k-010');
    await service.stack.maintain();
    const { rows } = await service.stack.db.query(
      `SELECT count(*)::int AS n FROM cargo.idempotency_key WHERE idem_key = 'k-010'`,
    );
    expect(rows[0]?.n).toBe(0);
  });

  it('costs one Data API call for a keyed write and one for its replay', async () => {
    const body = { cargo_no: 'BOX-I011', location_code: 'A-01' };
    for (let i = 0; i < 2; i += 1) {
      service.stack.dataApi.resetCounters();
      expect((await locate(body, 'k-011')).status).toBe(201);
      expect(service.stack.dataApi.counters().ExecuteStatement).toBe(1);
    }
  });

  it('answers 400 for a key that is not 1-255 visible characters', async () => {
    for (const key of ['x'.repeat(256), 'has space']) {
      expectError(await locate({ cargo_no: 'BOX-I012', location_code: 'A-01' }, key), 400, 'VALIDATION_ERROR');
    }
  });

  it('10 identical requests racing on an expired key: one write, every copy gets its answer', async () => {
    for (let round = 0; round < 8; round += 1) {
      const key = `k-014-${round}`;
      const cargo = `BOX-I014-${round}`;
      await service.stack.db.query(
        `INSERT INTO cargo.idempotency_key (caller, idem_key, route, request_hash, result, expires_at)
         VALUES ('olga', :key, 'POST /v1/{service_prefix}/location', 'an older request', '[]'::json, now() - interval '1 hour')`,
        { key },
      );
      const body = { cargo_no: cargo, location_code: 'A-01' };
      const responses = await Promise.all(Array.from({ length: 10 }, () => locate(body, key)));
      expect(responses.map((r) => r.status)).toEqual(Array.from({ length: 10 }, () => 201));
      expect(new Set(responses.map((r) => JSON.stringify(r.body))).size).toBe(1);
      expect(await history(cargo)).toHaveLength(1);
    }
  });

  describe('what a key stands for: the route, the path, the query, the body and the version it is based on', () => {
    const boxed = async (suffix: string) => {
      await service.plan(`BOX-I${suffix}`, { 'SKU-A': 5 });
      await register(`PLT-I${suffix}`);
      await service.call('POST', '/v1/box/simple', {
        body: { box_no: `BOX-I${suffix}`, zongpai_no: `PLT-I${suffix}` },
      });
      return `/v1/box/BOX-I${suffix}`;
    };
    /** A supervisor's keyed edit of `box` based on the version in `ifMatch`. */
    const edit = (box: string, body: unknown, key: string, ifMatch: string) =>
      service.call('PATCH', box, {
        body,
        headers: keyed(key, { 'if-match': ifMatch }),
        token: service.tokens.supervisor,
      });

    it('answers 422 IDEMPOTENCY_KEY_REUSED for a corrected If-Match under a used key, and writes nothing', async () => {
      const box = await boxed('015');
      const body = { items: [{ item_code: 'SKU-A', quantity: 2 }] };
      expectError(await edit(box, body, 'k-015', '"7"'), 409, 'VERSION_CONFLICT');
      expectError(await edit(box, body, 'k-015', '"1"'), 422, 'IDEMPOTENCY_KEY_REUSED');
      expect((await service.call('GET', `${box}/history`)).body.events).toHaveLength(1);
      expect((await edit(box, body, 'k-015b', '"1"')).status).toBe(200);
    });

    it('treats the same version written two ways in If-Match as the same request', async () => {
      const box = await boxed('016');
      const body = { items: [{ item_code: 'SKU-A', quantity: 2 }] };
      const first = await edit(box, body, 'k-016', '"1"');
      const again = await edit(box, body, 'k-016', 'W/"1"');
      expect(first.status).toBe(200);
      expect(again.body).toEqual(first.body);
    });

    it('treats the same JSON value in another key order and spacing as the same request', async () => {
      await service.plan('BOX-I017', { 'SKU-A': 5 });
      await register('PLT-I017');
      const first = await service.call('POST', '/v1/box/simple', {
        rawBody: '{"box_no":"BOX-I017","zongpai_no":"PLT-I017"}',
        headers: keyed('k-017', { 'content-type': 'application/json' }),
      });
      const again = await service.call('POST', '/v1/box/simple', {
        rawBody: '{ "zongpai_no" : "PLT-I017",\n  "box_no" : "BOX-I017" }',
        headers: keyed('k-017', { 'content-type': 'application/json' }),
      });
      expect(first.status).toBe(201);
      expect(again.body).toEqual(first.body);
    });

    it('binds no key to a request refused as invalid (400): the corrected request may use it', async () => {
      await service.plan('BOX-I018', { 'SKU-A': 5 });
      await register('PLT-I018');
      expectError(await saveSimple({ box_no: 'BOX-I018', zongpai_no: 'P' }, 'k-018'), 400, 'INVALID_ZONGPAI');
      expect((await saveSimple({ box_no: 'BOX-I018', zongpai_no: 'PLT-I018' }, 'k-018')).status).toBe(201);
    });

    // The statement itself finds that the zongpai number is a box's of the ERP plan: still a 400,
    // a request refused as invalid, so the corrected request may use its key (docs/HANDHELD.md).
    it.each([
      ['POST /v1/zongpai', '/v1/zongpai', (_box: string, zongpai: string) => ({ zongpai_no: zongpai })],
      [
        'POST /v1/box',
        '/v1/box',
        (box: string, zongpai: string) => ({
          box_no: box,
          zongpai_no: zongpai,
          items: [{ item_code: 'SKU-A', quantity: 5 }],
        }),
      ],
      [
        'POST /v1/box/simple',
        '/v1/box/simple',
        (box: string, zongpai: string) => ({ box_no: box, zongpai_no: zongpai }),
      ],
    ])(
      'binds no key to %s refused in its statement because the zongpai number is a box of the plan',
      async (_route, path, body) => {
        const series = path.replaceAll('/', '').toUpperCase().slice(2);
        const box = `BOX-I019-${series}`;
        await service.plan(box, { 'SKU-A': 5 });
        // A second box of the plan whose number the operator scanned where the zongpai's was meant.
        await service.plan(`${box}-X`, { 'SKU-A': 1 });
        const zongpai = `PLT-I019-${series}`;
        if (path !== '/v1/zongpai') await register(zongpai);
        const key = `k-019-${series}`;
        const refused = await service.call('POST', path, { body: body(box, `${box}-X`), headers: keyed(key) });
        expectError(refused, 400, 'INVALID_ZONGPAI', 'zongpai');
        const corrected = await service.call('POST', path, { body: body(box, zongpai), headers: keyed(key) });
        expect(corrected.status, JSON.stringify(corrected.body)).toBe(201);
        const again = await service.call('POST', path, { body: body(box, zongpai), headers: keyed(key) });
        expect(again.body).toEqual(corrected.body);
      },
    );
  });

  it('a key sent to two routes at once writes one of them; the other answers IDEMPOTENCY_KEY_REUSED', async () => {
    for (let round = 0; round < 15; round += 1) {
      const key = `k-020-${round}`;
      const zongpai = `PLT-I020-${round}`;
      const cargo = `BOX-I020-${round}`;
      const [registered, located] = await Promise.all([
        service.call('POST', '/v1/zongpai', { body: { zongpai_no: zongpai }, headers: keyed(key) }),
        locate({ cargo_no: cargo, location_code: 'A-01' }, key),
      ]);
      const wrote = [registered, located].filter((r) => r.status === 201);
      const refused = [registered, located].filter((r) => r.status !== 201);
      expect(wrote, `round ${round}`).toHaveLength(1);
      expectError(refused[0]!, 422, 'IDEMPOTENCY_KEY_REUSED', 'request');
      const zongpaiExists = (await service.call('GET', `/v1/zongpai/${zongpai}`)).status === 200;
      const scans = await history(cargo);
      expect(zongpaiExists).toBe(registered.status === 201);
      expect(scans).toHaveLength(located.status === 201 ? 1 : 0);
    }
  });

  // Two connections at once: on PostgreSQL (PGlite has one).
  it.runIf(process.env.TEST_BACKEND === 'postgres')(
    'a key sent to a scan and a zongpai registration at once, both waiting on the outbox, answers one and refuses the other',
    async () => {
      const waiting = async () =>
        (
          await service.stack.owner.query<{ waiting: number }>(
            `SELECT count(DISTINCT l.pid)::int AS waiting FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
             WHERE NOT l.granted AND a.datname = current_database()`,
          )
        ).rows[0]?.waiting ?? 0;
      const until = async (count: number) => {
        for (let tries = 0; (await waiting()) < count; tries += 1) {
          if (tries > 200) throw new Error(`fewer than ${count} statements came to wait`);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      };
      let located: Promise<Awaited<ReturnType<typeof locate>>> | undefined;
      let registered: Promise<Awaited<ReturnType<typeof service.call>>> | undefined;
      // The outbox's counter row held: the scan comes first, then the registration, and both wait.
      await service.stack.owner.transaction(async (tx) => {
        await tx.query('SELECT 1 AS held FROM cargo.event_sequence FOR UPDATE');
        located = locate({ cargo_no: 'BOX-I030', location_code: 'A-01' }, 'k-030');
        await until(1);
        registered = service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'PLT-I030' }, headers: keyed('k-030') });
        await until(2);
      });
      const answers = await Promise.all([located, registered]);
      expect(answers.map((a) => a?.status)).toEqual([201, 422]);
      expectError(answers[1]!, 422, 'IDEMPOTENCY_KEY_REUSED', 'request');
      expect(await history('BOX-I030')).toHaveLength(1);
      expect((await service.call('GET', '/v1/zongpai/PLT-I030')).status).toBe(404);
    },
  );

  describe('an answer stored before a deployment that changed the statement', () => {
    // One write as two deployments have it: the first answers `number`, the next renamed it `zongpai_no`.
    const registering = (select: string, reply?: WriteStatement['reply']) =>
      compileWrite({
        ctes: `registered AS (
  INSERT INTO cargo.zongpai (zongpai_no, created_by) SELECT :zongpai_no, 'olga' WHERE ${PROCEED} RETURNING *)`,
        select: `SELECT ${select} FROM registered r`,
        ...(reply === undefined ? {} : { reply }),
      });
    const before = registering('r.zongpai_no AS number');
    const after = registering('r.zongpai_no', {
      version: 2,
      upgrades: { 1: ({ number, ...row }) => ({ ...row, zongpai_no: number }) },
    });
    const idem = (key: string): Idempotency => ({
      caller: 'olga',
      key,
      route: 'POST /v1/zongpai',
      hash: key,
      ttlHours: 1,
    });
    const zongpais = async (zongpaiNo: string) =>
      (
        await service.stack.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM cargo.zongpai WHERE zongpai_no = :zongpaiNo`,
          { zongpaiNo },
        )
      ).rows[0]?.n;

    it('replays it in the shape the running statement answers, and writes nothing', async () => {
      const first = await runWrite(service.stack.db, before, { zongpai_no: 'PLT-I021' }, idem('k-021'));
      expect(first).toEqual([{ number: 'PLT-I021' }]);
      const replay = await runWrite(service.stack.db, after, { zongpai_no: 'PLT-I021' }, idem('k-021'));
      expect(replay).toEqual([{ zongpai_no: 'PLT-I021' }]);
      expect(await zongpais('PLT-I021')).toBe(1);
    });

    it('answers 503 with Retry-After for an answer a newer deployment stored, and writes nothing', async () => {
      await runWrite(service.stack.db, after, { zongpai_no: 'PLT-I022' }, idem('k-022'));
      const replay = runWrite(service.stack.db, before, { zongpai_no: 'PLT-I022' }, idem('k-022'));
      const refused = await replay.then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(AppError);
      expect(refused).toMatchObject({ code: 'DATABASE_UNAVAILABLE', headers: { 'Retry-After': '5' } });
      expect(await zongpais('PLT-I022')).toBe(1);
    });

    it('replays a key the service stored before answers had a shape as the first answer', async () => {
      await service.plan('BOX-I023', { 'SKU-A': 5 });
      await register('PLT-I023');
      const body = { box_no: 'BOX-I023', zongpai_no: 'PLT-I023' };
      const first = await saveSimple(body, 'k-023');
      // As the service stored keys before migration 019: no shape.
      await service.stack.db.query(`UPDATE cargo.idempotency_key SET reply_shape = NULL WHERE idem_key = 'k-023'`);
      const again = await saveSimple(body, 'k-023');
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
    });
  });
});
