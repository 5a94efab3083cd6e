import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type CallOptions, type TestService } from '../support/service.ts';

let service: TestService;
let doc: any;
beforeAll(async () => {
  service = await startTestService();
  doc = (await service.call('GET', '/v1/openapi.json', { token: null })).body;
});
afterAll(async () => service?.close());

const operationOf = (method: string, path: string) => doc.paths[path]?.[method.toLowerCase()];
/** An operation's response for a status, the shared response it refers to resolved. */
const responseOf = (method: string, path: string, status: number) => {
  const response = operationOf(method, path)?.responses[String(status)];
  return response?.$ref === undefined ? response : doc.components.responses[response.$ref.split('/').pop()];
};
/** The codes an operation declares for a status, from its schema's `error_code` enum. */
const declaredCodes = (method: string, path: string, status: number): string[] =>
  responseOf(method, path, status)?.content['application/json'].schema.allOf?.[1].properties.error_code.enum ?? [];
const allDeclared = (method: string, path: string): string[] =>
  Object.keys(operationOf(method, path).responses).flatMap((status) => declaredCodes(method, path, Number(status)));

describe('GET /v1/openapi.json', () => {
  it('serves a document that a real OpenAPI validator accepts, without a token', async () => {
    const res = await service.call('GET', '/v1/openapi.json', { token: null });
    expect(res.status).toBe(200);
    await expect(SwaggerParser.validate(structuredClone(res.body))).resolves.toBeDefined();
  });

  it('names the unified error body and the request and response schemas', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        'ErrorBody',
        'LocationScan',
        'LocationBacklog',
        'CargoLocationResponse',
        'BoxInfoResponse',
        'BoxSaveRequest',
        'BoxSaveResponse',
        'OrderResponse',
        'PlannedItem',
      ]),
    );
    expect(doc.components.schemas.ErrorBody.required).toEqual(['error_code', 'message', 'domain', 'request_id']);
    expect(doc.components.schemas.OrderResponse.properties.totals.items).toEqual({
      $ref: '#/components/schemas/PlannedItem',
    });
  });

  it('names each error response after its codes, shared by every route that answers those codes at that status', () => {
    for (const route of service.stack.routes.filter((r) => r.access !== 'public'))
      expect(operationOf(route.method, route.path).responses['401'], `${route.method} ${route.path}`).toEqual({
        $ref: '#/components/responses/Unauthorized',
      });
    expect(operationOf('GET', '/v1/zongpai/{zongpai_no}').responses['404']).toEqual({
      $ref: '#/components/responses/ZongpaiNotFound',
    });
    for (const path of ['/v1/zongpai/{zongpai_no}/close', '/v1/zongpai/{zongpai_no}/reopen'])
      expect(operationOf('POST', path).responses['400']).toEqual({
        $ref: '#/components/responses/InvalidZongpaiOrValidationErrorOrMalformedJson',
      });
    expect(Object.keys(doc.components.responses)).toEqual(
      expect.arrayContaining(['Unauthorized', 'Throttled', 'BadGateway', 'GatewayTimeout']),
    );
  });

  it('documents every route of the route table, each with a unique operationId and its access', () => {
    const documented = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) =>
      Object.entries(ops).map(([m, op]) => `${m.toUpperCase()} ${path} ${op['x-access']}`),
    );
    expect(documented.sort()).toEqual(service.stack.routes.map((r) => `${r.method} ${r.path} ${r.access}`).sort());
    const ids = Object.values(doc.paths as Record<string, Record<string, any>>).flatMap((ops) =>
      Object.values(ops).map((op) => op.operationId),
    );
    expect(new Set(ids).size).toBe(service.stack.routes.length);
    expect(ids).toEqual(expect.arrayContaining(['zongpaiRegister', 'boxSave', 'locationGet']));
  });

  it('names the servers a client can call: the deployed stage and the local runtime', () => {
    expect(doc.servers.map((s: { url: string }) => s.url)).toEqual([
      'https://{api_id}.execute-api.{region}.amazonaws.com/{stage}',
      'http://127.0.0.1:3000',
    ]);
  });
});

