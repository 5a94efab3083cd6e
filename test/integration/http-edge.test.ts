import { request } from 'node:http';
import { connect } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/assertions.ts';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * The HTTP edge as a handheld meets it through the emulated gateway: no answer may be kept by a
 * cache between it and the API (CloudFront caches error answers for 10 s unless told otherwise),
 * large answers are compressed as the stage compresses them, and requests Node would refuse on
 * its own get the unified error body.
 */
let service: TestService;
beforeAll(async () => {
  service = await startTestService({ env: { DB_RETRY_BUDGET_MS: '300' } });
});
afterAll(async () => service?.close());
afterEach(() => service.stack.dataApi.clearFaults());

interface RawAnswer {
  readonly status: number;
  /** Lower-cased header names, as sent. */
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** Sends `text` on a socket of its own and reads the answer until the server closes it. */
const rawExchange = (text: string): Promise<RawAnswer> =>
  new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(service.stack.url).port), '127.0.0.1', () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.setTimeout(5_000, () => socket.destroy(new Error('no answer within 5 s')));
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = all
        .subarray(0, end === -1 ? all.length : end)
        .toString('latin1')
        .split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).trim().toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({
        status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]),
        headers,
        body: end === -1 ? Buffer.alloc(0) : all.subarray(end + 4),
      });
    });
  });

/** A GET as curl sends it, the body as the bytes on the wire (never decompressed). */
const get = (path: string, headers: Record<string, string>): Promise<RawAnswer> =>
  new Promise((resolve, reject) => {
    const req = request(new URL(path, service.stack.url), { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)])),
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });

const unified = (answer: RawAnswer, status: number, errorCode: string) =>
  expectError(
    { status: answer.status, headers: new Headers(), body: JSON.parse(answer.body.toString('utf8')) },
    status,
    errorCode,
  );

describe('no answer of the API may be cached (Cache-Control: no-store)', () => {
  it('marks a 200 answer no-store', async () => {
    const res = await service.call('GET', '/v1/zongpai?limit=1');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('marks a write and its replay by Idempotency-Key no-store', async () => {
    const register = () =>
      service.call('POST', '/v1/zongpai', {
        body: { zongpai_no: 'PLT-NS0001' },
        headers: { 'idempotency-key': 'ns-1' },
      });
    const first = await register();
    const replay = await register();
    expect([first.status, replay.status]).toEqual([201, 201]);
    expect([first.headers.get('cache-control'), replay.headers.get('cache-control')]).toEqual(['no-store', 'no-store']);
  });

  it("marks a handler's 4xx answers no-store: 404 BOX_NOT_FOUND and 400 INVALID_BOX_NO", async () => {
    const missing = await service.call('GET', '/v1/box/info?box_no=BOX-NONE-9');
    expectError(missing, 404, 'BOX_NOT_FOUND');
    expect(missing.headers.get('cache-control')).toBe('no-store');
    const invalid = await service.call('GET', '/v1/box/info?box_no=ab');
    expectError(invalid, 400, 'INVALID_BOX_NO');
    expect(invalid.headers.get('cache-control')).toBe('no-store');
  });

  it('marks 503 DATABASE_UNAVAILABLE no-store, so that the retry after Retry-After reaches the API', async () => {
    service.stack.dataApi.injectFault('unavailable', 50);
    const res = await service.call('GET', '/v1/box/info?box_no=BOX-1001');
    expectError(res, 503, 'DATABASE_UNAVAILABLE');
    expect(res.headers.get('retry-after')).not.toBeNull();
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it("marks the gateway's own answers no-store: 401 UNAUTHORIZED and 404 ROUTE_NOT_FOUND", async () => {
    const unauthorised = await service.call('GET', '/v1/zongpai', { token: null });
    expectError(unauthorised, 401, 'UNAUTHORIZED');
    expect(unauthorised.headers.get('cache-control')).toBe('no-store');
    const noRoute = await service.call('GET', '/v1/no-such-route');
    expectError(noRoute, 404, 'ROUTE_NOT_FOUND');
    expect(noRoute.headers.get('cache-control')).toBe('no-store');
  });

  it("marks the gateway's answer to a request it cannot parse no-store", async () => {
    const res = await rawExchange('get /v1/openapi.json HTTP/1.1\r\nHost: localhost\r\n\r\n');
    unified(res, 400, 'VALIDATION_ERROR');
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('answers of 1 KiB or more are compressed when the client accepts it, as the stage does', () => {
  let token: string;
  beforeAll(async () => {
    token = `Bearer ${service.tokens.operator}`;
    // A page of 25 zongpais is well over 1 KiB of JSON.
    for (let i = 1; i <= 25; i += 1) {
      const res = await service.call('POST', '/v1/zongpai', {
        body: { zongpai_no: `PLT-GZ${String(i).padStart(4, '0')}` },
      });
      expect(res.status).toBe(201);
    }
  });

  it('gzips a list over 1 KiB for a client that accepts gzip (curl --compressed)', async () => {
    const plain = await get('/v1/zongpai?limit=25', { authorization: token });
    expect(plain.body.length).toBeGreaterThan(1024);
    const res = await get('/v1/zongpai?limit=25', { authorization: token, 'accept-encoding': 'deflate, gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(plain.body.length);
    expect(JSON.parse(gunzipSync(res.body).toString('utf8'))).toEqual(JSON.parse(plain.body.toString('utf8')));
  });

  it('sends the same list uncompressed to a client that does not ask for gzip', async () => {
    const res = await get('/v1/zongpai?limit=25', { authorization: token });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString('utf8')).zongpais).toHaveLength(25);
    const refused = await get('/v1/zongpai?limit=25', {
      authorization: token,
      'accept-encoding': 'gzip;q=0, identity',
    });
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it('sends an answer under 1 KiB uncompressed even to a client that accepts gzip', async () => {
    const res = await get('/v1/zongpai?limit=1', { authorization: token, 'accept-encoding': 'gzip' });
    expect(res.body.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString('utf8')).zongpais).toHaveLength(1);
  });
});

describe('requests Node would refuse on its own get the unified error body', () => {
  it('answers a request without a Host header with 400 in the unified body', async () => {
    const res = await rawExchange('GET /v1/openapi.json HTTP/1.1\r\nConnection: close\r\n\r\n');
    unified(res, 400, 'VALIDATION_ERROR');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers CONNECT as API Gateway answers a method no resource has: 404 ROUTE_NOT_FOUND', async () => {
    const res = await rawExchange('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    unified(res, 404, 'ROUTE_NOT_FOUND');
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
