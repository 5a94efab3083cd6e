import type { MiddlewareObj } from '@middy/core';
import { ROLE_GROUPS, type Role } from '../contract/roles.ts';
import { AppError } from '../errors/app-error.ts';
import { requestState, type Caller, type ServiceEvent, type ServiceResult } from './event.ts';

export interface AuthorizeOptions {
  /** The stack's app client: an ID token issued to another client of a shared pool is refused. */
  readonly clientId?: string;
}

type Claims = Readonly<Record<string, unknown>>;

/** The payload of the bearer token the function received, without checking it (API Gateway did). */
const tokenPayload = (event: ServiceEvent): Claims | undefined => {
  const values = Object.entries(event.multiValueHeaders ?? {})
    .filter(([name]) => name.toLowerCase() === 'authorization')
    .flatMap(([, v]) => v ?? []);
  const single = Object.entries(event.headers ?? {})
    .filter(([name]) => name.toLowerCase() === 'authorization')
    .map(([, v]) => v);
  const all = values.length > 0 ? values : single;
  // Two credentials in one request: which one the authorizer checked cannot be known here.
  if (all.length !== 1 || typeof all[0] !== 'string') return undefined;
  const payload = all[0].replace(/^Bearer\s+/i, '').split('.')[1];
  if (payload === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Claims) : undefined;
  } catch {
    return undefined;
  }
};

/** The token is the one the claims were read from: same user, audience and token id. */
const sameToken = (token: Claims, claims: Claims) =>
  ['sub', 'cognito:username', 'aud', 'jti'].every((name) => claims[name] === undefined || token[name] === claims[name]);

/**
 * The caller's groups from the `cognito:groups` claim as API Gateway's Cognito user pool
 * authorizer hands it to a Lambda proxy integration: every claim is a string, and a list is
 * joined with bare commas (`operator,supervisor`; one group is just its name). Only the
 * HTTP API's JWT authorizer writes lists as `[a b]`; brackets and spaces are not separators
 * here, so a group named `[supervisor]` or `ops supervisor` is a group of that exact name.
 * See https://repost.aws/questions/QUFJRBaEJRSmmqarNrvCWoQA (a single group arrives as its
 * bare name) and https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-enable-cognito-user-pool.html.
 *
 * Cognito allows commas in group names, so `operator,supervisor` may also be ONE group of
 * that name. When the claim has a comma, the groups are read from the ID token the
 * function received (the one API Gateway verified) after checking it is the token of these
 * claims and that its list joins to the claim; otherwise no group is granted.
 *
 * @example
 * ```ts
 * parseGroups({ 'cognito:groups': 'operator' }); // ['operator']
 * parseGroups({ 'cognito:groups': '[supervisor]' }); // ['[supervisor]'], which grants nothing
 * ```
 */
const parseGroups = (claims: Claims, token?: Claims): string[] => {
  const claim = claims['cognito:groups'];
  if (typeof claim !== 'string' || claim === '') return [];
  if (!claim.includes(',')) return [claim];
  const listed = token?.['cognito:groups'];
  if (
    token === undefined ||
    !sameToken(token, claims) ||
    !Array.isArray(listed) ||
    !listed.every((g) => typeof g === 'string')
  )
    return [];
  return listed.join(',') === claim ? listed : [];
};

/** Reads the caller from the authorizer claims; `undefined` when there is no signed-in user. */
const callerFromEvent = (event: ServiceEvent): Caller | undefined => {
  const claims = event.requestContext?.authorizer?.claims as Claims | undefined;
  const username = claims?.['cognito:username'];
  if (claims === undefined || typeof username !== 'string' || username.length === 0) return undefined;
  const groups = parseGroups(
    claims,
    typeof claims['cognito:groups'] === 'string' && claims['cognito:groups'].includes(',')
      ? tokenPayload(event)
      : undefined,
  );
  return { username, groups };
};

/**
 * Middleware: requires a verified caller with an ID token of the stack's app client, in one
 * of the role's groups. API Gateway already rejected missing or invalid tokens; this is the
 * audience and group check its Cognito authorizer cannot do, and a second line of defence
 * should a route ever be deployed without the authorizer.
 *
 * @example
 * ```ts
 * middy().use(authorize('supervisor', { clientId: config.userPoolClientId }));
 * ```
 */
export const authorize = (role: Role, options: AuthorizeOptions = {}): MiddlewareObj<ServiceEvent, ServiceResult> => ({
  before: (request) => {
    if (role === 'public') return;
    const claims = request.event.requestContext?.authorizer?.claims as Claims | undefined;
    const caller = callerFromEvent(request.event);
    if (caller === undefined || claims?.token_use !== 'id') throw new AppError('UNAUTHORIZED');
    if (options.clientId !== undefined && claims.aud !== options.clientId) throw new AppError('UNAUTHORIZED');
    const groups = ROLE_GROUPS[role];
    // The refusal names the groups, as the user pool spells them; the role is this service's own word.
    if (!caller.groups.some((g) => groups.includes(g))) throw new AppError('FORBIDDEN', { rule: groups.join(',') });
    requestState(request.event).caller = caller;
  },
});
