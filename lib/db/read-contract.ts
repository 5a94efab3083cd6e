import { isUnreadableView } from './erp-view.ts';
import { quoteIdentifier } from './identifier.ts';
import type { Db } from './types.ts';

/**
 * `cargo.box_content`, part of the documented read contract (docs/ERP.md, "Reading from the
 * database"): one row per item of every boxed box, with the box's order and customer from the
 * ERP view and its zongpai. It reads the ERP view, whose name is configured (`ERP_BOX_VIEW`) and
 * which may be created after the migrations, so it is (re)created here, after them and after the
 * ERP view exists, not by a migration. A lookup by `box_no`, `zongpai_no` or `order_no` reads
 * through the indexes of `cargo.box` and the ERP view.
 */
const boxContentSql = (erpView: string) => `
CREATE OR REPLACE VIEW cargo.box_content AS
SELECT b.box_no, p.order_no, p.customer_name, b.zongpai_no, z.status AS zongpai_status, b.version,
       bi.item_code, p.item_name, p.unit, bi.quantity, b.saved_at, b.saved_by
FROM cargo.box b
JOIN cargo.box_item bi ON bi.box_no = b.box_no
JOIN cargo.zongpai z ON z.zongpai_no = b.zongpai_no
LEFT JOIN LATERAL (
  SELECT min(v.order_no) AS order_no, min(v.customer_name) AS customer_name,
         min(v.item_name) FILTER (WHERE v.item_code = bi.item_code) AS item_name,
         min(v.unit) FILTER (WHERE v.item_code = bi.item_code) AS unit
  -- Compared in the database's collation, so that the ERP view's index serves the lookup (CODE_COLLATION).
  FROM ${quoteIdentifier(erpView)} v WHERE v.box_no = b.box_no COLLATE "default"
) AS p ON true
WHERE b.status = 'BOXED'`;

/** What became of `cargo.box_content`: created, or left out until the ERP view is there and readable. */
export type BoxContentOutcome = 'created' | 'view missing' | 'view unreadable';

/**
 * Creates or replaces `cargo.box_content` over the ERP view when the view exists and has the
 * columns it reads. While the view is missing or unreadable (a column missing or of another
 * type) the read-contract view is left out and nothing fails: the routes that read the ERP view
 * answer 503 ERP_VIEW_UNAVAILABLE, the others go on. Run again once the view is right: every
 * deployment's migration and `npm run erp-view -- --demo` do. `erpView` is the validated
 * ERP_BOX_VIEW identifier.
 *
 * @example
 * ```ts
 * await ensureBoxContentView(db, config.erpBoxView); // 'created'
 * ```
 */
export const ensureBoxContentView = async (db: Db, erpView: string): Promise<BoxContentOutcome> => {
  const { rows } = await db.query<{ exists: boolean }>('SELECT to_regclass(:view) IS NOT NULL AS exists', {
    view: erpView,
  });
  if (rows[0]?.exists !== true) return 'view missing';
  try {
    await db.query(boxContentSql(erpView));
  } catch (error) {
    if (isUnreadableView(error)) return 'view unreadable';
    throw error;
  }
  return 'created';
};