describe('the request a route takes', () => {
  it('types the location history limit as an integer 1-100, default 20', () => {
    const limit = operationOf('GET', '/v1/cargo/location/{cargo_no}').parameters.find(
      (p: { name: string }) => p.name === 'limit',
    );
    expect(limit.schema).toEqual(expect.objectContaining({ type: 'integer', minimum: 1, maximum: 100, default: 20 }));
  });

  it('types every page limit as the integer the route reads, with its bounds and default', () => {
    const limits = service.stack.routes.flatMap((route) =>
      (operationOf(route.method, route.path).parameters ?? [])
        .filter((p: { in: string; name: string }) => p.in === 'query' && p.name === 'limit')
        .map((p: { schema: object }) => [`${route.method} ${route.path}`, p.schema]),
    );
    expect(limits.length).toBeGreaterThanOrEqual(6);
    for (const [route, schema] of limits)
      expect(schema, route).toEqual(
        expect.objectContaining({
          type: 'integer',
          minimum: 1,
          maximum: expect.any(Number),
          default: expect.any(Number),
        }),
      );
  });

  it('marks request bodies required, except the optional body of an undo', () => {
    for (const route of [
      'POST /v1/cargo/location',
      'POST /v1/box',
      'POST /v1/box/simple',
      'PATCH /v1/box/{box_no}',
      'POST /v1/zongpai',
    ]) {
      const [method, path] = route.split(' ') as [string, string];
      expect(operationOf(method, path).requestBody.required, route).toBe(true);
    }
    expect(operationOf('DELETE', '/v1/box/{box_no}').requestBody.required).toBe(false);
  });

  it('gives identifier fields the configured pattern and length', () => {
    const save = doc.components.schemas.BoxSaveRequest.properties;
    expect(save.box_no).toEqual(
      expect.objectContaining({ type: 'string', pattern: '^[A-Z0-9-]{4,32}$', minLength: 4, maxLength: 32 }),
    );
    expect(save.zongpai_no).toEqual(
      expect.objectContaining({ pattern: '^[A-Z0-9-]{4,32}$', minLength: 4, maxLength: 32 }),
    );
    expect(save.items.items.properties.item_code).toEqual(expect.objectContaining({ minLength: 1, maxLength: 64 }));
    expect(save.items.items.properties.quantity).toEqual(
      expect.objectContaining({ type: 'integer', minimum: 1, maximum: 99_999 }),
    );
    expect(doc.components.schemas.LocationScan.properties.location_code).toEqual(
      expect.objectContaining({ pattern: '^[A-Z0-9-]{2,32}$', minLength: 2, maxLength: 32 }),
    );
  });

  it('declares the Idempotency-Key header on every write with the rule the service applies', () => {
    for (const route of service.stack.routes.filter((r) => r.method !== 'GET')) {
      const header = operationOf(route.method, route.path).parameters.find(
        (p: { in: string; name: string }) => p.in === 'header' && p.name === 'Idempotency-Key',
      );
      expect(header?.schema.pattern, `${route.method} ${route.path}`).toBe('^[!-~]{1,255}$');
    }
  });
});

