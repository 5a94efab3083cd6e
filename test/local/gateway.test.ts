import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { APIGatewayProxyEventSchema } from '@aws-lambda-powertools/parser/schemas/api-gateway';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayErrorBody } from '../../infra/constructs/gateway-responses.ts';
import { GATEWAY_ERRORS } from '../../infra/gateway-errors.ts';
import { LOCAL_CLIENT_ID, LOCAL_USER_POOL_ID, signLocalToken, verifyLocalToken } from '../../local/auth.ts';
import { createGatewayServer } from '../../local/gateway.ts';
import type { RouteDefinition } from '../../infra/routes.ts';

const key = new Uint8Array(32).fill(7);
const routes: RouteDefinition[] = [
  { id: 'Item', method: 'GET', path: '/v1/box/{box_no}', entry: 'x', access: 'operator' },
  { id: 'Info', method: 'GET', path: '/v1/box/info', entry: 'x', access: 'operator' },
  { id: 'Save', method: 'POST', path: '/v1/box', entry: 'x', access: 'operator' },
  { id: 'Simple', method: 'POST', path: '/v1/box/simple', entry: 'x', access: 'operator' },
  { id: 'Edit', method: 'PATCH', path: '/v1/box/{box_no}', entry: 'x', access: 'supervisor' },
  { id: 'Undo', method: 'DELETE', path: '/v1/box/{box_no}', entry: 'x', access: 'supervisor' },
  { id: 'Doc', method: 'GET', path: '/v1/openapi.json', entry: 'x', access: 'public' },
];

/** Listens on an ephemeral port of 127.0.0.1; answers the server's base URL. */
const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
const stop = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/**
 * A gateway that lets every caller in and answers 200 `{}` on every route, throttled at `throttle`
 * (the stack's stage limits when undefined), listening while `use` runs with its base URL.
 */
const withOpenGateway = async <T>(
  throttle: { rate: number; burst: number } | undefined,
  use: (base: string) => Promise<T>,
): Promise<T> => {
  const gateway = createGatewayServer({
    routes,
    verifyToken: async () => undefined,
    ...(throttle === undefined ? {} : { throttle }),
    loadHandler: async () => async () => ({ statusCode: 200, body: '{}' }),
  });
  const base = await listen(gateway);
  try {
    return await use(base);
  } finally {
    await stop(gateway);
  }
};

let server: Server;
let url: string;
const seen: { route: string; event: APIGatewayProxyEvent }[] = [];

beforeAll(async () => {
  server = createGatewayServer({
    routes,
    verifyToken: (h) => verifyLocalToken(key, h),
    maxBodyBytes: 1024,
    loadHandler: async (route) => async (event) => {
      seen.push({ route: route.id, event });
      if (event.queryStringParameters?.crash === '1') throw new Error('boom');
      return {
        statusCode: 200,
        headers: { 'x-one': 'a' },
        multiValueHeaders: { 'set-cookie': ['a=1', 'b=2'] },
        body: '{"ok":true}',
      };
    },
  });
  url = await listen(server);
});
afterAll(() => stop(server));

const auth = async (groups = ['operator', 'supervisor']) => ({
  authorization: `Bearer ${await signLocalToken(key, { user: 'alice', groups })}`,
});

