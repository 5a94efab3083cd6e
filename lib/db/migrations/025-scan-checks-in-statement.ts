import type { Migration } from '../migration.ts';

/**
 * The scans' checks and stores are the route's statement again: `cargo.record_scans`, the
 * PL/pgSQL function that held them for a while, kept no plan from one call to the next (the Data
 * API runs DISCARD ALL before it reuses a connection), so nothing calls it any more. A database
 * that got it loses it and its record among the functions; elsewhere this changes nothing.
 */
export const scanChecksInStatement: Migration = {
  id: 25,
  name: 'scan-checks-in-statement',
  statements: [
    'DROP FUNCTION IF EXISTS cargo.record_scans(json, text, boolean, text[], boolean, text)',
    "DELETE FROM cargo.schema_function WHERE name = 'cargo.record_scans'",
  ],
};
