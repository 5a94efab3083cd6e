import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { AppError, errorBody } from '../../lib/errors/app-error.ts';
import type { ErrorCode } from '../../lib/errors/catalogue.ts';
import { preferredLanguage } from '../../lib/errors/language.ts';
import type { RouteDefinition } from '../routes.ts';
import { buildProxyEvent, lambdaContext } from './gateway-event.ts';

export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export interface GatewayOptions {
  readonly routes: readonly RouteDefinition[];
  /** Loads a route's handler module (the same file Lambda runs). */
  readonly loadHandler: (route: RouteDefinition) => Promise<ProxyHandler>;
  /** The Cognito authorizer: claims for a valid token, `undefined` otherwise. */
  readonly verifyToken: (authorization: string | undefined) => Promise<Record<string, string> | undefined>;
  readonly stage?: string;
  /** API Gateway's own payload limit (10 MB); the functions enforce the SPEC's smaller one. */
  readonly maxBodyBytes?: number;
  /** Stage throttling, as a token bucket: steady requests per second and burst. */
  readonly throttle?: { readonly rate: number; readonly burst: number };
  readonly timeoutMs?: number;
}

interface CompiledRoute {
  readonly route: RouteDefinition;
  readonly pattern: RegExp;
  readonly names: readonly string[];
  readonly staticSegments: number;
}

const compile = (route: RouteDefinition): CompiledRoute => {
  const segments = route.path.split('/').filter((s) => s !== '');
  const names: string[] = [];
  const source = segments
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (param === null) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(param[1] as string);
      return '([^/]+)';
    })
    .join('/');
  return { route, pattern: new RegExp(`^/${source}/?$`), names, staticSegments: segments.length - names.length };
};

/** The gateway's own refusals, in the unified body the deployed gateway responses render. */
const gatewayError = (code: ErrorCode, acceptLanguage: string | undefined, requestId: string, value?: string): APIGatewayProxyResult => {
  const error = new AppError(code, value === undefined ? {} : { value });
  return {
    statusCode: error.statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify(errorBody(error, preferredLanguage(acceptLanguage), requestId)),
  };
};

const tokenBucket = (rate: number, burst: number) => {
  let tokens = burst;
  let last = Date.now();
  return () => {
    const now = Date.now();
    tokens = Math.min(burst, tokens + ((now - last) / 1000) * rate);
    last = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
};

const readBody = (req: IncomingMessage, limit: number): Promise<Buffer | undefined> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) resolve(undefined);
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

const send = (res: ServerResponse, result: APIGatewayProxyResult, requestId: string) => {
  const headers: Record<string, string | string[]> = { ...(result.multiValueHeaders as Record<string, string[]> | undefined) };
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  headers['x-amzn-requestid'] = requestId;
  const body = result.isBase64Encoded === true ? Buffer.from(result.body ?? '', 'base64') : Buffer.from(result.body ?? '', 'utf8');
  res.writeHead(result.statusCode, { ...headers, 'content-length': String(body.length) });
  res.end(body);
};

/**
 * An emulated API Gateway REST API (v1) for one route table: matches the route (static segments
 * before `{params}`), enforces the authorizer, the payload limit and throttling, builds the proxy
 * event, invokes the function and maps its proxy result back to HTTP.
 *
 * @example
 * ```ts
 * http.createServer(createGateway({ routes: routeTable('cargo'), loadHandler, verifyToken })).listen(3000);
 * ```
 */
export const createGateway = (options: GatewayOptions) => {
  const compiled = options.routes.map(compile).sort((a, b) => b.staticSegments - a.staticSegments);
  const stage = options.stage ?? 'local';
  const allow = tokenBucket(options.throttle?.rate ?? 1_000, options.throttle?.burst ?? 2_000);

  const dispatch = async (req: IncomingMessage): Promise<APIGatewayProxyResult & { requestId: string }> => {
    const now = new Date();
    const url = new URL(req.url ?? '/', 'http://localhost');
    const language = req.headers['accept-language'];
    const gatewayRequestId = requestIdFor(now);
    const fail = (code: ErrorCode, value?: string) => ({ ...gatewayError(code, language, gatewayRequestId, value), requestId: gatewayRequestId });
    if (!allow()) return fail('THROTTLED');
    const method = (req.method ?? 'GET').toUpperCase();
    const match = compiled.map((c) => ({ c, m: c.pattern.exec(url.pathname) })).find(({ c, m }) => m !== null && c.route.method === method);
    if (match === undefined || match.m === null) return fail('ROUTE_NOT_FOUND', `${method} ${url.pathname}`.slice(0, 80));
    let pathParameters: Record<string, string> | null = null;
    try {
      if (match.c.names.length > 0) pathParameters = Object.fromEntries(match.c.names.map((n, i) => [n, decodeURIComponent(match.m?.[i + 1] ?? '')]));
    } catch {
      return fail('VALIDATION_ERROR');
    }
    const claims = match.c.route.access === 'public' ? undefined : await options.verifyToken(req.headers.authorization);
    if (match.c.route.access !== 'public' && claims === undefined) return fail('UNAUTHORIZED');
    const body = await readBody(req, options.maxBodyBytes ?? 10 * 1024 * 1024);
    if (body === undefined) return fail('PAYLOAD_TOO_LARGE');
    const event = buildProxyEvent(
      { method, path: url.pathname, resource: match.c.route.path, pathParameters, rawHeaders: req.rawHeaders, searchParams: url.searchParams, body, sourceIp: req.socket.remoteAddress ?? '127.0.0.1', claims },
      { stage, apiId: 'local', now },
    );
    const requestId = event.requestContext.requestId;
    try {
      const handler = await options.loadHandler(match.c.route);
      const result = await handler(event, lambdaContext(`cargo-${match.c.route.id}`, requestId, options.timeoutMs ?? 29_000));
      if (typeof result?.statusCode !== 'number') throw new TypeError('the function returned no proxy result');
      return { ...result, requestId };
    } catch {
      // What API Gateway does with a crashed or malformed integration: a 5xx gateway response.
      return { ...gatewayError('INTERNAL_ERROR', language, requestId), statusCode: 502, requestId };
    }
  };

  return (req: IncomingMessage, res: ServerResponse): void => {
    dispatch(req)
      .then((result) => send(res, result, result.requestId))
      .catch(() => send(res, gatewayError('INTERNAL_ERROR', undefined, 'unknown'), 'unknown'));
  };
};

/** Requests refused before a function runs still get an id, as API Gateway gives them. */
const requestIdFor = (now: Date) => `gw-${now.getTime().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
