import type { Migration } from '../migration.ts';

/**
 * `cargo.keep_location_history` refuses more months ahead than it allows (`MONTHS_AHEAD_MAX`,
 * lib/db/sql-functions/keep-location-history.ts). It runs as the owner (SECURITY DEFINER) for the
 * maintenance user, whose callers choose the months ahead: a run asked for thousands would create
 * a partition for each, which every statement on the history then plans. The function's current
 * form is in that file, applied by the migrator after the migrations.
 */
export const locationHistoryMonthsAheadBound: Migration = {
  id: 13,
  name: 'location-history-months-ahead-bound',
  statements: [],
};
