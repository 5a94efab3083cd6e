import type { RoleNames } from '../lib/db/roles.ts';
import type { DataApiAction } from '../lib/http/route.ts';
import { loadedRoutes } from './routes.ts';

/**
 * Which RDS Data API operations each function may call, as each function declares it in its own
 * file (`dataApi` of its task or route spec; `STATEMENT` for a route that declares none): what both
 * the CDK stack (its IAM policies) and the local runtime (its Data API emulator) read, so that a
 * call the stack would deny is denied on a developer's machine too.
 *
 * A function with a grant may also read the database secret (`secretsmanager:GetSecretValue`),
 * without which the Data API cannot connect; a function with none gets neither.
 *
 * @example
 * ```ts
 * dataApiGrants('BoxSave'); // ['ExecuteStatement']
 * dataApiGrants('OpenApi'); // []
 * ```
 */
export type { DataApiAction } from '../lib/http/route.ts';

export const DATA_API_ACTIONS: readonly DataApiAction[] = [
  'ExecuteStatement',
  'BatchExecuteStatement',
  'BeginTransaction',
  'CommitTransaction',
  'RollbackTransaction',
];

/** Each function's Data API operations, from the discovered declarations (`loadRoutes`). */
const grants = (): ReadonlyMap<string, readonly DataApiAction[]> => {
  const { routeSpecs, tasks } = loadedRoutes();
  return new Map([
    ...routeSpecs.map((spec) => [spec.id, spec.dataApi] as const),
    ...tasks.map(({ id, task }) => [id, task.dataApi] as const),
  ]);
};

/** A database user of the service (lib/db/roles.ts): the owner, the service user, the reader or the maintenance user. */
export type DatabaseUserKind = keyof RoleNames;

const users = (): ReadonlyMap<string, DatabaseUserKind | undefined> => {
  const { routeSpecs, tasks } = loadedRoutes();
  return new Map([
    ...routeSpecs.map(
      (spec) =>
        [spec.id, spec.dataApi.length === 0 ? undefined : spec.method === 'GET' ? 'reader' : 'service'] as const,
    ),
    ...tasks.map(({ id, task }) => [id, task.databaseUser] as const),
  ]);
};

/** Every function's id: the routes' and the tasks'. */
export const functionIds = (): readonly string[] => [...grants().keys()];

/**
 * The database user a function signs in as, whose secret alone it may read: a GET route only
 * reads (the reader), any other route writes (the service user), a task says which it is (the
 * scheduled ones the maintenance user); a function without Data API operations has none.
 *
 * @example
 * ```ts
 * databaseUser('BoxInfo'); // 'reader'
 * databaseUser('BoxSave'); // 'service'
 * databaseUser('EventRelay'); // 'maintenance'
 * databaseUser('Migrate'); // 'owner'
 * ```
 */
export const databaseUser = (functionId: string): DatabaseUserKind | undefined => {
  dataApiGrants(functionId);
  return users().get(functionId);
};

/** The Data API operations of a function; a function that declares none fails loudly. */
export const dataApiGrants = (functionId: string): readonly DataApiAction[] => {
  const granted = grants().get(functionId);
  if (granted === undefined) throw new Error(`${functionId}: no function declares this id in functions/`);
  return granted;
};
