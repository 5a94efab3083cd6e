import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { ExecuteStatementCommand, RDSDataClient } from '@aws-sdk/client-rds-data';
import middy from '@middy/core';
import { z } from 'zod';

/**
 * The naive stack of the cold-start comparison: the floor plus Middy, Powertools Logger and
 * the full `zod` import, as a handler written without an eye on the bundle would have them.
 */
const client = new RDSDataClient({});
const logger = new Logger();
const Body = z.object({ box_no: z.string().min(4).max(32), zongpai_no: z.string().min(4).max(32) });

export const handler = middy(async (event: { body: string }) => {
  const body = Body.parse(JSON.parse(event.body));
  const output = await client.send(
    new ExecuteStatementCommand({
      resourceArn: process.env.DB_CLUSTER_ARN,
      secretArn: process.env.DB_SECRET_ARN,
      database: 'cargo',
      sql: 'SELECT :box_no AS box_no',
      parameters: [{ name: 'box_no', value: { stringValue: body.box_no } }],
    }),
  );
  logger.info('selected', { box_no: body.box_no });
  return { statusCode: 200, body: JSON.stringify(output.records ?? []) };
}).use(injectLambdaContext(logger));
