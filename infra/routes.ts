/**
 * The route table: every endpoint of the service, declared once.
 *
 * The CDK stack creates one function and one API Gateway method per row; the local
 * API Gateway emulator serves exactly the same rows. Paths use API Gateway's
 * `{param}` syntax and are relative to the API root (they include `/v1`).
 *
 * @example
 * ```ts
 * for (const r of routeTable('cargo')) console.log(r.method, r.path, r.entry);
 * ```
 */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Who may call a route: any signed-in operator, only supervisors, or anyone (no authorizer). */
export type Access = 'operator' | 'supervisor' | 'public';

export interface RouteDefinition {
  /** Stable identifier, used for construct ids and function names. */
  readonly id: string;
  readonly method: HttpMethod;
  /** API Gateway resource path, e.g. `/v1/box/{box_no}`. */
  readonly path: string;
  /** Handler module, relative to the repository root; it exports `handler`. */
  readonly entry: string;
  readonly access: Access;
}

/** Builds the route table for a service prefix (the `{service_prefix}` path segment of the SPEC). */
export const routeTable = (servicePrefix: string): readonly RouteDefinition[] => [
  { id: 'LocationRecord', method: 'POST', path: `/v1/${servicePrefix}/location`, entry: 'functions/location-record.ts', access: 'operator' },
  { id: 'LocationGet', method: 'GET', path: `/v1/${servicePrefix}/location/{cargo_no}`, entry: 'functions/location-get.ts', access: 'operator' },
  { id: 'BoxInfo', method: 'GET', path: '/v1/box/info', entry: 'functions/box-info.ts', access: 'operator' },
  { id: 'BoxSave', method: 'POST', path: '/v1/box', entry: 'functions/box-save.ts', access: 'operator' },
  { id: 'BoxSimpleSave', method: 'POST', path: '/v1/box/simple', entry: 'functions/box-simple.ts', access: 'operator' },
  { id: 'BoxEdit', method: 'PATCH', path: '/v1/box/{box_no}', entry: 'functions/box-edit.ts', access: 'supervisor' },
  { id: 'BoxUndo', method: 'DELETE', path: '/v1/box/{box_no}', entry: 'functions/box-undo.ts', access: 'supervisor' },
  { id: 'BoxHistory', method: 'GET', path: '/v1/box/{box_no}/history', entry: 'functions/box-history.ts', access: 'operator' },
  { id: 'ZongpaiRegister', method: 'POST', path: '/v1/zongpai', entry: 'functions/zongpai-register.ts', access: 'operator' },
  { id: 'ZongpaiGet', method: 'GET', path: '/v1/zongpai/{zongpai_no}', entry: 'functions/zongpai-get.ts', access: 'operator' },
  { id: 'ZongpaiClose', method: 'POST', path: '/v1/zongpai/{zongpai_no}/close', entry: 'functions/zongpai-close.ts', access: 'supervisor' },
  { id: 'OpenApi', method: 'GET', path: '/v1/openapi.json', entry: 'functions/openapi.ts', access: 'public' },
];
