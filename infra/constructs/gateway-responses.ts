import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import { errorCatalogue, type ErrorCode, type MessageParams } from '../../lib/errors/catalogue.ts';
import { GATEWAY_ERRORS, gatewayErrorFields, gatewayErrorHeaders } from '../gateway-errors.ts';

/**
 * The response template: the catalogue's English message (API Gateway cannot read
 * Accept-Language here) and API Gateway's request id, which is also the functions' request id.
 */
export const gatewayErrorBody = (code: ErrorCode, params: MessageParams = {}): string => {
  const fields = gatewayErrorFields({ type: 'DEFAULT_4XX', code, params });
  // The template is Velocity: '$' and '#' would start an expression or a directive.
  if (/[$#]/.test(fields.message)) throw new Error(`the ${code} message cannot be used in a gateway response template`);
  return JSON.stringify({ ...fields, request_id: '$context.requestId' });
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
    api.addGatewayResponse(`Error${error.type}`, {
      type: apigateway.ResponseType.of(error.type),
      ...(status === 'gateway' ? {} : { statusCode: String(status) }),
      responseHeaders: Object.fromEntries(
        Object.entries(gatewayErrorHeaders(error)).map(([name, value]) => [name, `'${value}'`]),
      ),
      templates: { 'application/json': gatewayErrorBody(error.code, error.params) },
    });
  }
};
