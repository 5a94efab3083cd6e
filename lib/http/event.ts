import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { Idempotency } from '../db/write.ts';

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
 * What the middleware steps learn of a request, each its own part, in the order they run
 * (`routeHandler`, lib/http/route.ts). This is the one place request state is kept: one typed
 * field of the event, `event.state`, set once at the start of each invocation (a step run on its
 * own creates it, {@link requestState}); no step keeps state anywhere else, and the route's
 * `handle` receives it as its `RouteRequest`.
 */
export interface RequestState {
  /** The verified caller (`authorize`); absent on a public route. */
  caller?: Caller;
  /** The body parsed from JSON (`jsonBody`); absent when the request had none. */
  json?: unknown;
  /** The path, query and body as the route's schemas validated and normalised them (`validate`). */
  input?: RequestInput<unknown, unknown, unknown>;
  /** A write's `Idempotency-Key`, with the identity of the request it names (`idempotencyKey`). */
  idempotency?: Idempotency;
  /** The version a versioned write is based on, from the body or `If-Match` (`ifMatch`). */
  version?: number;
}

/** The API Gateway proxy event as it flows through the middleware stack, with the request's state. */
export interface ServiceEvent extends APIGatewayProxyEvent {
  state?: RequestState;
}

/** The request's state: created at the first call, the same object after. */
export const requestState = (event: ServiceEvent): RequestState => (event.state ??= {});

export type ServiceResult = APIGatewayProxyResult;
