import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signLocalToken, verifyLocalToken } from '../../local/auth.ts';
import type { SqlBackend } from '../../local/data-api/backend.ts';
import { createPgliteBackend } from '../../local/data-api/pglite-backend.ts';
import { createPostgresBackend } from '../../local/data-api/postgres-backend.ts';
import { startLocalService } from '../../local/stack.ts';
import { expectError } from '../support/assertions.ts';
import { serviceTemplate } from '../support/pglite-template.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { throwawayDatabase } from '../support/throwaway-database.ts';

/** The GS1 mod-10 check digit, written from the GS1 General Specifications (weights 3, 1, 3, ... from the right). */
const checkDigitOf = (digits: string): string => {
  const weighted = [...digits].reverse().reduce((sum, digit, i) => sum + Number(digit) * (i % 2 === 0 ? 3 : 1), 0);
  return String((10 - (weighted % 10)) % 10);
};

/** The SSCC of an extension digit, a company prefix and a serial reference. */
const ssccOf = (extension: string, prefix: string, serial: number): string => {
  const body = `${extension}${prefix}${String(serial).padStart(16 - prefix.length, '0')}`;
  return body + checkDigitOf(body);
};

const PREFIX = '4012345';
const EXTENSION = '3';
const SSCC = { GS1_COMPANY_PREFIX: PREFIX, SSCC_EXTENSION_DIGIT: EXTENSION };

const registerSscc = (service: TestService, headers?: Record<string, string>) =>
  service.call('POST', '/v1/zongpai', { body: { sscc: true }, ...(headers === undefined ? {} : { headers }) });

const lastSerial = async (
  service: TestService,
  prefix = PREFIX,
  extension = EXTENSION,
): Promise<number | undefined> => {
  const { rows } = await service.stack.db.query<{ last_serial: number }>(
    'SELECT last_serial FROM cargo.sscc_serial WHERE extension_digit = :e AND company_prefix = :p',
    { e: extension, p: prefix },
  );
  return rows[0]?.last_serial === undefined ? undefined : Number(rows[0].last_serial);
};

