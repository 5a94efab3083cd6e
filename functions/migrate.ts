import { Logger } from '@aws-lambda-powertools/logger';
import { migrate } from '../lib/db/migrate.ts';
import { migrations } from '../lib/db/migrations/index.ts';
import { database } from '../lib/runtime.ts';

const logger = new Logger();

/**
 * Applies pending migrations; run by a CDK Trigger on every deployment. The Data API adapter
 * retries while Aurora resumes from zero capacity; a failed migration throws, which fails the
 * deployment.
 */
export const handler = async (): Promise<{ applied: number[] }> => {
  const applied = await migrate(database(), migrations);
  logger.info('migrations applied', { applied });
  return { applied };
};
