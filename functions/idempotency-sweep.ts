import { Logger } from '@aws-lambda-powertools/logger';
import { sweepExpiredKeys } from '../lib/db/sweep.ts';
import { database } from '../lib/runtime.ts';

const logger = new Logger();

/** Deletes expired idempotency keys; run hourly by an EventBridge schedule. */
export const handler = async (): Promise<{ removed: number }> => {
  const removed = await sweepExpiredKeys(database());
  logger.info('expired idempotency keys removed', { removed });
  return { removed };
};
