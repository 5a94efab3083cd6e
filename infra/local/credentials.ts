import { randomBytes } from 'node:crypto';
import { DATA_API_ACTIONS, dataApiGrants } from '../grants.ts';
import type { DataApiIdentity, DataApiTarget } from './data-api/access.ts';

/**
 * The local cluster, its secret and database: what every local function is configured with
 * (`DB_CLUSTER_ARN`, `DB_SECRET_ARN`, `DB_NAME`) and what the Data API emulator accepts.
 */
export const localTarget = (env: Readonly<Record<string, string | undefined>>): DataApiTarget => ({
  resourceArn: 'arn:aws:rds:local:000000000000:cluster:cargo-local',
  secretArn: 'arn:aws:secretsmanager:local:000000000000:secret:cargo-local',
  database: env.DB_NAME ?? 'cargo',
});

const newIdentity = (name: string, operations: DataApiIdentity['operations']): DataApiIdentity => ({
  name,
  // Temporary-credential style ids, new on every start: no key outlives the process that made it.
  accessKeyId: `ASIA${randomBytes(8).toString('hex').toUpperCase()}`,
  secretAccessKey: randomBytes(30).toString('base64'),
  operations,
});

/**
 * Credentials for one function, as Lambda gives each function its role's: the operations are
 * the function's grants from `infra/grants.ts`, exactly as the CDK stack grants them.
 *
 * @example
 * ```ts
 * functionIdentity('BoxSave').operations; // ['ExecuteStatement']
 * ```
 */
export const functionIdentity = (functionId: string): DataApiIdentity =>
  newIdentity(functionId, dataApiGrants(functionId));

/** Credentials allowed every Data API operation, as an operator's own AWS credentials would be (tools, tests). */
export const operatorIdentity = (name: string): DataApiIdentity => newIdentity(name, DATA_API_ACTIONS);
