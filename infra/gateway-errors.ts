/**
 * API Gateway's own answers (gateway responses), declared once: the stack renders them as
 * gateway response templates (infra/constructs/gateway-responses.ts) and the local gateway
 * answers with the same status, headers and English text. API Gateway cannot read
 * Accept-Language in a gateway response, so neither does the local gateway (SPEC Errors).
 */

import { errorCatalogue, type ErrorCode, type MessageParams } from '../lib/errors/catalogue.ts';
import { NO_STORE } from '../lib/http/answer-headers.ts';

/** One gateway response: API Gateway's response type and the catalogue code it answers with. */
export interface GatewayError {
  /** API Gateway's response type, e.g. `MISSING_AUTHENTICATION_TOKEN`. */
  readonly type: string;
  readonly code: ErrorCode;
  /** Status to answer with: by default the catalogue's status for the code; `gateway` keeps API Gateway's. */
  readonly status?: number | 'gateway';
  readonly headers?: Readonly<Record<string, string>>;
  /** Fills the catalogue's message template. */
  readonly params?: MessageParams;
}

/**
 * An unknown route, and a method a resource does not have, reach API Gateway as
 * MISSING_AUTHENTICATION_TOKEN (403), which is answered as 404 ROUTE_NOT_FOUND. The DEFAULT_*
 * rows cover every other type, keeping API Gateway's status.
 */
export const GATEWAY_ERRORS: readonly GatewayError[] = [
  { type: 'MISSING_AUTHENTICATION_TOKEN', code: 'ROUTE_NOT_FOUND', params: { value: 'for this method and path' } },
  { type: 'RESOURCE_NOT_FOUND', code: 'ROUTE_NOT_FOUND', params: { value: 'for this method and path' } },
  { type: 'UNAUTHORIZED', code: 'UNAUTHORIZED' },
  { type: 'EXPIRED_TOKEN', code: 'UNAUTHORIZED' },
  { type: 'ACCESS_DENIED', code: 'FORBIDDEN' },
  { type: 'THROTTLED', code: 'THROTTLED', headers: { 'Retry-After': '1' } },
  { type: 'QUOTA_EXCEEDED', code: 'THROTTLED' },
  { type: 'REQUEST_TOO_LARGE', code: 'PAYLOAD_TOO_LARGE' },
  { type: 'UNSUPPORTED_MEDIA_TYPE', code: 'UNSUPPORTED_MEDIA_TYPE' },
  { type: 'BAD_REQUEST_BODY', code: 'VALIDATION_ERROR', params: { field: 'body' } },
  {
    type: 'BAD_REQUEST_PARAMETERS',
    code: 'VALIDATION_ERROR',
    params: { field: 'parameters', reason: 'parameters_invalid' },
  },
  {
    type: 'DEFAULT_4XX',
    code: 'VALIDATION_ERROR',
    status: 'gateway',
    params: { field: 'request', reason: 'gateway_rejected' },
  },
  { type: 'DEFAULT_5XX', code: 'INTERNAL_ERROR', status: 'gateway' },
];

/** The gateway response row of a type. */
export const gatewayErrorOf = (type: string): GatewayError => {
  const row = GATEWAY_ERRORS.find((e) => e.type === type);
  if (row === undefined) throw new Error(`no gateway response for ${type}`);
  return row;
};

/**
 * The headers of a gateway response: its own (Retry-After) and `Cache-Control: no-store`, as on
 * every answer of the functions (lib/http/answer-headers.ts). Without it CloudFront would keep a
 * 404, 403 or 400 of the gateway for its error caching time; the distribution's error caching
 * minimum TTL of 0 covers the codes for which CloudFront ignores `no-store` (infra/constructs/web-app.ts).
 */
export const gatewayErrorHeaders = (error: GatewayError): Readonly<Record<string, string>> => ({
  'Cache-Control': NO_STORE,
  ...error.headers,
});

/** The body fields of a gateway response: the catalogue's English message, never localised. */
export const gatewayErrorFields = (error: GatewayError) => {
  const entry = errorCatalogue[error.code];
  return { error_code: error.code, message: entry.message.en(error.params ?? {}), domain: entry.domain };
};
