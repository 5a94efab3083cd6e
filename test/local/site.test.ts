import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayErrorBody } from '../../infra/constructs/gateway-responses.ts';
import { createGatewayServer } from '../../local/gateway.ts';
import { appSettings } from '../../infra/app-settings.ts';
import { checkLocalSettings } from '../../local/stack.ts';
import { createLocalSite } from '../../local/web.ts';
import type { RouteDefinition } from '../../infra/routes.ts';

/**
 * `npm start` serves the handheld app and the API on one origin, as CloudFront does: the app's
 * own files are the site's, every other path the gateway's.
 */
const routes: RouteDefinition[] = [{ id: 'Info', method: 'GET', path: '/v1/box/info', entry: 'x', access: 'public' }];
const files = [
  {
    path: '/index.html',
    body: Buffer.from('<!doctype html><title>app</title>'),
    contentType: 'text/html',
    immutable: false,
  },
  { path: '/app-ABC123.js', body: Buffer.from('console.log(1)'), contentType: 'text/javascript', immutable: true },
];

const dataDir = mkdtempSync(join(tmpdir(), 'cargo-site-'));
let server: Server;
let url: string;
beforeAll(async () => {
  server = createGatewayServer({
    routes,
    verifyToken: async () => undefined,
    loadHandler: async () => async () => ({ statusCode: 200, body: '{"ok":true}' }),
    site: createLocalSite({ dataDir, key: new Uint8Array(32).fill(3), files }),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dataDir, { recursive: true, force: true });
});

const routeNotFound = () => {
  const { request_id: _, ...fields } = JSON.parse(
    gatewayErrorBody('ROUTE_NOT_FOUND', { value: 'for this method and path' }),
  ) as Record<string, string>;
  return { ...fields, request_id: expect.any(String) };
};

describe('one origin for the app and the API', () => {
  it.each(['/', '/index.html', '/app-ABC123.js', '/config.json'])('serves the app’s own file %s', async (path) => {
    const res = await fetch(`${url}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).not.toBeNull();
  });

  it('tells the app its configuration: the local sign-in, the service prefix, and no SSCC zongpais unless GS1_COMPANY_PREFIX is set', async () => {
    const res = await fetch(`${url}/config.json`);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.json()).toMatchObject({ service_prefix: 'cargo', sscc_enabled: false });
  });

  it("tells the app the service's code patterns and ENFORCE_ERP_PLAN: the defaults unless set", async () => {
    const res = await fetch(`${url}/config.json`);
    expect(await res.json()).toMatchObject({
      box_no_pattern: '^[A-Z0-9-]{4,32}$',
      zongpai_no_pattern: '^[A-Z0-9-]{4,32}$',
      location_code_pattern: '^[A-Z0-9-]{2,32}$',
      enforce_erp_plan: true,
    });
  });

  it("writes a deployment's own patterns and ENFORCE_ERP_PLAN=false as npm start reads them", async () => {
    const settings = appSettings(
      checkLocalSettings({
        BOX_NO_PATTERN: '^BX[0-9]{6}$',
        ZONGPAI_NO_PATTERN: '^P[0-9]{5}$',
        ENFORCE_ERP_PLAN: 'false',
      }),
    );
    const site = createLocalSite({ dataDir, key: new Uint8Array(32).fill(3), files, settings });
    const own = createGatewayServer({
      routes,
      verifyToken: async () => undefined,
      loadHandler: async () => async () => ({ statusCode: 200, body: '{}' }),
      site,
    });
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(own.address() as AddressInfo).port}/config.json`);
      expect(await res.json()).toEqual({
        region: 'us-east-1',
        user_pool_client_id: expect.any(String),
        cognito_endpoint: expect.any(String),
        service_prefix: 'cargo',
        sscc_enabled: false,
        box_no_pattern: '^BX[0-9]{6}$',
        zongpai_no_pattern: '^P[0-9]{5}$',
        location_code_pattern: '^[A-Z0-9-]{2,32}$',
        enforce_erp_plan: false,
      });
    } finally {
      await new Promise<void>((resolve) => own.close(() => resolve()));
    }
  });

  it.each(['/cargo/location/X', '/v2/box/info', '/index.htm', '/app-ABC123.js/x'])(
    'answers %s, neither a file of the app nor a route, with the unified 404 ROUTE_NOT_FOUND',
    async (path) => {
      const res = await fetch(`${url}${path}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toEqual(routeNotFound());
    },
  );

  it('answers //v1/box/info, which API Gateway does not normalise to a route, with the unified 404', async () => {
    const res = await fetch(`${url}//v1/box/info`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual(routeNotFound());
  });

  it('still hands /v1 routes to the gateway', async () => {
    const res = await fetch(`${url}/v1/box/info`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });
});
