import { config } from './config.ts';
import { createDataApiDb } from './db/default.ts';
import { guardErpView } from './db/erp-view.ts';
import type { Db } from './db/types.ts';
import { makeFields } from './rules/fields.ts';

/**
 * Process-wide wiring, built once at cold start from {@link config}: the identifier rules and
 * the database adapter. Handlers take what they need from here and hand it to `lib` factories;
 * tests build their own with other options.
 */
export const fields = makeFields(config);

let db: Db | undefined;

/**
 * The Data API adapter of this process (created on first use, then reused across invocations);
 * a statement that cannot read the ERP view answers 503 ERP_VIEW_UNAVAILABLE.
 */
export const database = (): Db => (db ??= guardErpView(createDataApiDb(config), config.erpBoxView));
