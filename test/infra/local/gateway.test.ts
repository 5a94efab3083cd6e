import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { APIGatewayProxyEventSchema } from '@aws-lambda-powertools/parser/schemas/api-gateway';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signLocalToken, verifyLocalToken } from '../../../infra/local/auth.ts';
import { createGateway } from '../../../infra/local/gateway.ts';
import type { RouteDefinition } from '../../../infra/routes.ts';

const key = new Uint8Array(32).fill(7);
const routes: RouteDefinition[] = [
  { id: 'Item', method: 'GET', path: '/v1/box/{box_no}', entry: 'x', access: 'operator' },
  { id: 'Info', method: 'GET', path: '/v1/box/info', entry: 'x', access: 'operator' },
  { id: 'Save', method: 'POST', path: '/v1/box', entry: 'x', access: 'operator' },
  { id: 'Doc', method: 'GET', path: '/v1/openapi.json', entry: 'x', access: 'public' },
];

let server: Server;
let url: string;
const seen: { route: string; event: APIGatewayProxyEvent }[] = [];

beforeAll(async () => {
  server = createServer(createGateway({
    routes,
    verifyToken: (h) => verifyLocalToken(key, h),
    maxBodyBytes: 1024,
    loadHandler: async (route) => async (event) => {
      seen.push({ route: route.id, event });
      if (event.queryStringParameters?.crash === '1') throw new Error('boom');
      return { statusCode: 200, headers: { 'x-one': 'a' }, multiValueHeaders: { 'set-cookie': ['a=1', 'b=2'] }, body: Buffer.from('{"ok":true}').toString('base64'), isBase64Encoded: true };
    },
  }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const auth = async (groups = ['operator', 'supervisor']) => ({ authorization: `Bearer ${await signLocalToken(key, { user: 'alice', groups })}` });

describe('emulated API Gateway v1', () => {
  it('builds proxy events that satisfy the Powertools API Gateway schema', async () => {
    seen.length = 0;
    const headers = await auth();
    await fetch(`${url}/v1/box/BOX%2D1001?a=1&a=2&b=x`, { headers: { ...headers, 'X-Trace': 't' } });
    await fetch(`${url}/v1/box`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"box_no":"BOX-1"}' });
    await fetch(`${url}/v1/openapi.json`);
    expect(seen).toHaveLength(3);
    for (const { event } of seen) expect(APIGatewayProxyEventSchema.safeParse(event).error).toBeUndefined();
  });

  it('delivers path, query, headers and Cognito claims as API Gateway does', async () => {
    seen.length = 0;
    await fetch(`${url}/v1/box/BOX%2D1001?a=1&a=2&b=x`, { headers: { ...(await auth()), 'X-Trace': 't' } });
    const event = seen[0]?.event as APIGatewayProxyEvent;
    expect(event.resource).toBe('/v1/box/{box_no}');
    expect(event.requestContext.resourcePath).toBe('/v1/box/{box_no}');
    expect(event.pathParameters).toEqual({ box_no: 'BOX-1001' });
    expect(event.queryStringParameters).toEqual({ a: '2', b: 'x' });
    expect(event.multiValueQueryStringParameters).toEqual({ a: ['1', '2'], b: ['x'] });
    expect(event.headers['X-Trace']).toBe('t');
    expect(event.requestContext.authorizer?.claims).toEqual(expect.objectContaining({ 'cognito:username': 'alice', 'cognito:groups': 'operator,supervisor', token_use: 'id' }));
    expect(event.requestContext.authorizer?.claims.exp).toMatch(/UTC \d{4}$/);
    expect(event.body).toBeNull();
  });

  it('prefers a static resource over a path parameter', async () => {
    seen.length = 0;
    await fetch(`${url}/v1/box/info?box_no=BOX-1`, { headers: await auth() });
    expect(seen.map((s) => s.route)).toEqual(['Info']);
  });

  it('maps the proxy result back: status, headers, multi-value headers, base64 body', async () => {
    const res = await fetch(`${url}/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-one')).toBe('a');
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await res.json()).toEqual({ ok: true });
  });

  it('refuses a missing, foreign or expired token before the function runs', async () => {
    seen.length = 0;
    const foreign = await signLocalToken(new Uint8Array(32).fill(9), { user: 'mallory', groups: ['supervisor'] });
    const expired = await signLocalToken(key, { user: 'alice', groups: ['operator'], expiresInSeconds: 60, now: new Date(Date.now() - 3_600_000) });
    for (const authorization of [undefined, `Bearer ${foreign}`, `Bearer ${expired}`, 'Bearer nonsense']) {
      const res = await fetch(`${url}/v1/box/BOX-1`, { headers: authorization === undefined ? {} : { authorization } });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual(expect.objectContaining({ error_code: 'UNAUTHORIZED', domain: 'auth' }));
    }
    expect(seen).toHaveLength(0);
  });

  it('answers unknown routes and methods with 404 ROUTE_NOT_FOUND in the unified body', async () => {
    for (const [method, path] of [['GET', '/v2/box'], ['PUT', '/v1/box'], ['GET', '/']]) {
      const res = await fetch(`${url}${path}`, { method });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual(expect.objectContaining({ error_code: 'ROUTE_NOT_FOUND', domain: 'request', request_id: expect.any(String) }));
    }
  });

  it('answers a body over the gateway limit with 413 before the function runs', async () => {
    const res = await fetch(`${url}/v1/box`, { method: 'POST', headers: { ...(await auth()), 'content-type': 'application/json' }, body: 'x'.repeat(2048) });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error_code: string }).error_code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers a crashed function with a 5xx in the unified body, without its message', async () => {
    const res = await fetch(`${url}/v1/box/BOX-1?crash=1`, { headers: await auth() });
    expect(res.status).toBe(502);
    const body = await res.json();
    expect(body).toEqual(expect.objectContaining({ error_code: 'INTERNAL_ERROR', domain: 'system' }));
    expect(JSON.stringify(body)).not.toContain('boom');
  });

  it('answers a path with broken percent-encoding with 400', async () => {
    const res = await fetch(`${url}/v1/box/%E0%A4%A`, { headers: await auth() });
    expect(res.status).toBe(400);
  });
});

describe('throttling', () => {
  it('answers 429 THROTTLED once the burst is used up', async () => {
    const throttled = createServer(createGateway({ routes, verifyToken: async () => undefined, throttle: { rate: 1, burst: 2 }, loadHandler: async () => async () => ({ statusCode: 200, body: '{}' }) }));
    await new Promise<void>((resolve) => throttled.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(throttled.address() as AddressInfo).port}`;
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await fetch(`${base}/v1/openapi.json`)).status);
    await new Promise<void>((resolve) => throttled.close(() => resolve()));
    expect(statuses).toEqual([200, 200, 429, 429]);
  });
});
