import type { Migration } from '../migration.ts';

/**
 * Per partition of the history, one statement (one Data API call) each: the cargo whose scans a
 * void has all taken back (it has voided records and no current location), as `location_forgotten`
 * keeps them from now on, their span not known. Only voided records are looked at, so each
 * statement reads its partition once and keeps a few rows: well inside the 45 s the Data API
 * allows a statement at a year's size (docs/OPERATIONS.md).
 */
const FORGOTTEN_PER_PARTITION = `
SELECT format('INSERT INTO cargo.location_forgotten (cargo_no)
  SELECT DISTINCT r.cargo_no FROM cargo.%I r
  WHERE r.voided_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM cargo.location_current c WHERE c.cargo_no = r.cargo_no)
  ON CONFLICT (cargo_no) DO NOTHING', c.relname) AS statement
FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
WHERE i.inhparent = 'cargo.location_record'::regclass
ORDER BY c.relname`;

/**
 * Each cargo's span: when its first and its last location record happened (`first_at`,
 * `last_at`, `occurred_at` of the oldest and the newest, voided ones included), kept beside its
 * current location by the statement that stores scans, so that a history page walks the trail
 * index's weeks (migration 022) only where the cargo has records. Keyed by week, a cargo's history
 * was read one index descent per week down to the oldest month: a box scanned for a few days long
 * ago, or a code never scanned, read every week of a year (about 80 pages outside a 1-ACU cache,
 * each a storage read on Aurora) to answer one page.
 *
 * A span not known is NULL: the current locations from before this migration keep NULL, and
 * their walks stay as they were. A void that takes back every scan of a cargo forgets its current
 * location; `location_forgotten` keeps the span of such a cargo (its voided records stay in its
 * history), which a history page reads beside the current location's (a later scan of the cargo
 * starts a span of its own), and a cargo with neither has no history at all and is not walked. The cargo forgotten before this
 * migration are found from their voided records, a partition at a time, their span not known.
 * The history is locked against writes first (SHARE: reads go on; scans, transfers and voids wait
 * until the migrations commit, then run the new forms), so no void forgets a cargo unseen between
 * that search and the new form of `cargo.void_current` (applied after this migration), which keeps
 * forgotten spans itself. The columns come last: adding them locks `location_current` against
 * reads too, until the commit a moment later.
 */
export const cargoSpan: Migration = {
  id: 24,
  name: 'cargo-span',
  statements: [
    'LOCK TABLE cargo.location_record IN SHARE MODE',
    `CREATE TABLE cargo.location_forgotten (
       cargo_no text COLLATE "C" PRIMARY KEY,
       first_at timestamptz,
       last_at  timestamptz
     )`,
    { statementsFrom: FORGOTTEN_PER_PARTITION },
    'ALTER TABLE cargo.location_current ADD COLUMN first_at timestamptz, ADD COLUMN last_at timestamptz',
  ],
};
