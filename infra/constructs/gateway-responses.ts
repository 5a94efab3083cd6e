import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import { errorCatalogue, type ErrorCode, type MessageParams } from '../../lib/errors/catalogue.ts';

/** One answer API Gateway gives by itself, before any function runs. */
export interface GatewayError {
  readonly type: apigateway.ResponseType;
  readonly code: ErrorCode;
  /** Status to answer with: by default the catalogue's status for the code; `gateway` keeps API Gateway's. */
  readonly status?: number | 'gateway';
  readonly headers?: Readonly<Record<string, string>>;
  /** Fills the catalogue's message template. */
  readonly params?: MessageParams;
}

/**
 * API Gateway's own errors, in the SPEC's unified body. An unknown route reaches API Gateway as
 * MISSING_AUTHENTICATION_TOKEN (403), which is answered as 404 ROUTE_NOT_FOUND. The DEFAULT_*
 * rows cover every other type, keeping API Gateway's status.
 */
export const GATEWAY_ERRORS: readonly GatewayError[] = [
  { type: apigateway.ResponseType.MISSING_AUTHENTICATION_TOKEN, code: 'ROUTE_NOT_FOUND', params: { value: 'for this method and path' } },
  { type: apigateway.ResponseType.RESOURCE_NOT_FOUND, code: 'ROUTE_NOT_FOUND', params: { value: 'for this method and path' } },
  { type: apigateway.ResponseType.UNAUTHORIZED, code: 'UNAUTHORIZED' },
  { type: apigateway.ResponseType.EXPIRED_TOKEN, code: 'UNAUTHORIZED' },
  { type: apigateway.ResponseType.ACCESS_DENIED, code: 'FORBIDDEN' },
  { type: apigateway.ResponseType.THROTTLED, code: 'THROTTLED', headers: { 'Retry-After': '1' } },
  { type: apigateway.ResponseType.QUOTA_EXCEEDED, code: 'THROTTLED' },
  { type: apigateway.ResponseType.REQUEST_TOO_LARGE, code: 'PAYLOAD_TOO_LARGE' },
  { type: apigateway.ResponseType.UNSUPPORTED_MEDIA_TYPE, code: 'UNSUPPORTED_MEDIA_TYPE' },
  { type: apigateway.ResponseType.BAD_REQUEST_BODY, code: 'VALIDATION_ERROR', params: { field: 'body', reason: 'is invalid' } },
  { type: apigateway.ResponseType.BAD_REQUEST_PARAMETERS, code: 'VALIDATION_ERROR', params: { field: 'parameters', reason: 'are invalid' } },
  { type: apigateway.ResponseType.DEFAULT_4XX, code: 'VALIDATION_ERROR', status: 'gateway', params: { field: 'request', reason: 'was rejected by the API gateway' } },
  { type: apigateway.ResponseType.DEFAULT_5XX, code: 'INTERNAL_ERROR', status: 'gateway' },
];

/**
 * The response template: the catalogue's English message (API Gateway cannot read
 * Accept-Language here) and API Gateway's request id, which is also the functions' request id.
 */
export const gatewayErrorBody = (code: ErrorCode, params: MessageParams = {}): string => {
  const entry = errorCatalogue[code];
  const message = entry.message.en(params);
  // The template is Velocity: '$' and '#' would start an expression or a directive.
  if (/[$#]/.test(message)) throw new Error(`the ${code} message cannot be used in a gateway response template`);
  return JSON.stringify({ error_code: code, message, domain: entry.domain, request_id: '$context.requestId' });
};

/**
 * Adds every {@link GATEWAY_ERRORS} row to the API.
 *
 * @example
 * ```ts
 * addGatewayErrors(restApi); // an unknown route now answers 404 {"error_code":"ROUTE_NOT_FOUND",…}
 * ```
 */
export const addGatewayErrors = (api: apigateway.RestApi): void => {
  for (const error of GATEWAY_ERRORS) {
    const status = error.status ?? errorCatalogue[error.code].status;
    api.addGatewayResponse(`Error${error.type.responseType}`, {
      type: error.type,
      ...(status === 'gateway' ? {} : { statusCode: String(status) }),
      responseHeaders: Object.fromEntries(Object.entries(error.headers ?? {}).map(([name, value]) => [name, `'${value}'`])),
      templates: { 'application/json': gatewayErrorBody(error.code, error.params) },
    });
  }
};
