import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { errorCatalogue } from '../lib/errors/catalogue.ts';
import { compressAnswer } from '../infra/compression.ts';
import { gatewayErrorFields, gatewayErrorHeaders, gatewayErrorOf } from '../infra/gateway-errors.ts';
import { ROUTE_TIMEOUT_SECONDS, type RouteDefinition } from '../infra/routes.ts';
import { DEFAULT_THROTTLING } from '../infra/throttling.ts';
import { buildProxyEvent, lambdaContext } from './gateway-event.ts';
import { matchResource, resourceTree, splitTarget } from './gateway-routing.ts';

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
  /** Stage throttling, as a token bucket: steady requests per second and burst. @default the stack's (infra/throttling.ts) */
  readonly throttle?: { readonly rate: number; readonly burst: number };
  /** How long a function may run before it is stopped, as Lambda stops it. @default the stack's (infra/routes.ts) */
  readonly timeoutMs?: number;
  /**
   * What shares the API's origin outside it, as CloudFront's behaviours do on AWS (the handheld
   * app, local/web.ts): a request it answers (returns true) never reaches the gateway.
   */
  readonly site?: (req: IncomingMessage, res: ServerResponse) => boolean;
}

/**
 * API Gateway REST quota: "Total combined size of request line and header values: 10240 bytes"
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/limits.html).
 */
export const MAX_HEADER_BYTES = 10_240;

/**
 * Lambda's synchronous invocation payload limit on what a function returns, here its proxy
 * result as JSON: "6 MB each for request and response"
 * (https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html); Lambda's refusal
 * names 6 291 556 bytes. API Gateway answers that failed integration with 502.
 */
const MAX_ANSWER_BYTES = 6_291_556;

type GatewayAnswer = APIGatewayProxyResult & { requestId: string };

/**
 * API Gateway's own refusal of a response type, as the stack's gateway responses render it:
 * same status, headers and English text (infra/gateway-errors.ts).
 */
const gatewayError = (type: string, requestId: string, gatewayStatus?: number): GatewayAnswer => {
  const row = gatewayErrorOf(type);
  const fields = gatewayErrorFields(row);
  const status = row.status === 'gateway' || row.status === undefined ? undefined : row.status;
  return {
    statusCode: status ?? gatewayStatus ?? errorCatalogue[row.code].status,
    headers: { 'content-type': 'application/json', ...gatewayErrorHeaders(row) },
    body: JSON.stringify({ ...fields, request_id: requestId }),
    requestId,
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

/**
 * Maps a proxy result back to HTTP as API Gateway does: `headers` and `multiValueHeaders` merged
 * into one list per name (a value given in both sent once), and the body as the text the function
 * returned. With no binary media types on the API, a body marked `isBase64Encoded` is not decoded:
 * the client gets the base64 text
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/set-up-lambda-proxy-integrations.html#api-gateway-simple-proxy-for-lambda-output-format).
 * The stage compresses the body for a client that accepts it (infra/compression.ts).
 */
const send = (
  res: ServerResponse,
  result: APIGatewayProxyResult,
  requestId: string,
  acceptEncoding: string | undefined,
) => {
  const headers = new Map<string, { name: string; values: string[] }>();
  const add = (name: string, value: unknown) => {
    const entry = headers.get(name.toLowerCase()) ?? { name, values: [] };
    if (!entry.values.includes(String(value))) entry.values.push(String(value));
    headers.set(name.toLowerCase(), entry);
  };
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) for (const v of values) add(name, v);
  for (const [name, value] of Object.entries(result.headers ?? {})) add(name, value);
  const { body, encoding } = compressAnswer(
    Buffer.from(result.body ?? '', 'utf8'),
    acceptEncoding,
    headers.has('content-encoding'),
  );
  res.writeHead(result.statusCode, {
    ...Object.fromEntries([...headers.values()].map(({ name, values }) => [name, values])),
    ...(encoding === undefined ? {} : { 'content-encoding': encoding }),
    'x-amzn-requestid': requestId,
    'content-length': String(body.length),
  });
  res.end(body);
};

const isHeaderValue = (v: unknown) => ['string', 'number', 'boolean'].includes(typeof v);

/**
 * A proxy result API Gateway can map back: an integer status, a string body (or none), header
 * values that are strings, numbers or booleans. Anything else is a malformed Lambda proxy
 * response, which API Gateway answers with 502.
 */
const isProxyResult = (result: unknown): result is APIGatewayProxyResult => {
  if (typeof result !== 'object' || result === null) return false;
  const r = result as Record<string, unknown>;
  const status = r.statusCode;
  const headers = r.headers ?? {};
  const multi = r.multiValueHeaders ?? {};
  return (
    typeof status === 'number' &&
    Number.isInteger(status) &&
    status >= 100 &&
    status <= 599 &&
    (r.body === undefined || r.body === null || typeof r.body === 'string') &&
    typeof headers === 'object' &&
    headers !== null &&
    Object.values(headers).every(isHeaderValue) &&
    typeof multi === 'object' &&
    multi !== null &&
    Object.values(multi).every((values) => Array.isArray(values) && values.every(isHeaderValue))
  );
};

/**
 * The Authorization value the authorizer checks: the one API Gateway also hands the function
 * in `headers`, where a repeated header keeps its last value
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/set-up-lambda-proxy-integrations.html#apigateway-multivalue-headers-and-parameters).
 * Node's `req.headers.authorization` would keep the first one instead.
 */
const lastAuthorization = (raw: readonly string[]): string | undefined => {
  let value: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i]?.toLowerCase() === 'authorization') value = raw[i + 1];
  return value;
};

