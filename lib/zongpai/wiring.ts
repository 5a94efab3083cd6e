import { config } from '../config.ts';
import { database, fields } from '../runtime.ts';
import { makeZongpaiSchemas } from './schemas.ts';
import { makeZongpai, type Zongpai } from './zongpai.ts';

/** The zongpai routes' schemas for this process's configuration. */
export const zongpaiSchemas = makeZongpaiSchemas(fields);

/** The zongpai capability over this process's Data API adapter. */
export const zongpaiFromConfig = (): Zongpai => makeZongpai({ db: database(), erpView: config.erpBoxView });
