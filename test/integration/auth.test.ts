import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signLocalToken } from '../../local/auth.ts';
import type { RouteDefinition } from '../../infra/routes.ts';
import { expectError } from '../support/assertions.ts';
import { startTestService, type TestService } from '../support/service.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.close());

/** A concrete request for each route: its declared example (real path values, a body its schema accepts). */
const requestFor = (route: RouteDefinition): [string, unknown] => {
  if (route.spec === undefined) throw new Error(`${route.id} is served without a declaration`);
  const { example } = route.spec;
  const path = Object.entries(example.path ?? {}).reduce(
    (p, [name, value]) => p.replace(`{${name}}`, encodeURIComponent(value)),
    route.path,
  );
  const query = new URLSearchParams(example.query ?? {}).toString();
  return [query === '' ? path : `${path}?${query}`, example.body];
};

const protectedRoutes = () => service.stack.routes.filter((r) => r.access !== 'public');

describe('every route is behind the authorizer', () => {
  it('refuses a request without a token with 401 UNAUTHORIZED', async () => {
    for (const route of protectedRoutes()) {
      const [path, body] = requestFor(route);
      expectError(await service.call(route.method, path, { body, token: null }), 401, 'UNAUTHORIZED', 'auth');
    }
  });

  it('refuses an expired token, a token signed by another key and a malformed one', async () => {
    const expired = await service.token('olga', ['operator', 'supervisor'], {
      expiresInSeconds: 60,
      now: new Date(Date.now() - 7_200_000),
    });
    const foreign = await signLocalToken(new Uint8Array(32).fill(1), { user: 'mallory', groups: ['supervisor'] });
    for (const route of protectedRoutes()) {
      const [path, body] = requestFor(route);
      for (const token of [expired, foreign, 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.']) {
        expectError(await service.call(route.method, path, { body, token }), 401, 'UNAUTHORIZED');
      }
    }
  });

  it('refuses a signed-in user outside the route groups with 403 FORBIDDEN, and writes nothing', async () => {
    const guest = await service.token('gina', ['guest']);
    const operator = service.tokens.operator;
    // The refusal names the Cognito groups that may call the route, as the user pool spells them.
    const needs: Record<string, string> = {
      operator: 'This action needs the group operator or supervisor',
      supervisor: 'This action needs the group supervisor',
      reader: 'This action needs the group operator, supervisor or integration',
      integration: 'This action needs the group supervisor or integration',
    };
    for (const route of protectedRoutes()) {
      const [path, body] = requestFor(route);
      const refused = await service.call(route.method, path, { body, token: guest });
      expectError(refused, 403, 'FORBIDDEN', 'auth');
      expect(refused.body.message).toBe(needs[route.access]);
      if (route.access === 'supervisor')
        expectError(await service.call(route.method, path, { body, token: operator }), 403, 'FORBIDDEN');
    }
    expectError(await service.call('GET', '/v1/zongpai/PLT-0001'), 404, 'ZONGPAI_NOT_FOUND');
    expectError(await service.call('GET', '/v1/cargo/location/BOX-1001'), 404, 'CARGO_NOT_FOUND');
  }, 120_000);

  it('lets an ERP integration user only read: box info, zongpais, orders, locations, events; every write and the box history is 403 FORBIDDEN', async () => {
    const integration = await service.token('erp', ['integration']);
    const reads = new Set([
      'BoxInfo',
      'LocationGet',
      'LocationContent',
      'ZongpaiGet',
      'ZongpaiList',
      'ZongpaiPackingList',
      'ZongpaiLabel',
      'BoxLabel',
      'OrderGet',
      'EventsList',
    ]);
    for (const route of protectedRoutes()) {
      const [path, body] = requestFor(route);
      const res = await service.call(route.method, path, { body, token: integration });
      if (reads.has(route.id)) expect([route.id, res.status]).not.toEqual([route.id, 403]);
      if (route.method !== 'GET' || route.id === 'BoxHistory') expectError(res, 403, 'FORBIDDEN', 'auth');
    }
    expect((await service.call('GET', '/v1/orders/SO-24001', { token: integration })).status).toBe(200);
    expect((await service.call('GET', '/v1/zongpai', { token: integration })).status).toBe(200);
    expectError(await service.call('GET', '/v1/zongpai/PLT-AUTH', { token: integration }), 404, 'ZONGPAI_NOT_FOUND');
  }, 120_000);

  it('lets operators scan, save and query, supervisors also edit, undo, close and reopen, and integration users read', async () => {
    const operatorOnly = service.stack.routes
      .filter((r) => r.access === 'operator')
      .map((r) => r.id)
      .sort();
    const supervisorOnly = service.stack.routes
      .filter((r) => r.access === 'supervisor')
      .map((r) => r.id)
      .sort();
    const readers = service.stack.routes
      .filter((r) => r.access === 'reader')
      .map((r) => r.id)
      .sort();
    expect(operatorOnly).toEqual(
      expect.arrayContaining(['BoxHistory', 'BoxSave', 'BoxSimpleSave', 'LocationRecord', 'ZongpaiRegister']),
    );
    expect(supervisorOnly).toEqual(expect.arrayContaining(['BoxEdit', 'BoxUndo', 'ZongpaiClose', 'ZongpaiReopen']));
    expect(readers).toEqual(
      expect.arrayContaining([
        'BoxInfo',
        'BoxLabel',
        'LocationGet',
        'OrderGet',
        'ZongpaiGet',
        'ZongpaiLabel',
        'ZongpaiList',
        'ZongpaiPackingList',
      ]),
    );
  });
});

describe('groups and app client, read as API Gateway delivers the claims', () => {
  const supervisorRoute = (): [string, string, unknown] => ['POST', '/v1/zongpai/PLT-NONE/close', undefined];

  it.each([['operator,supervisor'], ['[supervisor]'], ['ops supervisor']])(
    'does not grant supervisor rights to a single group named %s: 403 FORBIDDEN',
    async (group) => {
      const token = await service.token('mallory', [group]);
      const [method, path] = supervisorRoute();
      expectError(await service.call(method, path, { token }), 403, 'FORBIDDEN', 'auth');
    },
  );

  it('grants nothing to groups whose names only contain a group name', async () => {
    const token = await service.token('mallory', ['[operator]', 'ops supervisor']);
    expectError(await service.call('GET', '/v1/zongpai/PLT-NONE', { token }), 403, 'FORBIDDEN', 'auth');
  });

  it('grants supervisor rights to a member of both the operator and the supervisor group', async () => {
    const token = await service.token('sam', ['operator', 'supervisor']);
    expectError(await service.call('POST', '/v1/zongpai/PLT-NONE/close', { token }), 404, 'ZONGPAI_NOT_FOUND');
  });

  it('refuses an ID token issued to another app client of the pool with 401 UNAUTHORIZED', async () => {
    const token = await service.token('sam', ['supervisor'], { clientId: 'otherappclientofthepool01' });
    expectError(await service.call('GET', '/v1/zongpai/PLT-NONE', { token }), 401, 'UNAUTHORIZED', 'auth');
  });

  it('refuses an access token with 401 UNAUTHORIZED, as the Cognito authorizer does', async () => {
    const token = await service.token('sam', ['supervisor'], { tokenUse: 'access' });
    expectError(await service.call('GET', '/v1/zongpai/PLT-NONE', { token }), 401, 'UNAUTHORIZED', 'auth');
  });
});
