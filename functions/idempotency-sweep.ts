import { Logger } from '@aws-lambda-powertools/logger';
import { config } from '../lib/config.ts';
import { sweepExpiredKeys } from '../lib/db/sweep.ts';
import { maintainLocationHistory } from '../lib/location/history.ts';
import { database } from '../lib/runtime.ts';

const logger = new Logger();

/**
 * The scheduled maintenance, run hourly by an EventBridge schedule: creates the location
 * history's months ahead, drops the months past LOCATION_HISTORY_MONTHS, and deletes expired
 * idempotency keys. Each part is safe to repeat; a missed run is caught up by the next.
 */
export const handler = async (): Promise<{ removed: number; history: Awaited<ReturnType<typeof maintainLocationHistory>> }> => {
  const history = await maintainLocationHistory(database(), { monthsKept: config.locationHistoryMonths });
  logger.info('location history maintained', { ...history });
  const removed = await sweepExpiredKeys(database());
  logger.info('expired idempotency keys removed', { removed });
  return { removed, history };
};
