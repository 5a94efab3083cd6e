import type { RouteDefinition } from '../infra/routes.ts';

/** One API Gateway resource: its static children, its `{param}` child and its methods. */
export interface Resource {
  readonly children: Map<string, Resource>;
  param?: { readonly name: string; readonly resource: Resource };
  readonly methods: Map<string, RouteDefinition>;
}

const newResource = (): Resource => ({ children: new Map(), methods: new Map() });

/** The resource tree of a route table, as the stack creates it with `resourceForPath`. */
export const resourceTree = (routes: readonly RouteDefinition[]): Resource => {
  const root = newResource();
  for (const route of routes) {
    let node = root;
    for (const segment of route.path.split('/').filter((s) => s !== '')) {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (param === null) {
        const next = node.children.get(segment) ?? newResource();
        node.children.set(segment, next);
        node = next;
      } else {
        node.param ??= { name: param[1] as string, resource: newResource() };
        node = node.param.resource;
      }
    }
    node.methods.set(route.method, route);
  }
  return root;
};

export interface ResourceMatch {
  readonly resource: Resource;
  /** Decoded `{param}` values; `malformed` when one is not valid percent-encoding. */
  readonly pathParameters: Record<string, string> | null | 'malformed';
}

const walk = (
  node: Resource,
  segments: readonly string[],
  at: number,
  raw: Record<string, string>,
): { resource: Resource; raw: Record<string, string> } | undefined => {
  if (at === segments.length) return { resource: node, raw };
  const segment = segments[at] as string;
  // A static resource wins over a {param} sibling; the parameter is tried only when the
  // static branch has no resource for the rest of the path.
  const child = node.children.get(segment);
  const viaStatic = child === undefined ? undefined : walk(child, segments, at + 1, raw);
  if (viaStatic !== undefined) return viaStatic;
  if (node.param === undefined || segment === '') return undefined;
  return walk(node.param.resource, segments, at + 1, { ...raw, [node.param.name]: segment });
};

/**
 * Finds the resource a path names, as API Gateway REST resolves it: by resource, before and
 * independently of the method (a method the resource lacks is then refused, it never falls
 * through to a `{param}` sibling). A trailing slash names the same resource, as on AWS
 * (https://github.com/aws/aws-sam-cli/pull/1495: "/foo/" is answered by the method defined
 * for "/foo"); the function still sees the path as sent.
 *
 * @example
 * ```ts
 * matchResource(resourceTree(routes), '/v1/box/info')?.resource.methods.has('PATCH'); // false
 * ```
 */
export const matchResource = (root: Resource, pathname: string): ResourceMatch | undefined => {
  const segments = pathname.split('/').slice(1);
  if (segments.length > 1 && segments.at(-1) === '') segments.pop();
  if (segments.length === 1 && segments[0] === '') segments.pop();
  const found = walk(root, segments, 0, {});
  if (found === undefined) return undefined;
  const names = Object.keys(found.raw);
  if (names.length === 0) return { resource: found.resource, pathParameters: null };
  try {
    return {
      resource: found.resource,
      pathParameters: Object.fromEntries(names.map((n) => [n, decodeURIComponent(found.raw[n] as string)])),
    };
  } catch {
    return { resource: found.resource, pathParameters: 'malformed' };
  }
};

/** A request target's path, exactly as sent, and its query string. */
export const splitTarget = (target: string): { path: string; query: string } => {
  const at = target.indexOf('?');
  return at === -1 ? { path: target, query: '' } : { path: target.slice(0, at), query: target.slice(at + 1) };
};