describe('zongpai numbers allocated as SSCCs', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ env: SSCC });
  });
  afterAll(async () => service?.close());

  it('registers the next SSCC: extension digit, prefix, serial reference and GS1 check digit', async () => {
    const before = (await lastSerial(service)) ?? 0;
    const res = await registerSscc(service);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ zongpai_no: ssccOf(EXTENSION, PREFIX, before + 1), status: 'OPEN', box_count: 0 });
    const read = await service.call('GET', `/v1/zongpai/${res.body.zongpai_no as string}`);
    expect(read.status).toBe(200);
    const next = await registerSscc(service);
    expect(next.body.zongpai_no).toBe(ssccOf(EXTENSION, PREFIX, before + 2));
  });

  it('gives every serial reference its right check digit (property, against an independent implementation)', async () => {
    await registerSscc(service);
    const used = new Set<number>();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1_000, max: 900_000_000 }), async (serial) => {
        fc.pre(!used.has(serial));
        used.add(serial);
        await service.stack.db.query(
          'UPDATE cargo.sscc_serial SET last_serial = :s WHERE extension_digit = :e AND company_prefix = :p',
          { s: serial - 1, e: EXTENSION, p: PREFIX },
        );
        const res = await registerSscc(service);
        expect(res.status).toBe(201);
        expect(res.body.zongpai_no).toBe(ssccOf(EXTENSION, PREFIX, serial));
      }),
      { numRuns: 40 },
    );
    // Back past every serial the property handed out, so that the other tests never meet one of them.
    await service.stack.db.query(
      'UPDATE cargo.sscc_serial SET last_serial = 950000000 WHERE extension_digit = :e AND company_prefix = :p',
      { e: EXTENSION, p: PREFIX },
    );
  });

  it('hands 20 racing registrations 20 distinct valid SSCCs', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => registerSscc(service)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    const numbers = answers.map((a) => a.body.zongpai_no as string);
    expect(new Set(numbers).size).toBe(20);
    for (const n of numbers) {
      expect(n).toMatch(new RegExp(`^${EXTENSION}${PREFIX}\\d{10}$`));
      expect(n.at(-1)).toBe(checkDigitOf(n.slice(0, 17)));
    }
  });

  it('replays the same SSCC to a keyed retry and hands the next request the next serial', async () => {
    const headers = { 'idempotency-key': `sscc-${randomBytes(4).toString('hex')}` };
    const first = await registerSscc(service, headers);
    const retry = await registerSscc(service, headers);
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body.zongpai_no).toBe(first.body.zongpai_no);
    const serial = Number((first.body.zongpai_no as string).slice(8, 17));
    const next = await registerSscc(service);
    expect(next.body.zongpai_no).toBe(ssccOf(EXTENSION, PREFIX, serial + 1));
  });

  it('skips a serial whose SSCC is already a zongpai, a box of the ERP plan, a saved box or a location, and hands out the next free one', async () => {
    const base = (await lastSerial(service)) ?? 0;
    const at = (k: number) => ssccOf(EXTENSION, PREFIX, base + k);
    // The next four serials' numbers are taken, each another way: registered by hand as a zongpai,
    // an ERP carton's SSCC, a box saved on that zongpai, a location of the register.
    expect((await service.call('POST', '/v1/zongpai', { body: { zongpai_no: at(1) } })).status).toBe(201);
    await service.plan(at(2), { 'SKU-SSCC': 1 }, 'SO-SSCC-1');
    await service.plan(at(3), { 'SKU-SSCC': 1 }, 'SO-SSCC-1');
    expect((await service.call('POST', '/v1/box/simple', { body: { box_no: at(3), zongpai_no: at(1) } })).status).toBe(
      201,
    );
    await service.stack.db.query('DELETE FROM erp.demo_box_plan WHERE box_no = :box', { box: at(3) });
    const shelf = await service.call('PUT', `/v1/cargo/locations/${at(4)}`, {
      body: { kind: 'SHELF' },
      token: service.tokens.supervisor,
    });
    expect(shelf.status).toBe(201);

    const key = { 'idempotency-key': `sscc-free-${randomBytes(4).toString('hex')}` };
    const res = await registerSscc(service, key);
    expect(res.status).toBe(201);
    expect(res.body.zongpai_no).toBe(at(5));
    expect((await registerSscc(service, key)).body.zongpai_no).toBe(at(5));
    expect(await lastSerial(service)).toBe(base + 5);
    expect((await registerSscc(service)).body.zongpai_no).toBe(at(6));
  });

  it('announces zongpai.registered with the SSCC', async () => {
    const res = await registerSscc(service);
    const { rows } = await service.stack.db.query<{ data: string }>(
      "SELECT data::text AS data FROM cargo.event WHERE type = 'zongpai.registered' AND data->>'zongpai_no' = :n",
      { n: res.body.zongpai_no },
    );
    expect(rows.map((r) => JSON.parse(r.data))).toEqual([
      { zongpai_no: res.body.zongpai_no, status: 'OPEN', version: 1, box_count: 0, total_quantity: 0 },
    ]);
  });

  it('refuses sscc together with a zongpai_no (400 VALIDATION_ERROR) and a body with neither as before', async () => {
    expectError(
      await service.call('POST', '/v1/zongpai', { body: { sscc: true, zongpai_no: 'PLT-BOTH' } }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(await service.call('POST', '/v1/zongpai', { body: {} }), 400, 'INVALID_ZONGPAI', 'zongpai');
    expectError(await service.call('POST', '/v1/zongpai', { body: { sscc: false } }), 400, 'INVALID_ZONGPAI');
    expectError(await service.call('POST', '/v1/zongpai', { body: { sscc: 'yes' } }), 400, 'VALIDATION_ERROR');
    const named = await service.call('POST', '/v1/zongpai', { body: { sscc: false, zongpai_no: 'PLT-NAMED' } });
    expect(named.status).toBe(201);
    expect(named.body.zongpai_no).toBe('PLT-NAMED');
  });

  it('checks the check digit of an 18-digit zongpai number a client gives, and reads (00) and 00 scans as the SSCC', async () => {
    const given = ssccOf('9', '7654321', 42);
    const wrong = given.slice(0, 17) + String((Number(given[17]) + 1) % 10);
    const refused = await service.call('POST', '/v1/zongpai', { body: { zongpai_no: wrong } });
    expectError(refused, 400, 'INVALID_ZONGPAI', 'zongpai');
    expect(refused.body.message).toMatch(/check digit/);
    const scanned = await service.call('POST', '/v1/zongpai', { body: { zongpai_no: `(00)${given}` } });
    expect(scanned.status).toBe(201);
    expect(scanned.body.zongpai_no).toBe(given);
    expectError(
      await service.call('POST', '/v1/zongpai', { body: { zongpai_no: `00${given}` } }),
      409,
      'ZONGPAI_ALREADY_EXISTS',
    );
    expect((await service.call('GET', `/v1/zongpai/(00)${given}`)).body.zongpai_no).toBe(given);
  });
});

