import { RDSDataClient, type RDSDataClientConfig } from '@aws-sdk/client-rds-data';
import { ConfigError, type Config } from '../config.ts';
import { DataApiDb } from './data-api.ts';
import { CALL_GRACE_MS } from './retry.ts';

/**
 * Builds the production {@link DataApiDb} from configuration. Locally `DATA_API_ENDPOINT` points the
 * same client at the Data API emulator. Missing cluster or secret ARNs fail the cold start. `client`
 * carries what the function's environment says about its region and credentials.
 *
 * @example
 * ```ts
 * const db = createDataApiDb(config);
 * ```
 */
export const createDataApiDb = (
  config: Config,
  client: Pick<RDSDataClientConfig, 'credentials' | 'region'> = {},
): DataApiDb => {
  const { clusterArn, secretArn, name, endpoint, retryBudgetMs } = config.database;
  if (clusterArn === undefined || secretArn === undefined)
    throw new ConfigError('Invalid configuration: DB_CLUSTER_ARN and DB_SECRET_ARN are required');
  // The SDK's own retries are off: DataApiDb retries only what is safe to retry, within its budget.
  const sdk = new RDSDataClient({ ...client, maxAttempts: 1, ...(endpoint === undefined ? {} : { endpoint }) });
  return new DataApiDb({
    client: sdk,
    resourceArn: clusterArn,
    secretArn,
    database: name,
    retryBudgetMs,
    callTimeoutMs: retryBudgetMs + CALL_GRACE_MS,
  });
};
