import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { awsClientOptions, type Environment } from '../runtime.ts';
import type { DatabaseUser } from './roles.ts';

/**
 * Reads a database user (`username`, `password`) from its Secrets Manager secret: the secrets
 * the stack generates for the migration owner, the service user, the reader and the maintenance user.
 *
 * @example
 * ```ts
 * const owner = await readDatabaseUser(client, process.env.DB_SECRET_ARN);
 * ```
 */
export const readDatabaseUser = async (
  client: Pick<SecretsManagerClient, 'send'>,
  secretArn: string,
): Promise<DatabaseUser> => {
  const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: secretArn }));
  const { username, password } = JSON.parse(SecretString ?? '{}') as Partial<DatabaseUser>;
  if (typeof username !== 'string' || typeof password !== 'string')
    throw new Error(`secret ${secretArn} holds no username and password`);
  return { username, password };
};

/**
 * The Secrets Manager client of a function: the region and credentials its environment names, and
 * `AWS_ENDPOINT_URL_SECRETS_MANAGER` (the SDK's own variable for another endpoint) read from that
 * environment too, so that a test hands the whole of it in one object.
 *
 * @example
 * ```ts
 * const owner = await readDatabaseUser(secretsClient(process.env), process.env.DB_SECRET_ARN);
 * ```
 */
export const secretsClient = (env: Environment): SecretsManagerClient =>
  new SecretsManagerClient({
    ...awsClientOptions(env),
    ...(env.AWS_ENDPOINT_URL_SECRETS_MANAGER ? { endpoint: env.AWS_ENDPOINT_URL_SECRETS_MANAGER } : {}),
  });
