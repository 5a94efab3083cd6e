import { Logger } from '@aws-lambda-powertools/logger';
import { sweepExpiredKeys } from '../lib/db/sweep.ts';
import { defineTask, STATEMENT, taskHandler } from '../lib/http/route.ts';
import { maintainLocationHistory } from '../lib/location/history.ts';

const logger = new Logger();

/**
 * The scheduled maintenance, run hourly by an EventBridge schedule: creates the location
 * history's months ahead, takes the months past LOCATION_HISTORY_MONTHS out of the history (their
 * tables are removed by the next run), and deletes expired idempotency keys. Each part is safe to
 * repeat; a missed run is caught up by the next.
 */
export const task = defineTask({
  id: 'IdempotencySweep',
  dataApi: STATEMENT,
  databaseUser: 'maintenance',
  run: async ({
    config,
    db,
  }): Promise<{ removed: number; history: Awaited<ReturnType<typeof maintainLocationHistory>> }> => {
    const history = await maintainLocationHistory(db(), { monthsKept: config.locationHistoryMonths });
    logger.info('location history maintained', { ...history });
    const removed = await sweepExpiredKeys(db());
    logger.info('expired idempotency keys removed', { removed });
    return { removed, history };
  },
});

export const handler = taskHandler(task, process.env);
