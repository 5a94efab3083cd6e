import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { minutesAgo, startTestService, type TestService } from '../support/service.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.close());

const LOCATION = '/v1/cargo/location';
const scan = (body: unknown, headers?: Record<string, string>) => service.call('POST', LOCATION, { body, headers });
/** A backlog of plain scans, each `[cargo_no, location_code]`. */
const backlog = (...scans: [string, string][]) =>
  scan({ records: scans.map(([cargo_no, location_code]) => ({ cargo_no, location_code })) });

describe('POST /v1/cargo/location', () => {
  it('records one scan, normalised, with the caller and server time', async () => {
    const before = Date.now();
    const res = await scan({ cargo_no: ' box-2001\r\n', location_code: 'a-01-02 ', device_id: 'PDA-07' });
    expect(res.status).toBe(201);
    expect(res.body.records).toEqual([
      expect.objectContaining({
        cargo_no: 'BOX-2001',
        location_code: 'A-01-02',
        off_shelf: false,
        scanned_at: null,
        recorded_by: 'olga',
        device_id: 'PDA-07',
      }),
    ]);
    expect(Date.parse(res.body.records[0].recorded_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(res.body.records[0].id).toMatch(/^\d+$/);
  });

  it('records an off-shelf location such as a staging lane', async () => {
    const res = await scan({ cargo_no: 'BOX-2002', location_code: 'STAGE-3', off_shelf: true });
    expect(res.status).toBe(201);
    expect(res.body.records[0]).toEqual(expect.objectContaining({ location_code: 'STAGE-3', off_shelf: true }));
  });

  it('stores a backlog of scans in order, all at once', async () => {
    const records = Array.from({ length: 50 }, (_, i) => ({
      cargo_no: `BOX-3${String(i).padStart(3, '0')}`,
      location_code: `R-${i % 7}`,
      scanned_at: minutesAgo(60 - i),
    }));
    const res = await scan({ records });
    expect(res.status).toBe(201);
    expect(res.body.records.map((r: { cargo_no: string }) => r.cargo_no)).toEqual(records.map((r) => r.cargo_no));
  });

  it('stores none of a backlog when one record is bad, naming its index', async () => {
    const res = await backlog(['BOX-4001', 'A-01'], ['BOX-4002', 'not valid!'], ['BOX-4003', 'A-03']);
    expectError(res, 400, 'INVALID_LOCATION_CODE', 'location');
    expect(res.body.message).toContain('records[1].location_code');
    // Listed in details too, as when several are bad: a handheld reads the index there.
    expect(res.body.details.map((d: { field: string; error_code: string }) => [d.field, d.error_code])).toEqual([
      ['records[1].location_code', 'INVALID_LOCATION_CODE'],
    ]);
    const stored = await service.call('GET', `${LOCATION}/BOX-4001`);
    expectError(stored, 404, 'CARGO_NOT_FOUND', 'location');
  });

  it('refuses a field it does not take, naming it, rather than storing the scan without it', async () => {
    const typo = await scan({ cargo_no: 'BOX-4301', location_code: 'A-01', scaned_at: minutesAgo(600) });
    expectError(typo, 400, 'VALIDATION_ERROR', 'request');
    expect(typo.body.message).toBe("body has a field this request does not take: 'scaned_at'");
    const inBacklog = await scan({
      records: [
        { cargo_no: 'BOX-4302', location_code: 'A-01' },
        { cargo_no: 'BOX-4303', location_code: 'A-01', offShelf: true },
      ],
    });
    expectError(inBacklog, 400, 'VALIDATION_ERROR');
    expect(inBacklog.body.message).toBe("records[1] has a field this request does not take: 'offShelf'");
    for (const cargo of ['BOX-4301', 'BOX-4302', 'BOX-4303'])
      expectError(await service.call('GET', `${LOCATION}/${cargo}`), 404, 'CARGO_NOT_FOUND');
  });

  it('refuses a body holding both one scan and a backlog with 400 VALIDATION_ERROR, and stores neither', async () => {
    const res = await scan({
      cargo_no: 'BOX-4201',
      location_code: 'A-01',
      records: [{ cargo_no: 'BOX-4202', location_code: 'B-01' }],
    });
    expectError(res, 400, 'VALIDATION_ERROR', 'request');
    expect(res.body.message).toBe('body holds one scan or records, not both');
    for (const cargo of ['BOX-4201', 'BOX-4202'])
      expectError(await service.call('GET', `${LOCATION}/${cargo}`), 404, 'CARGO_NOT_FOUND');
  });

  it('lists every bad record of a backlog in details', async () => {
    const res = await backlog(['x', 'A-01'], ['BOX-4102', 'A-02'], ['BOX-4103', '']);
    expectError(res, 400, 'INVALID_BOX_NO');
    expect(res.body.details.map((d: { field: string; error_code: string }) => [d.field, d.error_code])).toEqual([
      ['records[0].cargo_no', 'INVALID_BOX_NO'],
      ['records[2].location_code', 'INVALID_LOCATION_CODE'],
    ]);
  });

  it('rejects a backlog of more than 500 records', async () => {
    const records = Array.from({ length: 501 }, (_, i) => ({ cargo_no: `BOX-${5000 + i}`, location_code: 'A-01' }));
    expectError(await scan({ records }), 400, 'VALIDATION_ERROR', 'request');
  });

  it('rejects an empty backlog', async () => {
    expectError(await scan({ records: [] }), 400, 'VALIDATION_ERROR');
  });

  it.each([
    ['a one-letter location', { cargo_no: 'BOX-1', location_code: 'A' }, 'INVALID_LOCATION_CODE'],
    ['a location with a space inside', { cargo_no: 'BOX-0001', location_code: 'A 01' }, 'INVALID_LOCATION_CODE'],
    ['a numeric location', { cargo_no: 'BOX-0001', location_code: 101 }, 'INVALID_LOCATION_CODE'],
    ['a missing location', { cargo_no: 'BOX-0001' }, 'INVALID_LOCATION_CODE'],
    [
      'a cargo number with a bad SSCC check digit',
      { cargo_no: '106141411234567890', location_code: 'A-01' },
      'INVALID_BOX_NO',
    ],
    ['off_shelf as a string', { cargo_no: 'BOX-0001', location_code: 'A-01', off_shelf: 'yes' }, 'VALIDATION_ERROR'],
    [
      'a scan time far in the future',
      { cargo_no: 'BOX-0001', location_code: 'A-01', scanned_at: '2999-01-01T00:00:00Z' },
      'VALIDATION_ERROR',
    ],
    [
      'a scan time that is not a date',
      { cargo_no: 'BOX-0001', location_code: 'A-01', scanned_at: 'yesterday' },
      'VALIDATION_ERROR',
    ],
    ['a JSON array', [], 'VALIDATION_ERROR'],
  ])('rejects %s', async (_name, body, code) => {
    expectError(await scan(body), 400, code);
  });

  it.each<[string, { rawBody: string; contentType: string; status: number; code: string; domain?: string }]>([
    [
      '400 MALFORMED_JSON for a body that does not parse',
      {
        rawBody: '{"cargo_no": ',
        contentType: 'application/json',
        status: 400,
        code: 'MALFORMED_JSON',
        domain: 'request',
      },
    ],
    [
      '415 for a body that is not JSON',
      {
        rawBody: 'cargo_no=BOX-1',
        contentType: 'application/x-www-form-urlencoded',
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
      },
    ],
    [
      '413 for a body over 256 KiB',
      {
        rawBody: JSON.stringify({ cargo_no: 'BOX-0001', location_code: 'A-01', device_id: 'x'.repeat(300 * 1024) }),
        contentType: 'application/json',
        status: 413,
        code: 'PAYLOAD_TOO_LARGE',
      },
    ],
  ])('answers %s', async (_rule, { rawBody, contentType, status, code, domain }) => {
    expectError(
      await service.call('POST', LOCATION, { rawBody, headers: { 'content-type': contentType } }),
      status,
      code,
      domain,
    );
  });

  it('answers 400 when the body is missing', async () => {
    expectError(await service.call('POST', LOCATION), 400, 'VALIDATION_ERROR');
  });

  it('answers in Simplified Chinese when the client prefers it', async () => {
    const res = await scan({ cargo_no: 'BOX-0001', location_code: '!' }, { 'accept-language': 'zh-CN,zh;q=0.9' });
    expectError(res, 400, 'INVALID_LOCATION_CODE');
    expect(res.body.message).toMatch(/库位/);
  });
});

describe('GET /v1/cargo/location/{cargo_no}', () => {
  it('answers the newest scan as current and the history newest first', async () => {
    await scan({
      records: [
        { cargo_no: 'BOX-6001', location_code: 'DOCK-1', off_shelf: true, scanned_at: minutesAgo(30) },
        { cargo_no: 'BOX-6001', location_code: 'A-01', scanned_at: minutesAgo(50) },
        { cargo_no: 'BOX-6001', location_code: 'STAGE-2', off_shelf: true, scanned_at: minutesAgo(40) },
      ],
    });
    const res = await service.call('GET', `${LOCATION}/box-6001`);
    expect(res.status).toBe(200);
    expect(res.body.cargo_no).toBe('BOX-6001');
    expect(res.body.current).toEqual(expect.objectContaining({ location_code: 'DOCK-1', off_shelf: true, via: 'BOX' }));
    expect(res.body.history.map((h: { location_code: string }) => h.location_code)).toEqual([
      'DOCK-1',
      'STAGE-2',
      'A-01',
    ]);
    expect(res.body.next_cursor).toBeNull();
  });

  it('orders a late backlog by when the scans happened, not when they arrived', async () => {
    await scan({ cargo_no: 'BOX-6101', location_code: 'B-02' });
    await scan({
      records: [{ cargo_no: 'BOX-6101', location_code: 'A-09', scanned_at: minutesAgo(60) }],
    });
    const res = await service.call('GET', `${LOCATION}/BOX-6101`);
    expect(res.body.current.location_code).toBe('B-02');
  });

  it('keeps the order of a backlog from a handheld whose clock runs a few minutes ahead', async () => {
    const sent = [
      { cargo_no: 'BOX-6211', location_code: 'DOCK-4', scanned_at: minutesAgo(-4) },
      { cargo_no: 'BOX-6211', location_code: 'STAGE-4', scanned_at: minutesAgo(-2) },
      { cargo_no: 'BOX-6211', location_code: 'A-04', scanned_at: minutesAgo(3) },
    ];
    expect((await scan({ records: sent })).status).toBe(201);
    const res = await service.call('GET', `${LOCATION}/BOX-6211`);
    expect(res.body.current.location_code).toBe('DOCK-4');
    expect(res.body.history.map((h: { location_code: string }) => h.location_code)).toEqual([
      'DOCK-4',
      'STAGE-4',
      'A-04',
    ]);
    expect(res.body.history.map((h: { scanned_at: string }) => h.scanned_at)).toEqual(sent.map((s) => s.scanned_at));
  });

  it('does not let a handheld whose clock runs ahead keep a later scan from becoming the current location', async () => {
    await scan({ cargo_no: 'BOX-6212', location_code: 'DOCK-5', scanned_at: minutesAgo(-4) });
    await scan({ cargo_no: 'BOX-6212', location_code: 'STAGE-5' });
    const res = await service.call('GET', `${LOCATION}/BOX-6212`);
    expect(res.body.current.location_code).toBe('STAGE-5');
  });

  it('pages through the history with a cursor, without gaps or repeats', async () => {
    const records = Array.from({ length: 25 }, (_, i) => ({
      cargo_no: 'BOX-6201',
      location_code: `L-${i}`,
      scanned_at: new Date(Date.now() - (100 - i) * 1000).toISOString(),
    }));
    await scan({ records });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? '?limit=10' : `?limit=10&cursor=${cursor}`;
      const res = await service.call('GET', `${LOCATION}/BOX-6201${query}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.history.map((h: { location_code: string }) => h.location_code));
      cursor = res.body.next_cursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(records.map((r) => r.location_code).reverse());
  });

  it('answers 404 CARGO_NOT_FOUND for cargo never scanned', async () => {
    expectError(await service.call('GET', `${LOCATION}/BOX-9999`), 404, 'CARGO_NOT_FOUND', 'location');
  });

  it('answers 400 for a cursor it did not issue and for a bad limit', async () => {
    await scan({ cargo_no: 'BOX-6301', location_code: 'A-01' });
    expectError(await service.call('GET', `${LOCATION}/BOX-6301?cursor=bm90LWEtY3Vyc29y`), 400, 'VALIDATION_ERROR');
    expectError(await service.call('GET', `${LOCATION}/BOX-6301?limit=0`), 400, 'VALIDATION_ERROR');
    expectError(await service.call('GET', `${LOCATION}/BOX-6301?limit=1000`), 400, 'VALIDATION_ERROR');
  });

  it('answers 400 INVALID_BOX_NO for a cargo number outside the pattern', async () => {
    expectError(await service.call('GET', `${LOCATION}/${encodeURIComponent('BOX 1')}`), 400, 'INVALID_BOX_NO');
  });
});

describe('the gateway', () => {
  it('answers 404 ROUTE_NOT_FOUND for an unknown route or method', async () => {
    expectError(await service.call('GET', '/v1/nothing-here'), 404, 'ROUTE_NOT_FOUND', 'request');
    expectError(await service.call('DELETE', LOCATION), 404, 'ROUTE_NOT_FOUND');
  });

  it('answers 401 UNAUTHORIZED without a token or with a bad one', async () => {
    expectError(
      await service.call('POST', LOCATION, { body: { cargo_no: 'BOX-0001', location_code: 'A-01' }, token: null }),
      401,
      'UNAUTHORIZED',
      'auth',
    );
    expectError(await service.call('GET', `${LOCATION}/BOX-0001`, { token: 'not-a-jwt' }), 401, 'UNAUTHORIZED');
  });

  it('answers 403 FORBIDDEN for a signed-in user in no operator group', async () => {
    const token = await service.token('visitor', ['guest']);
    expectError(await service.call('GET', `${LOCATION}/BOX-0001`, { token }), 403, 'FORBIDDEN', 'auth');
  });

  it('uses one Data API call per location request', async () => {
    service.stack.dataApi.resetCounters();
    await backlog(['BOX-7001', 'A-01'], ['BOX-7002', 'A-02']);
    await service.call('GET', `${LOCATION}/BOX-7001`);
    expect(service.stack.dataApi.counters()).toEqual(
      expect.objectContaining({ ExecuteStatement: 2, BeginTransaction: 0 }),
    );
  });
});
