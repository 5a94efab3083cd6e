import type { MiddlewareObj } from '@middy/core';
import { AppError } from '../errors/app-error.ts';
import type { Caller, ServiceEvent, ServiceResult } from './event.ts';

/** Which group a route needs: operators may scan, save and query; supervisors may do everything. */
export type Role = 'operator' | 'supervisor' | 'public';

const allowedGroups: Record<Exclude<Role, 'public'>, readonly string[]> = {
  operator: ['operator', 'supervisor'],
  supervisor: ['supervisor'],
};

/**
 * Cognito's authorizer hands every claim over as a string; groups arrive as
 * `"operator,supervisor"` or `"[operator supervisor]"` depending on the token, so both are read.
 */
export const parseGroups = (claim: unknown): string[] => {
  if (Array.isArray(claim)) return claim.map(String);
  if (typeof claim !== 'string') return [];
  return claim
    .replace(/^\[|\]$/g, '')
    .split(/[\s,]+/)
    .filter((g) => g.length > 0);
};

/** Reads the caller from the authorizer claims; `undefined` when there is no signed-in user. */
export const callerFromEvent = (event: ServiceEvent): Caller | undefined => {
  const claims = event.requestContext?.authorizer?.claims as Record<string, unknown> | undefined;
  const username = claims?.['cognito:username'] ?? claims?.username;
  if (typeof username !== 'string' || username.length === 0) return undefined;
  return { username, groups: parseGroups(claims?.['cognito:groups']) };
};

/**
 * Middleware: requires a verified caller in one of the role's groups.
 * API Gateway already rejected missing or invalid tokens; this is the group check it cannot do,
 * and a second line of defence should a route ever be deployed without the authorizer.
 *
 * @example
 * ```ts
 * middy().use(authorize('supervisor'));
 * ```
 */
export const authorize = (role: Role): MiddlewareObj<ServiceEvent, ServiceResult> => ({
  before: (request) => {
    if (role === 'public') return;
    const caller = callerFromEvent(request.event);
    if (caller === undefined) throw new AppError('UNAUTHORIZED');
    if (!caller.groups.some((g) => allowedGroups[role].includes(g))) throw new AppError('FORBIDDEN', { rule: role });
    request.event.caller = caller;
  },
});
