import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';

/** What the gateway knows about an incoming HTTP request once a route matched. */
export interface IncomingRequest {
  readonly method: string;
  readonly path: string;
  /** The matched route's resource path, e.g. `/v1/box/{box_no}`. */
  readonly resource: string;
  readonly pathParameters: Record<string, string> | null;
  /** Raw header pairs as received (name case kept, repeated names kept). */
  readonly rawHeaders: readonly string[];
  readonly searchParams: URLSearchParams;
  readonly body: Buffer;
  readonly sourceIp: string;
  readonly claims?: Record<string, string>;
}

const pad = (n: number) => String(n).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** API Gateway's `requestTime`: `21/Nov/2026:08:30:00 +0000`. */
const requestTime = (d: Date) =>
  `${pad(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;

const group = (pairs: Iterable<[string, string]>) => {
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  for (const [name, value] of pairs) {
    single[name] = value; // the last value wins, as in API Gateway
    (multi[name] ??= []).push(value);
  }
  return { single, multi, empty: Object.keys(single).length === 0 };
};

function* headerPairs(raw: readonly string[]): Iterable<[string, string]> {
  for (let i = 0; i + 1 < raw.length; i += 2) yield [raw[i] as string, raw[i + 1] as string];
}

/**
 * Builds the REST API (v1) Lambda proxy event exactly as API Gateway does: single and multi-value
 * headers and query parameters (`null` when absent), path parameters, and the request context
 * with `authorizer.claims` from the Cognito authorizer.
 *
 * @example
 * ```ts
 * const event = buildProxyEvent(request, { stage: 'local', apiId: 'local', now: new Date() });
 * ```
 */
export const buildProxyEvent = (
  request: IncomingRequest,
  options: { stage: string; apiId: string; now: Date },
): APIGatewayProxyEvent => {
  const headers = group(headerPairs(request.rawHeaders));
  const query = group(request.searchParams.entries());
  const userAgent = Object.entries(headers.single).find(([k]) => k.toLowerCase() === 'user-agent')?.[1] ?? null;
  return {
    resource: request.resource,
    path: request.path,
    httpMethod: request.method,
    headers: headers.single,
    multiValueHeaders: headers.multi,
    queryStringParameters: query.empty ? null : query.single,
    multiValueQueryStringParameters: query.empty ? null : query.multi,
    pathParameters: request.pathParameters,
    stageVariables: null,
    // The stack's API declares no binary media types, so API Gateway hands every body to the
    // function as UTF-8 text, whatever its Content-Type; bytes that are not UTF-8 arrive as U+FFFD
    // (https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-payload-encodings.html).
    body: request.body.length === 0 ? null : request.body.toString('utf8'),
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: options.apiId,
      authorizer: request.claims === undefined ? null : { claims: request.claims },
      protocol: 'HTTP/1.1',
      httpMethod: request.method,
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: request.sourceIp,
        user: null,
        userAgent,
        userArn: null,
      },
      path: `/${options.stage}${request.path}`,
      stage: options.stage,
      requestId: randomUUID(),
      requestTime: requestTime(options.now),
      requestTimeEpoch: options.now.getTime(),
      resourceId: 'local',
      resourcePath: request.resource,
      domainName: 'localhost',
      domainPrefix: 'localhost',
      extendedRequestId: randomUUID(),
    },
  } as APIGatewayProxyEvent;
};

/** A Lambda context for one invocation, with the function's timeout counting down. */
export const lambdaContext = (functionName: string, requestId: string, timeoutMs: number): Context => {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
};