describe('emulated API Gateway v1', () => {
  it('builds proxy events that satisfy the Powertools API Gateway schema', async () => {
    seen.length = 0;
    const headers = await auth();
    await fetch(`${url}/v1/box/BOX%2D1001?a=1&a=2&b=x`, { headers: { ...headers, 'X-Trace': 't' } });
    await fetch(`${url}/v1/box`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{"box_no":"BOX-1"}',
    });
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
    expect(event.requestContext.authorizer?.claims).toEqual(
      expect.objectContaining({
        'cognito:username': 'alice',
        'cognito:groups': 'operator,supervisor',
        token_use: 'id',
      }),
    );
    expect(event.requestContext.authorizer?.claims.exp).toMatch(/UTC \d{4}$/);
    expect(event.body).toBeNull();
  });

  it('prefers a static resource over a path parameter', async () => {
    seen.length = 0;
    await fetch(`${url}/v1/box/info?box_no=BOX-1`, { headers: await auth() });
    expect(seen.map((s) => s.route)).toEqual(['Info']);
  });

  it('maps the proxy result back: status, headers, multi-value headers, body', async () => {
    const res = await fetch(`${url}/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-one')).toBe('a');
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await res.json()).toEqual({ ok: true });
  });

  it('refuses a missing, foreign, expired or never-expiring token before the function runs', async () => {
    seen.length = 0;
    const foreign = await signLocalToken(new Uint8Array(32).fill(9), { user: 'mallory', groups: ['supervisor'] });
    const expired = await signLocalToken(key, {
      user: 'alice',
      groups: ['operator'],
      expiresInSeconds: 60,
      now: new Date(Date.now() - 3_600_000),
    });
    // Signed with the local key and an ID token in every other claim, but with no expiry: Cognito issues none such.
    const endless = await new SignJWT({
      aud: LOCAL_CLIENT_ID,
      'cognito:username': 'alice',
      token_use: 'id',
      'cognito:groups': ['operator'],
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('3b6d4b7e-0000-4000-8000-000000000001')
      .setIssuer(`https://cognito-idp.us-east-1.amazonaws.com/${LOCAL_USER_POOL_ID}`)
      .setIssuedAt()
      .sign(key);
    for (const authorization of [
      undefined,
      `Bearer ${foreign}`,
      `Bearer ${expired}`,
      `Bearer ${endless}`,
      'Bearer nonsense',
    ]) {
      const res = await fetch(`${url}/v1/box/BOX-1`, { headers: authorization === undefined ? {} : { authorization } });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual(expect.objectContaining({ error_code: 'UNAUTHORIZED', domain: 'auth' }));
    }
    expect(seen).toHaveLength(0);
  });

  it('answers unknown routes and methods with 404 ROUTE_NOT_FOUND in the unified body', async () => {
    for (const [method, path] of [
      ['GET', '/v2/box'],
      ['PUT', '/v1/box'],
      ['GET', '/'],
    ]) {
      const res = await fetch(`${url}${path}`, { method });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual(
        expect.objectContaining({ error_code: 'ROUTE_NOT_FOUND', domain: 'request', request_id: expect.any(String) }),
      );
    }
  });

  it('answers a body over the gateway limit with 413 before the function runs', async () => {
    const res = await fetch(`${url}/v1/box`, {
      method: 'POST',
      headers: { ...(await auth()), 'content-type': 'application/json' },
      body: 'x'.repeat(2048),
    });
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

  // Lambda stops a function at its timeout and API Gateway answers the failed integration with a
  // 5xx; a late answer is never delivered.
  it('answers a function that outlives its timeout with a 5xx in the unified body, not its late answer', async () => {
    const gateway = createGatewayServer({
      routes,
      verifyToken: async () => undefined,
      timeoutMs: 200,
      loadHandler: async () => async () => {
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        return { statusCode: 200, body: '{"late":true}' };
      },
    });
    const base = await listen(gateway);
    try {
      const res = await fetch(`${base}/v1/openapi.json`);
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual(expect.objectContaining({ error_code: 'INTERNAL_ERROR', domain: 'system' }));
    } finally {
      await stop(gateway);
    }
  });

  it('marks every answer of its own Cache-Control: no-store, as the stack renders its gateway responses', async () => {
    const answers = [
      await fetch(`${url}/v2/box`),
      await fetch(`${url}/v1/box/BOX-1`),
      await fetch(`${url}/v1/box`, { method: 'POST', headers: await auth(), body: 'x'.repeat(2048) }),
      await fetch(`${url}/v1/box/BOX-1?crash=1`, { headers: await auth() }),
      await fetch(`${url}/v1/box/%E0%A4%A`, { headers: await auth() }),
      await withOpenGateway({ rate: 1, burst: 1 }, async (base) => {
        await fetch(`${base}/v1/openapi.json`);
        return fetch(`${base}/v1/openapi.json`);
      }),
    ];
    expect(answers.map((a) => [a.status, a.headers.get('cache-control')])).toEqual(
      [404, 401, 413, 502, 400, 429].map((status) => [status, 'no-store']),
    );
  });

  it('answers a path with broken percent-encoding with 400', async () => {
    const res = await fetch(`${url}/v1/box/%E0%A4%A`, { headers: await auth() });
    expect(res.status).toBe(400);
  });
});

describe('throttling', () => {
  it('answers 429 THROTTLED once the burst is used up', async () => {
    const statuses = await withOpenGateway({ rate: 1, burst: 2 }, async (base) => {
      const answered = [];
      for (let i = 0; i < 4; i += 1) answered.push((await fetch(`${base}/v1/openapi.json`)).status);
      return answered;
    });
    expect(statuses).toEqual([200, 200, 429, 429]);
  });

  // "Per-API, per-stage throttling limits are applied at the API method level for a stage"
  // (https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-request-throttling.html).
  it('gives each method its own bucket: one route used up does not throttle another', async () => {
    const statuses = await withOpenGateway({ rate: 1, burst: 2 }, async (base) => {
      const answered = [];
      for (let i = 0; i < 3; i += 1) answered.push((await fetch(`${base}/v1/openapi.json`)).status);
      // One resource, three paths: one method, one bucket.
      answered.push((await fetch(`${base}/v1/box/BOX-0001`)).status);
      answered.push((await fetch(`${base}/v1/box/BOX-0002`)).status);
      answered.push((await fetch(`${base}/v1/box/BOX-0003`)).status);
      answered.push((await fetch(`${base}/v1/box/BOX-0003`, { method: 'DELETE' })).status);
      return answered;
    });
    // This gateway knows no token: a request past the throttle is refused by the authorizer (401).
    expect(statuses).toEqual([200, 200, 429, 401, 401, 429, 401]);
  });
});

/** Sends raw HTTP (repeated headers, lower-case methods) and returns the status line and body. */
const rawRequest = (text: string): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1', () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const response = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = response.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), body });
    });
  });

