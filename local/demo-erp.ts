import type { Db } from '../lib/db/types.ts';

/**
 * The demo ERP plan: a few customer orders, each box planned with one to three items.
 * Listed in the README so that the curl examples have something to box.
 */
const DEMO_PLAN: readonly (readonly [
  box: string,
  order: string,
  customer: string | null,
  item: string,
  name: string | null,
  quantity: number,
  unit: string | null,
])[] = [
  ['BOX-1001', 'SO-24001', 'Shanghai Lianhua Trading', 'SKU-TEA-250', 'Green tea 250 g', 24, 'tin'],
  ['BOX-1001', 'SO-24001', 'Shanghai Lianhua Trading', 'SKU-CUP-06', 'Porcelain cup set (6)', 6, 'set'],
  ['BOX-1002', 'SO-24001', 'Shanghai Lianhua Trading', 'SKU-TEA-250', 'Green tea 250 g', 48, 'tin'],
  ['BOX-1003', 'SO-24002', 'Hangzhou West Lake Foods', 'SKU-RICE-5K', 'Jasmine rice 5 kg', 8, 'bag'],
  ['BOX-1003', 'SO-24002', 'Hangzhou West Lake Foods', 'SKU-OIL-1L', 'Peanut oil 1 L', 12, 'bottle'],
  ['BOX-1003', 'SO-24002', 'Hangzhou West Lake Foods', 'SKU-SALT-500', 'Sea salt 500 g', 20, 'bag'],
  ['BOX-1004', 'SO-24003', 'Nordic Home AB', 'SKU-LAMP-01', 'Desk lamp', 4, 'pcs'],
  ['BOX-1005', 'SO-24003', 'Nordic Home AB', 'SKU-LAMP-01', 'Desk lamp', 4, 'pcs'],
  ['BOX-1005', 'SO-24003', 'Nordic Home AB', 'SKU-BULB-E27', 'LED bulb E27', 10, 'pcs'],
  ['106141411234567897', 'SO-24004', null, 'SKU-PAPER-A4', 'Copy paper A4', 40, 'ream'],
];

const splitName = (view: string): [schema: string, name: string] => {
  const [schema, name] = view.includes('.') ? view.split('.') : ['public', view];
  return [schema as string, name as string];
};

/**
 * Creates the ERP view over demo tables, only when no relation of that name exists: an
 * existing view (a real ERP's, or one created earlier) is used as it is. `view` is the
 * validated `ERP_BOX_VIEW` identifier, so it is safe to place in DDL.
 *
 * @returns whether the demo plan was created.
 */
export const ensureDemoErp = async (db: Db, view: string): Promise<boolean> => {
  const [schema, name] = splitName(view);
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ exists: boolean }>('SELECT to_regclass(:view) IS NOT NULL AS exists', { view });
    if (rows[0]?.exists === true) return false;
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await tx.query(`CREATE TABLE IF NOT EXISTS ${schema}.demo_box_plan (
                      box_no text NOT NULL, order_no text NOT NULL, customer_name text, item_code text NOT NULL,
                      item_name text, planned_quantity integer NOT NULL, unit text, PRIMARY KEY (box_no, item_code))`);
    // Orders are read by order_no (GET /v1/orders/{order_no}); box_no leads the primary key.
    await tx.query(`CREATE INDEX IF NOT EXISTS demo_box_plan_order_idx ON ${schema}.demo_box_plan (order_no)`);
    await tx.query(
      `INSERT INTO ${schema}.demo_box_plan
                    SELECT * FROM json_to_recordset(:plan) AS p(box_no text, order_no text, customer_name text, item_code text, item_name text, planned_quantity integer, unit text)
                    ON CONFLICT DO NOTHING`,
      {
        plan: {
          hint: 'JSON',
          value: JSON.stringify(
            DEMO_PLAN.map(([box_no, order_no, customer_name, item_code, item_name, planned_quantity, unit]) => ({
              box_no,
              order_no,
              customer_name,
              item_code,
              item_name,
              planned_quantity,
              unit,
            })),
          ),
        },
      },
    );
    await tx.query(`CREATE VIEW ${schema}.${name} AS
                    SELECT box_no, order_no, customer_name, item_code, item_name, planned_quantity, unit FROM ${schema}.demo_box_plan`);
    return true;
  });
};