/**
 * An emulated API Gateway REST API (v1) for one route table: resolves the resource as API
 * Gateway does (see gateway-routing.ts), enforces the stage throttling (per method), the
 * authorizer and the payload limit, builds the proxy event, invokes the function and maps its proxy result
 * back to HTTP. Its own refusals are the stack's gateway responses, in English.
 *
 * @example
 * ```ts
 * http.createServer(createGateway({ routes: routeTable('cargo'), loadHandler, verifyToken })).listen(3000);
 * ```
 */
export const createGateway = (options: GatewayOptions) => {
  const tree = resourceTree(options.routes);
  const stage = options.stage ?? 'local';
  // The stage's limits apply to each method on its own, each with a bucket of its own: "per-API,
  // per-stage throttling limits are applied at the API method level for a stage"
  // (https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-request-throttling.html).
  const buckets = new Map<RouteDefinition, () => boolean>();
  const allow = (route: RouteDefinition): boolean => {
    let bucket = buckets.get(route);
    if (bucket === undefined) {
      bucket = tokenBucket(
        options.throttle?.rate ?? DEFAULT_THROTTLING.rateLimit,
        options.throttle?.burst ?? DEFAULT_THROTTLING.burstLimit,
      );
      buckets.set(route, bucket);
    }
    return bucket();
  };

  const dispatch = async (req: IncomingMessage): Promise<GatewayAnswer> => {
    const now = new Date();
    // The path as sent: API Gateway matches it against the resources as it is, with no URL
    // normalisation (`//`, `\`, `..` and `%2e%2e` name no resource).
    const { path, query } = splitTarget(req.url ?? '/');
    const gatewayRequestId = requestIdFor(now);
    const method = req.method ?? 'GET';
    const match = matchResource(tree, path);
    // A path without a resource, and a method the resource does not have, are both
    // MISSING_AUTHENTICATION_TOKEN on API Gateway.
    const route = match?.resource.methods.get(method);
    if (match === undefined || route === undefined)
      return gatewayError('MISSING_AUTHENTICATION_TOKEN', gatewayRequestId);
    if (!allow(route)) return gatewayError('THROTTLED', gatewayRequestId);
    if (match.pathParameters === 'malformed') return gatewayError('DEFAULT_4XX', gatewayRequestId, 400);
    const claims = route.access === 'public' ? undefined : await options.verifyToken(lastAuthorization(req.rawHeaders));
    if (route.access !== 'public' && claims === undefined) return gatewayError('UNAUTHORIZED', gatewayRequestId);
    const body = await readBody(req, options.maxBodyBytes ?? 10 * 1024 * 1024);
    if (body === undefined) return gatewayError('REQUEST_TOO_LARGE', gatewayRequestId);
    const event = buildProxyEvent(
      {
        method,
        path,
        resource: route.path,
        pathParameters: match.pathParameters,
        rawHeaders: req.rawHeaders,
        searchParams: new URLSearchParams(query),
        body,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        claims,
      },
      { stage, apiId: 'local', now },
    );
    const requestId = event.requestContext.requestId;
    try {
      const handler = await options.loadHandler(route);
      const timeoutMs = options.timeoutMs ?? ROUTE_TIMEOUT_SECONDS * 1000;
      // Lambda stops a function at its timeout: its late answer never reaches the client. (Here it
      // runs on in this process; on Lambda it is frozen.)
      let timer: NodeJS.Timeout | undefined;
      const stopped = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('the function timed out')), timeoutMs);
      });
      const result = await Promise.race([
        handler(event, lambdaContext(`cargo-${route.id}`, requestId, timeoutMs)),
        stopped,
      ]).finally(() => clearTimeout(timer));
      if (!isProxyResult(result)) throw new TypeError('the function returned no proxy result');
      if (Buffer.byteLength(JSON.stringify(result), 'utf8') > MAX_ANSWER_BYTES)
        throw new RangeError("the function's answer is over Lambda's payload limit");
      return { ...result, requestId };
    } catch {
      // What API Gateway does with a crashed, timed-out, malformed or oversized integration: a 5xx gateway response.
      return gatewayError('DEFAULT_5XX', requestId, 502);
    }
  };

  return (req: IncomingMessage, res: ServerResponse): void => {
    const accepts = req.headers['accept-encoding'];
    // CloudFront and API Gateway find the distribution or API by its host name: a request that
    // names none reaches neither (Node would answer it with an empty 400).
    if (!req.headers.host) {
      const refused = gatewayError('DEFAULT_4XX', requestIdFor(new Date()), 400);
      return send(res, refused, refused.requestId, accepts);
    }
    if (options.site?.(req, res) === true) return;
    dispatch(req)
      .then((result) => send(res, result, result.requestId, accepts))
      .catch(() => send(res, gatewayError('DEFAULT_5XX', 'unknown', 500), 'unknown', accepts));
  };
};

