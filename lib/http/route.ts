import middy, { type MiddlewareObj } from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Context } from 'aws-lambda';
import type { Role } from '../contract/roles.ts';
import type { Db } from '../db/types.ts';
import type { Idempotency } from '../db/write.ts';
import { makeFieldCodes } from '../rules/fields.ts';
import { makeRuntime, type Environment, type Runtime } from '../runtime.ts';
import { ANSWER_HEADERS } from './answer-headers.ts';
import { authorize } from './authorize.ts';
import { errorResponder } from './error-responder.ts';
import { lowerCaseHeaderNames } from './header-names.ts';
import { requestState, type Caller, type RequestInput, type ServiceEvent, type ServiceResult } from './event.ts';
import { idempotencyKey } from './idempotency.ts';
import { ifMatch, type VersionRule } from './if-match.ts';
import { isTextAnswer } from './text-answer.ts';
import { jsonBody } from './json-body.ts';
import { validate, type RequestSchemas } from './validate.ts';

declare global {
  interface ImportMeta {
    /** Defined true in a function bundle: checks the tests run over every fixed statement are left out (see compileWrite). */
    readonly bundled?: true;
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The RDS Data API operations a function may call (its IAM grant in the stack, and in the local Data API emulator). */
export type DataApiAction =
  'ExecuteStatement' | 'BatchExecuteStatement' | 'BeginTransaction' | 'CommitTransaction' | 'RollbackTransaction';

/** A request function runs exactly one statement per request: nothing else. */
export const STATEMENT: readonly DataApiAction[] = ['ExecuteStatement'];

/**
 * What a route's handler receives: the request's state as the middleware steps left it
 * (`RequestState`, lib/http/event.ts), typed by the route's declaration, and the request headers.
 */
export interface RouteRequest<B, P, Q, V = undefined> extends RequestInput<B, P, Q> {
  readonly caller: Caller;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** Present when a write carries an `Idempotency-Key`; hand it to the domain's write. */
  readonly idempotency?: Idempotency;
  /** The version a versioned write is based on, read by its `versioned` rule; `undefined` on any other route. */
  readonly version: V;
}

/** A success answer whose status is not the route's declared one (a PUT that created: 201). */
export class Answer {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

/** Answers `body` with `status` instead of the route's declared status. */
export const answerWith = (status: number, body: unknown): Answer => new Answer(status, body);

/** A request that passes the route's validation: what the auth matrix, hostile-input tests and the benchmark start from. */
export interface RouteExample {
  readonly path?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/**
 * What a route's operation is built from, once per function: a capability's `makeX({ db, config })`
 * (lib/<capability>/) takes what it needs of it. The Data API adapter is created when it is taken.
 */
export interface RouteDependencies extends Pick<Runtime, 'env' | 'config' | 'logger'> {
  readonly db: Db;
}

/**
 * A route as its file declares it, beside its handler in `functions/<name>.ts`; {@link defineRoute}
 * makes it the {@link RouteSpec} everything else reads. Its keys are written in this order: what the
 * route is, who may call it, its answer, its input, its operation. What the API reference says of it
 * beyond that is written beside it, in `functions/api-docs/<name>.ts` (`documentRoute`,
 * lib/openapi/route-docs.ts), which no function imports.
 */
export interface RouteDeclaration<B = unknown, P = unknown, Q = unknown, O = unknown, V = any> {
  /** Stable identifier (construct ids, function names, OpenAPI operation ids). */
  readonly id: string;
  readonly method: HttpMethod;
  /** API Gateway resource path from the API root, e.g. `/v1/box/{box_no}`; `{service_prefix}` is SERVICE_PREFIX. */
  readonly path: string;
  /** Who may call it: any signed-in operator, only supervisors, or anyone (no authorizer). */
  readonly access: Role;
  /** The status of a successful answer. */
  readonly status: number;
  /** Its Data API grant, declared only where it is not the rule: {@link STATEMENT}, one statement per request. */
  readonly dataApi?: readonly DataApiAction[];
  /**
   * The write is based on the version the client names, the body's `version` or an `If-Match`
   * header, read by this rule (`BOX_VERSION`, `RECORD_VERSION`, `LOCATION_VERSION` in
   * lib/http/if-match.ts) in one step before `handle`, which receives it as `version`.
   */
  readonly versioned?: VersionRule<V & (number | undefined)>;
  /** A request that passes validation. */
  readonly example: RouteExample;
  /** The request's schemas, for this configuration: what is validated, and what the OpenAPI document shows. */
  readonly schemas?: (runtime: Pick<Runtime, 'config' | 'fields'>) => RequestSchemas<B, P, Q>;
  /** The function serves the OpenAPI document, rendered from every declaration where all are known (`API_DOCUMENT_FILE`). */
  readonly describesApi?: true;
  /** Builds the operation the route calls, once per function: usually a capability's `makeX`. */
  readonly make: (dependencies: RouteDependencies) => O;
  /**
   * The route's logic: calls the operation with the validated input (it only ever sees valid
   * input). A method, so that a declaration is a `RouteSpec` whatever its operation. What it
   * returns is answered as JSON, unless it is a `TextAnswer` (lib/http/text-answer.ts): then as
   * that text with its own media type.
   */
  handle(operation: O, request: RouteRequest<B, P, Q, V>): Promise<unknown>;
}

/**
 * A route, declared once (a {@link RouteDeclaration}). The CDK stack, the local gateway, the Data API
 * grants, the OpenAPI document and the coverage tests all read it.
 */
export interface RouteSpec<B = unknown, P = unknown, Q = unknown, O = unknown, V = any> extends RouteDeclaration<
  B,
  P,
  Q,
  O,
  V
> {
  /**
   * Its Data API grant; a function with none also gets no database secret. A GET signs in as the
   * database user that may only read, any other method as the service user (infra/grants.ts).
   */
  readonly dataApi: readonly DataApiAction[];
}

/**
 * Declares a route: typed so that `handle` sees what `schemas` validates and what `make` builds;
 * a route that declares no `dataApi` is granted {@link STATEMENT}.
 *
 * @example
 * ```ts
 * export const spec = defineRoute({
 *   id: 'ZongpaiGet',
 *   method: 'GET',
 *   path: '/v1/zongpai/{zongpai_no}',
 *   access: 'reader',
 *   status: 200,
 *   example: { path: { zongpai_no: 'PLT-0001' } },
 *   schemas: ({ fields }) => ({ path: makeZongpaiSchemas(fields).zongpaiPath }),
 *   make: makeZongpaiGet,
 *   handle: (get, { path }) => get(path.zongpai_no),
 * });
 * export const handler = lambdaHandler(spec, process.env);
 * ```
 */
export const defineRoute = <B = undefined, P = undefined, Q = undefined, O = unknown, V = undefined>(
  declaration: RouteDeclaration<B, P, Q, O, V>,
): RouteSpec<B, P, Q, O, V> => ({ ...declaration, dataApi: declaration.dataApi ?? STATEMENT });

/** The route's path for a service prefix. */
export const routePath = (spec: Pick<RouteSpec, 'path'>, servicePrefix: string): string =>
  spec.path.replace('{service_prefix}', servicePrefix);

const anonymous: Caller = { username: 'anonymous', groups: [] };

/** The request's one state, new at the start of each invocation: an event object handed in twice starts afresh. */
const freshState: MiddlewareObj<ServiceEvent, ServiceResult> = {
  before: ({ event }) => {
    event.state = {};
  },
};

type ProxyHandler = (event: ServiceEvent, context: Context) => Promise<ServiceResult>;

/**
 * Wraps a route's logic in the one middleware stack every handler uses: unified errors,
 * Powertools logging with the Lambda context, lower-cased headers, the role check, JSON body
 * parsing (on a route that takes a body), Zod validation with the SPEC's error codes, the
 * `Idempotency-Key` and, on a versioned route, the version its `If-Match` step reads. Each step keeps what it learns in the request's one
 * state (`event.state`, lib/http/event.ts); `handle` receives it.
 */
export const routeHandler = <B, P, Q, O, V>(spec: RouteSpec<B, P, Q, O, V>, runtime: Runtime): ProxyHandler => {
  const { config, logger } = runtime;
  const schemas = spec.schemas?.(runtime) ?? {};
  const operation = spec.make({
    env: runtime.env,
    config,
    logger,
    get db() {
      return runtime.db();
    },
  });
  const stack = middy<ServiceEvent, ServiceResult, Error, Context>()
    .use(errorResponder({ logger }))
    .use(freshState)
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(lowerCaseHeaderNames())
    .use(authorize(spec.access, { clientId: config.userPoolClientId }))
    // A route that takes no body (every GET) does not read one a client sends along.
    .use(schemas.body === undefined ? [] : [jsonBody()])
    .use(validate(schemas, makeFieldCodes(config)))
    .use(idempotencyKey(config.idempotencyTtlHours));
  return (spec.versioned === undefined ? stack : stack.use(ifMatch(spec.versioned))).handler(
    async (event): Promise<ServiceResult> => {
      const { input, caller, idempotency, version } = requestState(event);
      if (input === undefined) throw new Error('the request reached the handler unvalidated');
      // `validate` parsed the input with this route's schemas, and its `versioned` rule read the version.
      const answer = await spec.handle(operation, {
        ...(input as RequestInput<B, P, Q>),
        caller: caller ?? anonymous,
        idempotency,
        version: version as V,
        headers: event.headers ?? {},
      });
      if (isTextAnswer(answer))
        return {
          statusCode: spec.status,
          headers: { ...ANSWER_HEADERS, 'content-type': answer.contentType },
          body: answer.text,
        };
      const [statusCode, body] = answer instanceof Answer ? [answer.status, answer.body] : [spec.status, answer];
      return {
        statusCode,
        headers: { ...ANSWER_HEADERS },
        body: JSON.stringify(body),
      };
    },
  );
};

/**
 * The Lambda handler of a route: the only place a function's environment is read. The runtime
 * is built at the first invocation, not at import, so importing a handler never throws; a bad
 * setting fails that invocation loudly with the `ConfigError` naming it (and the next one again).
 *
 * @example
 * ```ts
 * export const handler = lambdaHandler(spec, process.env);
 * ```
 */
export const lambdaHandler = <B, P, Q, O, V>(spec: RouteSpec<B, P, Q, O, V>, env: Environment): ProxyHandler => {
  let built: ProxyHandler | undefined;
  return async (event, context) => {
    built ??= routeHandler(spec, makeRuntime(env));
    return built(event, context);
  };
};

/**
 * A function that is not a route (the migrations, the scheduled maintenance, the event relay): its
 * id, its Data API grant, its database user and its work, declared in its own file like a route.
 */
export interface TaskSpec<R> {
  readonly id: string;
  readonly dataApi: readonly DataApiAction[];
  /**
   * The database user it signs in as (lib/db/roles.ts): the schema's owner (migrations) or the
   * maintenance user (the scheduled tasks).
   */
  readonly databaseUser: 'owner' | 'maintenance';
  readonly run: (runtime: Runtime, env: Environment) => Promise<R>;
}

export const defineTask = <R>(spec: TaskSpec<R>): TaskSpec<R> => spec;

/** The Lambda handler of a task; like {@link lambdaHandler}, it reads its environment at the first invocation. */
export const taskHandler = <R>(spec: TaskSpec<R>, env: Environment): (() => Promise<R>) => {
  let runtime: Runtime | undefined;
  return async () => spec.run((runtime ??= makeRuntime(env)), env);
};
