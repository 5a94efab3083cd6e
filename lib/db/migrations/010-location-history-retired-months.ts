import type { Migration } from '../migration.ts';

/**
 * A month past retention leaves the history at once and its files go an hour later, so that no
 * scan or history read waits while they are removed.
 *
 * PostgreSQL drops a partition under an ACCESS EXCLUSIVE lock on its parent, held until the
 * commit, and the commit is when the partition's files are removed: at a year's scale a month is
 * 2 GB, which took 0.4-1.4 s on the benchmark's machines (docs/PERFORMANCE.md §4), while every
 * statement on `cargo.location_record` waited. From this migration on, `maintain_location_history`
 * detaches such a month instead and renames it `<month>_retired` (a change of the catalog only,
 * committed at once), and its next run drops the tables retired before, which are no partition
 * any more. The function's current form is lib/db/sql-functions/maintain-location-history.ts,
 * applied by the migrator after the migrations.
 */
export const locationHistoryRetiredMonths: Migration = {
  id: 10,
  name: 'location-history-retired-months',
  statements: [],
};