/** Writes a gateway answer straight to a socket Node's HTTP server does not answer on, and closes it. */
const answerOnSocket = (socket: Duplex, answer: GatewayAnswer) => {
  if (!socket.writable) return socket.destroy();
  const body = Buffer.from(answer.body, 'utf8');
  const head = [
    `HTTP/1.1 ${answer.statusCode} ${STATUS_CODES[answer.statusCode] ?? ''}`,
    ...Object.entries(answer.headers ?? {}).map(([name, value]) => `${name}: ${String(value)}`),
    `content-length: ${body.length}`,
    `x-amzn-requestid: ${answer.requestId}`,
    'connection: close',
    '',
    '',
  ].join('\r\n');
  socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]));
};

/**
 * Requests Node cannot parse never reach the gateway: headers over {@link MAX_HEADER_BYTES}
 * (431) and malformed request lines such as a lower-case method (400). They are answered with
 * the stack's DEFAULT_4XX gateway response instead of Node's empty body.
 */
const refuseUnparsable = (error: NodeJS.ErrnoException & { bytesParsed?: number }, socket: Duplex) =>
  answerOnSocket(
    socket,
    gatewayError('DEFAULT_4XX', requestIdFor(new Date()), error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400),
  );

/**
 * CONNECT never reaches a request handler in Node (without a listener the socket is dropped):
 * answered as API Gateway answers a method no resource has, 404 ROUTE_NOT_FOUND.
 */
const refuseConnect = (_req: IncomingMessage, socket: Duplex) =>
  answerOnSocket(socket, gatewayError('MISSING_AUTHENTICATION_TOKEN', requestIdFor(new Date())));

/**
 * The emulated API Gateway as an HTTP server: {@link createGateway} with API Gateway's header
 * limit and its unified answer to requests that cannot be parsed, name no host or use CONNECT.
 *
 * @example
 * ```ts
 * createGatewayServer({ routes: routeTable('cargo'), loadHandler, verifyToken }).listen(3000);
 * ```
 */
export const createGatewayServer = (options: GatewayOptions): Server => {
  // A request without Host is the gateway's to refuse, in the unified body (createGateway).
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false }, createGateway(options));
  server.on('clientError', refuseUnparsable);
  server.on('connect', refuseConnect);
  return server;
};

/** Requests refused before a function runs still get an id, as API Gateway gives them. */
const requestIdFor = (now: Date) => `gw-${now.getTime().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
