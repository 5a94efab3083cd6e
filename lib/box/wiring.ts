import { Logger } from '@aws-lambda-powertools/logger';
import { config } from '../config.ts';
import { database, fields } from '../runtime.ts';
import type { BoxingOptions } from './index.ts';
import { makeBoxSchemas } from './schemas.ts';

/** The boxing routes' schemas for this process's configuration. */
export const boxSchemas = makeBoxSchemas(config, fields);

/** What every boxing operation needs: this process's Data API adapter and configuration. */
export const boxingOptions = (): BoxingOptions => {
  const logger = new Logger();
  return {
    db: database(),
    erpView: config.erpBoxView,
    enforcePlan: config.enforceErpPlan,
    planRules: { itemCodeMaxLength: config.itemCodeMaxLength, quantityMax: config.quantityMax },
    warn: (message, details) => logger.warn(message, details),
  };
};
