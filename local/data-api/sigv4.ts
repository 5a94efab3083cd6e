import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { invalidSignature, unrecognizedClient } from './errors.ts';

/** AWS refuses a request signed more than 15 minutes away from its own clock. */
const MAX_SKEW_MS = 15 * 60 * 1000;

const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/;

export interface SignedRequest {
  readonly method: string;
  /** The path and query as sent, e.g. `/Execute`. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data).digest();

const headerValue = (headers: IncomingHttpHeaders, name: string): string => {
  const value = headers[name];
  return (Array.isArray(value) ? value.join(',') : (value ?? '')).trim().replace(/\s+/g, ' ');
};

/** Path segments are URI-encoded once (the SDK does not double-encode for this service). */
const canonicalPath = (path: string): string =>
  path
    .split('/')
    .map((segment) =>
      encodeURIComponent(decodeURIComponent(segment)).replace(
        /[!'()*]/g,
        (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
      ),
    )
    .join('/');

const canonicalQuery = (query: string): string =>
  [...new URLSearchParams(query)]
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .sort()
    .join('&');

/**
 * Checks an AWS Signature Version 4 `Authorization` header against the secret key of its access
 * key, as AWS does before anything else: a request without one, or with an unknown access key,
 * is UnrecognizedClientException; a wrong signature or one older than 15 minutes,
 * InvalidSignatureException (both HTTP 403).
 *
 * @example
 * ```ts
 * const accessKeyId = verifySigV4(request, (key) => identities.get(key)?.secretAccessKey);
 * ```
 */
export const verifySigV4 = (
  request: SignedRequest,
  secretOf: (accessKeyId: string) => string | undefined,
  now = Date.now(),
): string => {
  const match = AUTHORIZATION.exec(headerValue(request.headers, 'authorization'));
  if (match === null) throw unrecognizedClient();
  const [, accessKeyId, day, region, service, signedHeaders, signature] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const secret = secretOf(accessKeyId);
  if (secret === undefined) throw unrecognizedClient();

  const amzDate = headerValue(request.headers, 'x-amz-date');
  const signedAt = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (signedAt === null || !amzDate.startsWith(day)) throw invalidSignature();
  const [, y, mo, d, h, mi, s] = signedAt.map(Number) as [number, number, number, number, number, number, number];
  if (Math.abs(now - Date.UTC(y, mo - 1, d, h, mi, s)) > MAX_SKEW_MS) throw invalidSignature();

  const [path = '/', query = ''] = request.url.split('?');
  const names = signedHeaders.split(';');
  const canonicalRequest = [
    request.method,
    canonicalPath(path),
    canonicalQuery(query),
    ...names.map((name) => `${name}:${headerValue(request.headers, name)}`),
    '',
    signedHeaders,
    headerValue(request.headers, 'x-amz-content-sha256') || sha256(request.body),
  ].join('\n');
  const scope = `${day}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), 'aws4_request');
  const expected = hmac(key, stringToSign);
  // A body whose hash differs from the signed one also fails here.
  if (
    headerValue(request.headers, 'x-amz-content-sha256') !== '' &&
    headerValue(request.headers, 'x-amz-content-sha256') !== sha256(request.body)
  ) {
    throw invalidSignature();
  }
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) throw invalidSignature();
  return accessKeyId;
};
