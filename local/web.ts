import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildWebApp, type WebFile } from '../web/build.ts';
import { contentSecurityPolicy, SECURITY_HEADERS } from '../web/headers.ts';
import type { DeploymentSettings, RuntimeConfig } from '../web/src/config.ts';
import { appSettings } from '../infra/app-settings.ts';
import { loadConfig } from '../lib/config.ts';
import { LOCAL_CLIENT_ID } from './auth.ts';
import { COGNITO_PATH, createCognitoStandIn } from './cognito.ts';
import { splitTarget } from './gateway-routing.ts';

/**
 * What CloudFront serves beside the API on AWS, served by `npm start` on the same origin: the
 * handheld app at `/` (built in memory at start), its runtime configuration `/config.json`, and
 * the local stand-in for Cognito's sign-in calls. Everything else is the API's.
 */
export interface LocalSiteOptions {
  readonly dataDir: string;
  readonly key: Uint8Array;
  /**
   * The service's settings told to the app in `config.json` (infra/app-settings.ts: the service
   * prefix, SSCCs, the code patterns, ENFORCE_ERP_PLAN). @default those of a default service
   */
  readonly settings?: DeploymentSettings;
  /** @default the build of web/ (web/build.ts) */
  readonly files?: readonly WebFile[];
}

/** The runtime configuration the stack writes on AWS; locally Cognito is the stand-in on this origin. */
export const localRuntimeConfig = (settings: DeploymentSettings = appSettings(loadConfig({}))): RuntimeConfig => ({
  region: 'us-east-1',
  user_pool_client_id: LOCAL_CLIENT_ID,
  cognito_endpoint: COGNITO_PATH,
  ...settings,
});

/** True for a path CloudFront sends to the API origin (`/v1/*`). */
export const isApiPath = (pathname: string): boolean => pathname === '/v1' || pathname.startsWith('/v1/');

/**
 * A request handler for the site: answers (and returns true) a request for one of the app's own
 * files or the sign-in stand-in. Any other path, inside `/v1` or not (`/cargo/location/X`,
 * `//v1/box/info`), is the gateway's, which answers a path that names no route with the unified
 * 404 ROUTE_NOT_FOUND, as API Gateway does.
 *
 * @example
 * ```ts
 * createGatewayServer({ ...options, site: createLocalSite({ dataDir, key }) });
 * ```
 */
export const createLocalSite = (options: LocalSiteOptions) => {
  const files = new Map((options.files ?? buildWebApp()).map((f) => [f.path, f]));
  const index = files.get('/index.html') as WebFile;
  files.set('/', index);
  files.set('/config.json', {
    path: '/config.json',
    body: Buffer.from(JSON.stringify(localRuntimeConfig(options.settings))),
    contentType: 'application/json',
    immutable: false,
  });
  const cognito = createCognitoStandIn({ dataDir: options.dataDir, key: options.key });
  const headers = { ...SECURITY_HEADERS, 'content-security-policy': contentSecurityPolicy() };
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const { path: pathname } = splitTarget(req.url ?? '/');
    if (isApiPath(pathname)) return false;
    if (cognito(req, res)) return true;
    const found = files.get(pathname);
    if (found === undefined) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...headers, 'content-type': 'text/plain; charset=utf-8' });
      res.end('Method not allowed');
      return true;
    }
    res.writeHead(200, {
      ...headers,
      'content-type': found.contentType,
      'content-length': String(found.body.length),
      // Hashed assets forever; the page, the worker and the configuration checked on every load.
      'cache-control': found.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    res.end(req.method === 'HEAD' ? undefined : found.body);
    return true;
  };
};
