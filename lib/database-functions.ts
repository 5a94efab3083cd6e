import { databaseFunctions } from './db/sql-functions/index.ts';
import type { DatabaseFunction } from './db/sql-functions/function.ts';
import { recordScansFunction } from './location/record-function.ts';

/**
 * Every function of the database in its current form, in the order the migrator applies them:
 * lib/db's own (lib/db/sql-functions/), then those a capability's statements call, which are
 * built from that capability's SQL. What the migration function and the local runtime apply.
 */
export const allDatabaseFunctions: readonly DatabaseFunction[] = [...databaseFunctions, recordScansFunction];