/** The body the stack's gateway response of a type renders, without the request id. */
const stackBody = (type: string) => {
  const row = GATEWAY_ERRORS.find((e) => e.type === type)!;
  const { request_id: _, ...fields } = JSON.parse(gatewayErrorBody(row.code, row.params)) as Record<string, string>;
  return fields;
};

/** A gateway whose every route runs `handler` for a signed-in caller, listening while `use` runs. */
const withHandler = async <T>(
  handler: (event: APIGatewayProxyEvent) => Promise<unknown>,
  use: (base: string) => Promise<T>,
): Promise<T> => {
  const gateway = createGatewayServer({
    routes,
    verifyToken: async () => ({ 'cognito:username': 'alice', 'cognito:groups': 'operator,supervisor' }),
    loadHandler: async () => handler as never,
  });
  const base = await listen(gateway);
  try {
    return await use(base);
  } finally {
    await stop(gateway);
  }
};

describe('proxy results and bodies as a REST API without binary media types maps them', () => {
  it('hands the function every body as UTF-8 text, whatever its Content-Type, never base64', async () => {
    const events: APIGatewayProxyEvent[] = [];
    await withHandler(
      async (event) => {
        events.push(event);
        return { statusCode: 200, body: '{}' };
      },
      async (base) => {
        await fetch(`${base}/v1/box`, {
          method: 'POST',
          headers: { 'content-type': 'application/octet-stream' },
          body: new Uint8Array([0x7b, 0x7d, 0xff]),
        });
        await fetch(`${base}/v1/box`, { method: 'POST', body: new Uint8Array([0x7b, 0x7d]) });
      },
    );
    expect(events.map((e) => [e.body, e.isBase64Encoded])).toEqual([
      ['{}\ufffd', false],
      ['{}', false],
    ]);
  });

  it('sends a body marked isBase64Encoded as the text the function returned', async () => {
    const base64 = Buffer.from('{"ok":true}').toString('base64');
    const text = await withHandler(
      async () => ({ statusCode: 200, body: base64, isBase64Encoded: true }),
      async (base) => (await fetch(`${base}/v1/openapi.json`)).text(),
    );
    expect(text).toBe(base64);
  });

  it('merges headers and multiValueHeaders into one list per name, a value given in both sent once', async () => {
    const res = await withHandler(
      async () => ({
        statusCode: 200,
        headers: { 'set-cookie': 'h=1', 'x-a': '1' },
        multiValueHeaders: { 'set-cookie': ['m=1', 'm=2'], 'X-A': ['1'] },
        body: '{}',
      }),
      async (base) => fetch(`${base}/v1/openapi.json`),
    );
    expect(res.headers.getSetCookie()).toEqual(['m=1', 'm=2', 'h=1']);
    expect(res.headers.get('x-a')).toBe('1');
  });

  it.each([
    ['a body that is not a string', { statusCode: 200, body: { a: 1 } }],
    ['a status that is not an HTTP one', { statusCode: 42, body: '{}' }],
    ['a fractional status', { statusCode: 200.5, body: '{}' }],
    ['a header value that is an object', { statusCode: 200, headers: { a: {} }, body: '{}' }],
    ['multi-value headers that are not lists', { statusCode: 200, multiValueHeaders: { a: 'b' }, body: '{}' }],
    ['nothing', null],
  ])('answers a malformed proxy result (%s) with 502 in the unified body', async (_what, result) => {
    const res = await withHandler(
      async () => result,
      async (base) => fetch(`${base}/v1/openapi.json`),
    );
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ ...stackBody('DEFAULT_5XX'), request_id: expect.any(String) });
  });
});

