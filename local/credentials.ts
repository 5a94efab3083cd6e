import { randomBytes } from 'node:crypto';
import { ROLE_NAMES } from '../lib/db/roles.ts';
import { DATA_API_ACTIONS, dataApiGrants, databaseUser, type DatabaseUserKind } from '../infra/grants.ts';
import type { DataApiIdentity, DataApiTarget } from './data-api/access.ts';

/** The local master user's secret: a call naming it runs as the backend's own connection user. */
const MASTER_SECRET = 'arn:aws:secretsmanager:local:000000000000:secret:cargo-local';

const USERS = Object.keys(ROLE_NAMES) as DatabaseUserKind[];

/** The local secret of one of the service's database users (lib/db/roles.ts), as the stack makes one for each. */
export const localSecretOf = (user: DatabaseUserKind): string => `${MASTER_SECRET}-${user}`;

/**
 * The local cluster, its secrets and database: what every local function is configured with
 * (`DB_CLUSTER_ARN`, `DB_NAME`, its own user's `DB_SECRET_ARN`) and what the Data API emulator
 * accepts. `secretArn` is the master's.
 */
export const localTarget = (env: Readonly<Record<string, string | undefined>>): DataApiTarget => ({
  resourceArn: 'arn:aws:rds:local:000000000000:cluster:cargo-local',
  secretArn: MASTER_SECRET,
  database: env.DB_NAME ?? 'cargo',
  users: USERS.map((user) => ({ secretArn: localSecretOf(user), username: ROLE_NAMES[user] })),
});

const newIdentity = (
  name: string,
  operations: DataApiIdentity['operations'],
  secrets: DataApiIdentity['secrets'],
): DataApiIdentity => ({
  name,
  // Temporary-credential style ids, new on every start: no key outlives the process that made it.
  accessKeyId: `ASIA${randomBytes(8).toString('hex').toUpperCase()}`,
  secretAccessKey: randomBytes(30).toString('base64'),
  operations,
  ...(secrets === undefined ? {} : { secrets }),
});

/**
 * The secret a local function signs in with: its database user's (`infra/grants.ts`), none for
 * a function without Data API operations.
 */
export const functionSecret = (functionId: string): string | undefined => {
  const user = databaseUser(functionId);
  return user === undefined ? undefined : localSecretOf(user);
};

/**
 * Credentials for one function, as Lambda gives each function its role's: the operations are
 * the function's grants from `infra/grants.ts`, and it may read its own database user's secret,
 * exactly as the CDK stack grants them. The migrator, signed in as the owner, may also read the
 * master's and the other users' secrets, as in the stack (`grantMigrationSecrets`).
 *
 * @example
 * ```ts
 * functionIdentity('BoxSave').operations; // ['ExecuteStatement']
 * functionIdentity('BoxInfo').secrets; // [the reader's secret]
 * ```
 */
export const functionIdentity = (functionId: string): DataApiIdentity => {
  const own = functionSecret(functionId);
  const readable = own === undefined ? [] : [own];
  // The migrator creates the roles: it reads the master's and every user's secret, as in the stack.
  const secrets = databaseUser(functionId) === 'owner' ? [MASTER_SECRET, ...USERS.map(localSecretOf)] : readable;
  return newIdentity(functionId, dataApiGrants(functionId), secrets);
};

/** Credentials allowed every Data API operation and every secret, as an operator's own AWS credentials would be (tools, tests). */
export const operatorIdentity = (name: string): DataApiIdentity => newIdentity(name, DATA_API_ACTIONS, undefined);
