import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { RouteSpec, TaskSpec } from '../lib/http/route.ts';
import { routePath } from '../lib/http/route.ts';
import type { Config } from '../lib/config.ts';
import { buildOpenApiDocument } from '../lib/openapi/document.ts';
import type { RouteDocsOf, RouteDocumentation } from '../lib/openapi/route-docs.ts';

/**
 * How long a route's function may run: Lambda stops it then. API Gateway stops waiting after
 * 29 s, so a function answers (503 at worst) before that. The stack's functions and the local
 * gateway both take it from here.
 */
export const ROUTE_TIMEOUT_SECONDS = 28;

/**
 * The route table, discovered: every `functions/*.ts` that exports a route `spec` (see
 * `defineRoute` in lib/http/route.ts) is a route, every one that exports a `task` is a non-route
 * function (migrations, maintenance). Nothing else lists routes: the CDK stack, the local API
 * Gateway emulator, the Data API grants and the OpenAPI document all derive from this.
 *
 * Importing a handler module never reads its environment (the runtime is built at the first
 * invocation), so discovery works with any environment.
 *
 * @example
 * ```ts
 * for (const r of (await loadRoutes()).routeTable('cargo')) console.log(r.method, r.path, r.entry);
 * ```
 */
export type { DataApiAction, HttpMethod } from '../lib/http/route.ts';

/** Who may call a route: any signed-in operator, only supervisors, or anyone (no authorizer). */
export type Access = RouteSpec['access'];

export interface RouteDefinition {
  /** Stable identifier, used for construct ids and function names. */
  readonly id: string;
  readonly method: RouteSpec['method'];
  /** API Gateway resource path, e.g. `/v1/box/{box_no}` (the service prefix resolved). */
  readonly path: string;
  /** Handler module, relative to the repository root; it exports `handler`. */
  readonly entry: string;
  readonly access: Access;
  /** The declaration itself (schemas, example, grant) and its documentation; absent in a hand-made table (gateway tests). */
  readonly spec?: DocumentedRoute;
}

/** A route's declaration with its documentation (functions/api-docs/), which no function bundle carries. */
export type DocumentedRoute = RouteSpec<any, any, any> & { readonly docs?: RouteDocsOf };

/** A function that is not a route, with its declaration. */
export interface TaskDefinition {
  readonly id: string;
  readonly entry: string;
  readonly task: TaskSpec<unknown>;
}

const FUNCTIONS = fileURLToPath(new URL('../functions/', import.meta.url));
/** Each route's documentation, in a file named as the route's: read here, by the route's id, and by no function. */
const API_DOCS = `${FUNCTIONS}api-docs/`;

/** What discovery found: the declared routes and tasks, and what is derived from them. */
export interface Routes {
  /** The declared routes, in file order, each with its documentation (`docs`, absent when it has none). */
  readonly routeSpecs: readonly (DocumentedRoute & { readonly entry: string })[];
  /** The declared non-route functions (migrations, maintenance). */
  readonly tasks: readonly TaskDefinition[];
  /** Builds the route table for a service prefix (the `{service_prefix}` path segment of the SPEC). */
  readonly routeTable: (servicePrefix: string) => readonly RouteDefinition[];
  /**
   * The OpenAPI document of every declared route for a configuration, as the OpenAPI function
   * serves it: the stack writes it beside that function's bundle (openapi.json), the local runtime
   * hands it over in the function's environment (`API_DOCUMENT`).
   */
  readonly apiDocument: (config: Config) => string;
}

const discover = async (): Promise<Routes> => {
  const discovered = await Promise.all(
    readdirSync(FUNCTIONS)
      .filter((file) => file.endsWith('.ts'))
      .sort()
      .map(async (file) => {
        const module = (await import(pathToFileURL(`${FUNCTIONS}${file}`).href)) as {
          spec?: RouteSpec<any, any, any>;
          task?: TaskSpec<unknown>;
        };
        if (module.spec === undefined && module.task === undefined)
          throw new Error(`functions/${file} exports neither a route spec nor a task`);
        return { entry: `functions/${file}`, ...module };
      }),
  );
  const documentation = new Map<string, RouteDocsOf>();
  for (const file of readdirSync(API_DOCS)
    .filter((name) => name.endsWith('.ts'))
    .sort()) {
    const module = (await import(pathToFileURL(`${API_DOCS}${file}`).href)) as { documentation?: RouteDocumentation };
    const { id, docs } = module.documentation ?? {};
    if (id === undefined || docs === undefined)
      throw new Error(`functions/api-docs/${file} exports no route's documentation (documentRoute)`);
    if (!discovered.some(({ spec }) => spec?.id === id))
      throw new Error(`functions/api-docs/${file} documents ${id}, which no functions/*.ts declares`);
    if (documentation.has(id)) throw new Error(`functions/api-docs/${file} documents ${id} a second time`);
    documentation.set(id, docs);
  }
  const routeSpecs = discovered.flatMap(({ spec, entry }) =>
    spec === undefined ? [] : [{ ...spec, entry, docs: documentation.get(spec.id) }],
  );
  const tasks = discovered.flatMap(({ task, entry }) => (task === undefined ? [] : [{ id: task.id, entry, task }]));
  const routeTable = (servicePrefix: string): readonly RouteDefinition[] =>
    routeSpecs.map((spec) => ({
      id: spec.id,
      method: spec.method,
      path: routePath(spec, servicePrefix),
      entry: spec.entry,
      access: spec.access,
      spec,
    }));
  const apiDocument = (config: Config): string =>
    JSON.stringify(buildOpenApiDocument(config, routeTable(config.servicePrefix)));
  return { routeSpecs, tasks, routeTable, apiDocument };
};

let loading: Promise<Routes> | undefined;
let loaded: Routes | undefined;

/**
 * Discovers the routes and tasks in functions/, once per process: importing this module does
 * nothing, its users call this (infra/app.ts before the stack, the local runtime at its start,
 * `npm run docs`, the benchmarks and the tests).
 *
 * @example
 * ```ts
 * const { routeTable } = await loadRoutes();
 * ```
 */
export const loadRoutes = (): Promise<Routes> => (loading ??= discover().then((routes) => (loaded = routes)));

/** What `loadRoutes` found, for synchronous code that runs after it (the stack's constructs, the grants). */
export const loadedRoutes = (): Routes => {
  if (loaded === undefined)
    throw new Error('the routes are not discovered yet: await loadRoutes() first (infra/routes.ts)');
  return loaded;
};