describe('the errors a route declares', () => {
  it('lists on each route only the codes it can produce: registering a zongpai never answers BOX_NOT_FOUND', () => {
    expect(allDeclared('POST', '/v1/zongpai')).not.toContain('BOX_NOT_FOUND');
    expect(allDeclared('POST', '/v1/zongpai')).toContain('ZONGPAI_ALREADY_EXISTS');
    expect(allDeclared('GET', '/v1/box/info')).not.toContain('ZONGPAI_NOT_FOUND');
    expect(allDeclared('GET', '/v1/zongpai/{zongpai_no}')).not.toContain('IDEMPOTENCY_KEY_REUSED');
    expect(allDeclared('GET', '/v1/openapi.json')).not.toContain('UNAUTHORIZED');
    expect(operationOf('POST', '/v1/zongpai').responses['404']).toBeUndefined();
  });

  it('declares 503 ERP_VIEW_UNAVAILABLE on the routes that read the ERP view, and not on the others', () => {
    for (const [method, path] of [
      ['GET', '/v1/box/info'],
      ['POST', '/v1/box'],
      ['POST', '/v1/box/simple'],
      ['PATCH', '/v1/box/{box_no}'],
      ['DELETE', '/v1/box/{box_no}'],
      ['GET', '/v1/box/{box_no}/history'],
      // A scan's location may not be a box of the ERP plan (the location register's rules).
      ['POST', '/v1/cargo/location'],
      ['POST', '/v1/cargo/locations/{location_code}/transfer'],
      ['PUT', '/v1/cargo/locations/{location_code}'],
    ]) {
      expect(declaredCodes(method as string, path as string, 503), `${method} ${path}`).toEqual([
        'DATABASE_UNAVAILABLE',
        'ERP_VIEW_UNAVAILABLE',
      ]);
    }
    expect(declaredCodes('GET', '/v1/zongpai/{zongpai_no}', 503)).toEqual(['DATABASE_UNAVAILABLE']);
    expect(declaredCodes('GET', '/v1/cargo/locations/{location_code}', 503)).toEqual(['DATABASE_UNAVAILABLE']);
  });

  it('declares Retry-After on every 429 and 503, and the gateway 502 and 504 on every route', () => {
    for (const route of service.stack.routes) {
      const response = (status: number) => responseOf(route.method, route.path, status);
      expect(response(429).headers['Retry-After'], `${route.method} ${route.path}`).toBeDefined();
      if (response(503) !== undefined) expect(response(503).headers['Retry-After']).toBeDefined();
      expect(declaredCodes(route.method, route.path, 502)).toEqual(['INTERNAL_ERROR']);
      expect(declaredCodes(route.method, route.path, 504)).toEqual(['INTERNAL_ERROR']);
    }
  });

  it('declares every error the running service answers, with its request_id', async () => {
    const supervisor = { token: service.tokens.supervisor };
    await service.plan('BOX-OA01', { 'SKU-A': 2 });
    await service.call('POST', '/v1/zongpai', { body: { zongpai_no: 'PLT-OA01' } });
    const plannedBox = (box_no: string, quantity: number) => ({
      body: { box_no, zongpai_no: 'PLT-OA01', items: [{ item_code: 'SKU-A', quantity }] },
    });
    await service.call('POST', '/v1/box', plannedBox('BOX-OA01', 1));
    await service.call('POST', '/v1/zongpai', {
      body: { zongpai_no: 'PLT-OA02' },
      headers: { 'idempotency-key': 'oa-key' },
    });
    /** A refused request: the route as documented, the path it is sent to, and what it sends. */
    const cases: [route: string, path: string, options?: CallOptions][] = [
      ['POST /v1/zongpai', '/v1/zongpai', { body: { zongpai_no: 'ab' } }],
      ['POST /v1/zongpai', '/v1/zongpai', { body: { zongpai_no: 'PLT-OA01' } }],
      [
        'POST /v1/zongpai',
        '/v1/zongpai',
        { rawBody: '{"zongpai_no":', headers: { 'content-type': 'application/json' } },
      ],
      ['POST /v1/zongpai', '/v1/zongpai', { rawBody: 'zongpai_no=PLT-1', headers: { 'content-type': 'text/plain' } }],
      [
        'POST /v1/zongpai',
        '/v1/zongpai',
        { body: { zongpai_no: 'PLT-OA03' }, headers: { 'idempotency-key': 'oa-key' } },
      ],
      ['POST /v1/zongpai', '/v1/zongpai', { body: { zongpai_no: 'PLT-OA04' }, token: null }],
      ['GET /v1/zongpai/{zongpai_no}', '/v1/zongpai/PLT-NOPE'],
      ['POST /v1/zongpai/{zongpai_no}/close', '/v1/zongpai/PLT-OA01/close'],
      ['POST /v1/zongpai/{zongpai_no}/close', '/v1/zongpai/PLT-NOPE/close', supervisor],
      ['GET /v1/box/info', '/v1/box/info?box_no=BOX-NOPE'],
      ['GET /v1/box/info', '/v1/box/info?box_no=b'],
      ['POST /v1/box', '/v1/box', plannedBox('BOX-NOPE', 1)],
      ['POST /v1/box', '/v1/box', plannedBox('BOX-OA01', 1)],
      ['POST /v1/box', '/v1/box', plannedBox('BOX-OA01', 0)],
      ['POST /v1/box/simple', '/v1/box/simple', { body: { box_no: 'BOX-1002', zongpai_no: 'PLT-NOPE' } }],
      ['PATCH /v1/box/{box_no}', '/v1/box/BOX-OA01', { body: { zongpai_no: 'PLT-OA02' }, ...supervisor }],
      ['PATCH /v1/box/{box_no}', '/v1/box/BOX-OA01', { body: { version: 7, zongpai_no: 'PLT-OA02' }, ...supervisor }],
      [
        'PATCH /v1/box/{box_no}',
        '/v1/box/BOX-OA01',
        { body: { version: 1, items: [{ item_code: 'SKU-Z', quantity: 1 }] }, ...supervisor },
      ],
      ['DELETE /v1/box/{box_no}', '/v1/box/BOX-OA01', { headers: { 'if-match': '"1"' } }],
      ['DELETE /v1/box/{box_no}', '/v1/box/BOX-1003', { headers: { 'if-match': '"1"' }, ...supervisor }],
      ['GET /v1/box/{box_no}/history', '/v1/box/BOX-NOPE/history'],
      ['GET /v1/cargo/location/{cargo_no}', '/v1/cargo/location/BOX-NOPE'],
      ['GET /v1/cargo/location/{cargo_no}', '/v1/cargo/location/BOX-OA01?limit=0'],
      ['POST /v1/cargo/location', '/v1/cargo/location', { body: { cargo_no: 'BOX-OA01', location_code: '!' } }],
      // A query parameter of the route's given twice.
      ['GET /v1/box/info', '/v1/box/info?box_no=BOX-1001&box_no=BOX-1002'],
      ['GET /v1/zongpai', '/v1/zongpai?status=OPEN&status=CLOSED'],
      // A body that is no JSON on a route that takes one without fields.
      [
        'POST /v1/zongpai/{zongpai_no}/reopen',
        '/v1/zongpai/PLT-OA01/reopen',
        { rawBody: '{x', headers: { 'content-type': 'application/json' }, ...supervisor },
      ],
    ];
    for (const [route, path, options] of cases) {
      const [method = '', documented = ''] = route.split(' ');
      const res = await service.call(method, path, options);
      expect(res.status, `${route}: ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
      expect(
        declaredCodes(method, documented, res.status),
        `${route} answered ${res.status} ${res.body.error_code}`,
      ).toContain(res.body.error_code);
      expect(res.body.request_id).toEqual(expect.any(String));
    }
  });
});
