import { ExecuteStatementCommand, RDSDataClient } from '@aws-sdk/client-rds-data';

/**
 * The floor of the cold-start comparison: the least a function reaching Aurora through the
 * Data API can be (the client, one ExecuteStatement). Bundled exactly like the service's functions.
 */
const client = new RDSDataClient({});

export const handler = async (): Promise<{ statusCode: number; body: string }> => {
  const output = await client.send(
    new ExecuteStatementCommand({
      resourceArn: process.env.DB_CLUSTER_ARN,
      secretArn: process.env.DB_SECRET_ARN,
      database: 'cargo',
      sql: 'SELECT 1',
    }),
  );
  return { statusCode: 200, body: JSON.stringify(output.records ?? []) };
};
