import type { Migration } from '../migration.ts';
import { CARGO_LOCATION_VIEW } from './006-read-contract.ts';

/**
 * Each table's code columns: compared, joined, indexed and listed by. The location history's
 * (`location_record`) are not among them: it is only ever read by equal codes, which are equal in
 * every collation PostgreSQL creates databases with, never listed by code, and its indexes are the
 * largest of the service (a year's are minutes to rebuild, during which no scan could be stored).
 */
const CODE_COLUMNS: readonly (readonly [string, readonly string[]])[] = [
  ['zongpai', ['zongpai_no']],
  ['zongpai_reopening', ['zongpai_no']],
  ['box', ['box_no', 'zongpai_no']],
  ['box_item', ['box_no', 'item_code']],
  ['box_event', ['box_no', 'zongpai_no']],
  ['location_current', ['cargo_no', 'location_code']],
];

/**
 * Codes (cargo, box, zongpai, location and item codes) compare and sort byte by byte, in the
 * "C" collation, whatever the database's default. Aurora creates its databases with a language's
 * collation (`en_US.UTF-8`), in which `sku-b` sorts before `Sku-c` and `BOX10` before `BOX-2`,
 * where the local runtime sorts by bytes: the same request listed a box's items in another order
 * on AWS. A language's comparison also costs several times a byte comparison, in each step of
 * an index descent. The answers' other orderings of codes that come from the ERP view
 * or a request say "C" where they are read (lib/box/sql.ts).
 *
 * The column types stay `text`, so no table is rewritten, but every index on these columns is
 * built again under its table's ACCESS EXCLUSIVE lock, while the requests on that table wait
 * (docs/PERFORMANCE.md §4 has how long at a year's scale). The two read-contract views over
 * these columns are dropped first: `cargo.cargo_location` is created again here, `cargo.box_content` (over the ERP
 * view) after the migrations, as on every deployment (lib/db/read-contract.ts).
 */
export const codeCollation: Migration = {
  id: 15,
  name: 'code-collation',
  statements: [
    'DROP VIEW IF EXISTS cargo.box_content',
    'DROP VIEW cargo.cargo_location',
    ...CODE_COLUMNS.map(
      ([table, columns]) =>
        `ALTER TABLE cargo.${table} ${columns.map((c) => `ALTER COLUMN ${c} TYPE text COLLATE "C"`).join(', ')}`,
    ),
    CARGO_LOCATION_VIEW,
  ],
};
