import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { DatabaseUser } from './roles.ts';

/**
 * Reads a database user (`username`, `password`) from its Secrets Manager secret: the secrets
 * the stack generates for the migration owner and the service user.
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

export const secretsClient = (): SecretsManagerClient => new SecretsManagerClient({});
