import { config } from '../config.ts';
import { database, fields } from '../runtime.ts';
import { makeZongpai, type Zongpai } from '../zongpai/zongpai.ts';
import { makeZongpaiSchemas } from '../zongpai/schemas.ts';
import { makeBoxing, type Boxing } from './index.ts';
import { makeBoxSchemas } from './schemas.ts';

/** The boxing and zongpai routes' schemas for this process's configuration. */
export const boxSchemas = makeBoxSchemas(config, fields);
export const zongpaiSchemas = makeZongpaiSchemas(fields);

/** The boxing capability over this process's Data API adapter and configuration. */
export const boxingFromConfig = (): Boxing => makeBoxing({ db: database(), erpView: config.erpBoxView, enforcePlan: config.enforceErpPlan });

export const zongpaiFromConfig = (): Zongpai => makeZongpai({ db: database() });
