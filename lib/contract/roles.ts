/**
 * Who may call a route: each route's `access` role, and the user pool groups a role admits. The
 * functions check a caller's groups by this table and the API reference lists them per route from
 * it, so that the two cannot differ.
 */

/**
 * Which group a route needs: operators may scan, save and query; supervisors may do everything;
 * `reader` routes only read (box info, zongpais, orders, locations) and also admit an ERP's
 * technical user in the `integration` group, which may do nothing else.
 */
export type Role = 'operator' | 'supervisor' | 'reader' | 'integration' | 'public';

/**
 * The groups each role admits, as the user pool spells them; a `public` route admits anyone.
 *
 * @example
 * ```ts
 * ROLE_GROUPS.reader; // ['operator', 'supervisor', 'integration']
 * ```
 */
export const ROLE_GROUPS: Record<Exclude<Role, 'public'>, readonly string[]> = {
  operator: ['operator', 'supervisor'],
  supervisor: ['supervisor'],
  reader: ['operator', 'supervisor', 'integration'],
  /** The change feed: an ERP's technical user, and supervisors. */
  integration: ['supervisor', 'integration'],
};
