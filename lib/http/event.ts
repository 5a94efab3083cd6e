import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';

/** Who called: the Cognito username and groups that API Gateway's authorizer verified. */
export interface Caller {
  readonly username: string;
  readonly groups: readonly string[];
}

/** Validated request parts, typed by the route's schemas. */
export interface RequestInput<B, P, Q> {
  readonly body: B;
  readonly path: P;
  readonly query: Q;
}

/**
 * The API Gateway proxy event as it flows through the middleware stack: each middleware
 * adds the part it is responsible for.
 */
export interface ServiceEvent extends APIGatewayProxyEvent {
  caller?: Caller;
  /** The body parsed from JSON (`undefined` when the request had none). */
  json?: unknown;
  input?: RequestInput<unknown, unknown, unknown>;
}

export type ServiceResult = APIGatewayProxyResult;