describe('SSCC serials used up', () => {
  // A 10-digit prefix leaves 6 digits of serial reference: 999 999 serials.
  const LONG = '4012345678';
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ env: { GS1_COMPANY_PREFIX: LONG } });
  });
  afterAll(async () => service?.close());

  it('answers 409 SSCC_EXHAUSTED after the last serial and never hands one out twice', async () => {
    const first = await registerSscc(service);
    expect(first.body.zongpai_no).toBe(ssccOf('0', LONG, 1));
    await service.stack.db.query(
      "UPDATE cargo.sscc_serial SET last_serial = 999998 WHERE extension_digit = '0' AND company_prefix = :p",
      { p: LONG },
    );
    const last = await registerSscc(service);
    expect(last.status).toBe(201);
    expect(last.body.zongpai_no).toBe(ssccOf('0', LONG, 999_999));
    const refused = await registerSscc(service);
    expectError(refused, 409, 'SSCC_EXHAUSTED', 'zongpai');
    expect(refused.body.message).toContain(LONG);
    expectError(await registerSscc(service), 409, 'SSCC_EXHAUSTED');
    expect(await lastSerial(service, LONG, '0')).toBe(999_999);
    // Named zongpais are registered as before.
    expect((await service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'PLT-AFTER' } })).status).toBe(201);
  });
});

describe('SSCC without a company prefix', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ env: { GS1_COMPANY_PREFIX: '' } });
  });
  afterAll(async () => service?.close());

  it('answers 409 SSCC_NOT_CONFIGURED and registers nothing', async () => {
    const res = await registerSscc(service);
    expectError(res, 409, 'SSCC_NOT_CONFIGURED', 'zongpai');
    expect(res.body.message).toContain('GS1_COMPANY_PREFIX');
    const zh = await service.call('POST', '/v1/zongpai', {
      body: { sscc: true },
      headers: { 'accept-language': 'zh' },
    });
    expect(zh.body.message).toMatch(/[\u4e00-\u9fff]/);
    const { rows } = await service.stack.db.query<{ n: number }>(
      'SELECT count(*)::integer AS n FROM cargo.sscc_serial',
    );
    expect(rows[0]?.n).toBe(0);
  });
});

describe('SSCC serials across a restart of the service', () => {
  const key = randomBytes(32);
  const env = { ...process.env, ...SSCC };
  const start = (backend: SqlBackend) =>
    startLocalService({
      backend,
      env,
      verifyToken: (h) => verifyLocalToken(key, h),
      throttle: { rate: 1000, burst: 1000 },
    });
  let drop: () => Promise<void> = async () => undefined;
  afterAll(async () => drop());

  const register = async (url: string): Promise<string> => {
    const token = await signLocalToken(key, { user: 'olga', groups: ['operator'] });
    const res = await fetch(new URL('/v1/zongpai', url), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sscc: true }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { zongpai_no: string }).zongpai_no;
  };

  it('keeps counting where it stopped', async () => {
    let reopen: () => Promise<SqlBackend>;
    let backend: SqlBackend;
    if (process.env.TEST_BACKEND === 'postgres') {
      const database = await throwawayDatabase();
      drop = database.drop;
      const open = () => createPostgresBackend({ connectionString: database.url, maxConnections: 5 });
      backend = await open();
      reopen = open;
    } else {
      const pglite = await createPgliteBackend({ loadDataDir: await serviceTemplate() });
      backend = pglite;
      reopen = async () => createPgliteBackend({ loadDataDir: await pglite.dumpDataDir() });
    }
    const before = await start(backend);
    const numbers = [await register(before.url), await register(before.url)];
    const next = await reopen();
    await before.close();
    const after = await start(next);
    try {
      numbers.push(await register(after.url));
    } finally {
      await after.close();
    }
    expect(numbers).toEqual([1, 2, 3].map((serial) => ssccOf(EXTENSION, PREFIX, serial)));
  });
});
