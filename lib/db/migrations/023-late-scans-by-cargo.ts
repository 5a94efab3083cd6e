import type { Migration } from '../migration.ts';
import { BEFORE_BY_CARGO_INDEX } from '../trail-week.ts';

/**
 * The late scans older than every month (`location_record_before`) indexed by cargo again. Since
 * migration 022 its only trail index was keyed by week first, like the months', and a history page
 * reads that table for the cargo alone: every page of a cargo whose months did not fill it read
 * the whole table (on PostgreSQL before 18, Aurora's, which has no skip scan). The table holds few
 * rows (the maintenance moves history into months and retention empties it), so the build is one
 * short statement; the maintenance functions' current forms create the index with the table.
 */
export const lateScansByCargo: Migration = {
  id: 23,
  name: 'late-scans-by-cargo',
  statements: [BEFORE_BY_CARGO_INDEX],
};