describe("Lambda's synchronous payload limit on an answer, as API Gateway meets it", () => {
  // Lambda refuses to return an answer over its synchronous payload limit (6 MB, as the proxy
  // result's JSON), and API Gateway answers the failed integration with 502.
  it('answers a function whose answer is over 6 MB with 502 in the unified body, not its answer', async () => {
    const res = await withHandler(
      async () => ({ statusCode: 200, body: JSON.stringify({ items: 'x'.repeat(6_300_000) }) }),
      async (base) => fetch(`${base}/v1/openapi.json`),
    );
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ ...stackBody('DEFAULT_5XX'), request_id: expect.any(String) });
  });

  it('delivers an answer just under 6 MB', async () => {
    const body = JSON.stringify({ items: 'x'.repeat(6_200_000) });
    const [status, text] = await withHandler(
      async () => ({ statusCode: 200, body }),
      async (base) => {
        const res = await fetch(`${base}/v1/openapi.json`);
        return [res.status, await res.text()];
      },
    );
    expect(status).toBe(200);
    expect(text).toBe(body);
  });
});

describe('API Gateway edges', () => {
  it.each(['//x/v1/box/info', '/v1\\box/info', '/v1/box/x/../info', '/v1/box/%2e%2e/info', '/v1/box/./info'])(
    'names no resource with %s, which a URL parser would normalise to a route: 404, no function runs',
    async (path) => {
      seen.length = 0;
      const token = (await auth()).authorization;
      const res = await rawRequest(
        `GET ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${token}\r\nConnection: close\r\n\r\n`,
      );
      expect(res.status).toBe(404);
      expect(JSON.parse(res.body)).toEqual({
        ...stackBody('MISSING_AUTHENTICATION_TOKEN'),
        request_id: expect.any(String),
      });
      expect(seen).toHaveLength(0);
    },
  );

  it.each([
    ['PATCH', '/v1/box/info'],
    ['DELETE', '/v1/box/info'],
    ['PATCH', '/v1/box/simple'],
    ['DELETE', '/v1/box/simple'],
  ])(
    'refuses %s %s as API Gateway refuses a method its resource lacks: 404 ROUTE_NOT_FOUND, no function runs',
    async (method, path) => {
      seen.length = 0;
      const res = await fetch(`${url}${path}`, {
        method,
        headers: await auth(),
        body: method === 'PATCH' ? '{"version":1}' : undefined,
      });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        ...stackBody('MISSING_AUTHENTICATION_TOKEN'),
        request_id: expect.any(String),
      });
      expect(seen).toHaveLength(0);
    },
  );

  it('still reaches the {box_no} resource for PATCH and DELETE of any other box', async () => {
    seen.length = 0;
    const headers = await auth();
    await fetch(`${url}/v1/box/BOX-1`, { method: 'PATCH', headers, body: '{"version":1}' });
    await fetch(`${url}/v1/box/BOX-1`, { method: 'DELETE', headers });
    expect(seen.map((s) => s.route)).toEqual(['Edit', 'Undo']);
  });

  it("answers headers over API Gateway's 10240-byte limit with 431 in the unified error body", async () => {
    const res = await fetch(`${url}/v1/openapi.json`, { headers: { 'x-big': 'a'.repeat(12_000) } });
    expect(res.status).toBe(431);
    expect(await res.json()).toEqual({ ...stackBody('DEFAULT_4XX'), request_id: expect.any(String) });
  });

  it('answers a lower-case method with 400 in the unified error body', async () => {
    const res = await rawRequest('get /v1/openapi.json HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ ...stackBody('DEFAULT_4XX'), request_id: expect.any(String) });
  });

  it('checks the last Authorization header, the one API Gateway hands the function in headers', async () => {
    const valid = `Bearer ${await signLocalToken(key, { user: 'alice', groups: ['operator'] })}`;
    const request = (first: string, last: string) =>
      rawRequest(
        `GET /v1/box/BOX-1 HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${first}\r\nAuthorization: ${last}\r\nConnection: close\r\n\r\n`,
      );
    expect((await request('Bearer nonsense', valid)).status).toBe(200);
    expect((await request(valid, 'Bearer nonsense')).status).toBe(401);
  });

  it('answers /v1/box/ with the /v1/box resource, as API Gateway does, and hands the function the path as sent', async () => {
    seen.length = 0;
    const res = await fetch(`${url}/v1/box/`, {
      method: 'POST',
      headers: { ...(await auth()), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    expect(seen.map((s) => [s.route, s.event.path, s.event.resource])).toEqual([['Save', '/v1/box/', '/v1/box']]);
  });
});

describe('gateway parity with the stack', () => {
  it.each([
    [
      'MISSING_AUTHENTICATION_TOKEN',
      404,
      () => fetch(`${url}/v2/nothing`, { headers: { 'accept-language': 'zh-CN' } }),
    ],
    ['UNAUTHORIZED', 401, () => fetch(`${url}/v1/box/BOX-1`, { headers: { 'accept-language': 'zh-CN' } })],
    [
      'REQUEST_TOO_LARGE',
      413,
      async () =>
        fetch(`${url}/v1/box`, {
          method: 'POST',
          headers: { ...(await auth()), 'accept-language': 'zh' },
          body: 'x'.repeat(2048),
        }),
    ],
  ])(
    "answers its own %s in English, with the stack's status and text, whatever Accept-Language asks",
    async (type, status, call) => {
      const res = await call();
      expect(res.status).toBe(status);
      expect(await res.json()).toEqual({ ...stackBody(type), request_id: expect.any(String) });
    },
  );

  it("answers 429 in English with the stack's Retry-After", async () => {
    const { res, body } = await withOpenGateway({ rate: 1, burst: 1 }, async (base) => {
      await fetch(`${base}/v1/openapi.json`);
      const second = await fetch(`${base}/v1/openapi.json`, { headers: { 'accept-language': 'zh-CN' } });
      return { res: second, body: await second.json() };
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe(
      GATEWAY_ERRORS.find((e) => e.type === 'THROTTLED')?.headers?.['Retry-After'],
    );
    expect(body).toEqual({ ...stackBody('THROTTLED'), request_id: expect.any(String) });
  });

  it("throttles at the stack's default stage limits (50 requests per second, burst 100) when given none", async () => {
    const { statuses, seconds } = await withOpenGateway(undefined, async (base) => {
      const started = Date.now();
      const answered = await Promise.all(
        Array.from({ length: 140 }, () => fetch(`${base}/v1/openapi.json`).then((r) => r.status)),
      );
      return { statuses: answered, seconds: (Date.now() - started) / 1000 };
    });
    const passed = statuses.filter((s) => s === 200).length;
    expect(passed).toBeGreaterThanOrEqual(100);
    expect(passed).toBeLessThanOrEqual(100 + Math.ceil(50 * seconds));
    expect(statuses.filter((s) => s === 429)).toHaveLength(140 - passed);
  });

  it('refuses an access token of the pool, as the Cognito authorizer does without OAuth scopes', async () => {
    const access = await signLocalToken(key, { user: 'alice', groups: ['supervisor'], tokenUse: 'access' });
    const res = await fetch(`${url}/v1/box/BOX-1`, { headers: { authorization: `Bearer ${access}` } });
    expect(res.status).toBe(401);
  });

  it('hands the function the claims Cognito puts in an ID token: sub a UUID, aud, iss, auth_time, token_use, cognito:username', async () => {
    seen.length = 0;
    await fetch(`${url}/v1/box/BOX-1`, { headers: await auth(['operator']) });
    await fetch(`${url}/v1/box/BOX-2`, { headers: await auth(['operator']) });
    const [first, second] = seen.map((s) => s.event.requestContext.authorizer?.claims as Record<string, string>);
    expect(first).toEqual(
      expect.objectContaining({
        sub: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        aud: LOCAL_CLIENT_ID,
        iss: `https://cognito-idp.us-east-1.amazonaws.com/${LOCAL_USER_POOL_ID}`,
        auth_time: expect.stringMatching(/^\d+$/),
        token_use: 'id',
        'cognito:username': 'alice',
        'cognito:groups': 'operator',
      }),
    );
    expect(second?.sub).toBe(first?.sub);
  });
});
