import { AppError } from '../errors/app-error.ts';
import type { Db } from '../db/types.ts';
import { erpText, planCte, planRulesOf, type PlanSettings } from '../box/sql.ts';
import { quoteIdentifier } from '../db/identifier.ts';
import type { LabelContent, LabelLine } from './content.ts';
import { svgLabel, SVG_MEDIA_TYPE } from './svg.ts';
import { zplLabel, ZPL_MEDIA_TYPE } from './zpl.ts';

/** What a label is printed in: ZPL for a label printer (the default), or SVG for a screen or the device's print dialog. */
export type LabelFormat = 'zpl' | 'svg';

/** A label as it is answered: its media type and its text. */
export interface RenderedLabel {
  readonly contentType: string;
  readonly text: string;
}

const render = (content: LabelContent, format: LabelFormat): RenderedLabel =>
  format === 'svg'
    ? { contentType: SVG_MEDIA_TYPE, text: svgLabel(content) }
    : { contentType: ZPL_MEDIA_TYPE, text: zplLabel(content) };

/**
 * What a zongpai's label needs, in one statement: its status, box count and total quantity, and
 * the orders of its boxes (each box's order and customer from its ERP lines, looked up by the
 * view's `box_no` in the database's collation so that its index serves it). No row: no such zongpai.
 */
export const zongpaiLabelSql = (erpView: string) => `
WITH zongpai AS (SELECT z.zongpai_no, z.status FROM cargo.zongpai z WHERE z.zongpai_no = :zongpai_no),
boxes AS (SELECT b.box_no, b.total_quantity FROM cargo.box b WHERE b.zongpai_no = :zongpai_no),
box_orders AS (
  SELECT l.box_no, min(l.order_no) AS order_no, min(l.customer_name) AS customer_name
  FROM (SELECT x.box_no, ${erpText('order_no')}, ${erpText('customer_name')}
        FROM boxes x JOIN ${quoteIdentifier(erpView)} v ON v.box_no = x.box_no COLLATE "default") AS l
  GROUP BY l.box_no
)
SELECT z.zongpai_no, z.status,
       (SELECT count(*) FROM boxes)::integer AS box_count,
       (SELECT COALESCE(sum(x.total_quantity), 0) FROM boxes x)::bigint AS total_quantity,
       (SELECT count(DISTINCT o.order_no) FROM box_orders o)::integer AS order_count,
       (SELECT count(*) FROM box_orders o WHERE o.order_no IS NOT NULL)::integer AS boxes_with_order,
       (SELECT min(o.order_no) FROM box_orders o) AS order_no,
       (SELECT min(o.customer_name) FROM box_orders o) AS customer_name
FROM zongpai z`;

type ZongpaiLabelRow = {
  zongpai_no: string;
  status: string;
  box_count: number;
  total_quantity: number;
  order_count: number;
  boxes_with_order: number;
  order_no: string | null;
  customer_name: string | null;
};

/** The customer's line, none when the ERP plan names no customer (an empty field would look like a misprint). */
const customerLine = (customer: string | null): LabelLine[] =>
  customer === null || customer.trim() === '' ? [] : [['CUSTOMER', customer]];

/** A zongpai's order lines: the order and customer when every box belongs to that one order, else MIXED and how many orders. */
const orderLines = (row: ZongpaiLabelRow): LabelLine[] => {
  if (row.box_count === 0) return [];
  if (row.order_count === 1 && row.boxes_with_order === row.box_count)
    return [['ORDER', row.order_no ?? ''], ...customerLine(row.customer_name)];
  return [['ORDER', `MIXED (${row.order_count} orders)`]];
};

/**
 * The shipping label of a zongpai, one statement: the number as a barcode (GS1-128 with AI (00)
 * for an SSCC, Code 128 otherwise), its box count, total quantity, status, and its order and
 * customer when all its boxes belong to one order (otherwise `MIXED` and the number of orders).
 *
 * @example
 * ```ts
 * const label = makeZongpaiLabel({ db, config });
 * (await label('PLT-0001', 'zpl')).contentType; // 'text/plain; charset=utf-8'
 * ```
 */
export const makeZongpaiLabel = ({ db, config }: { db: Db; config: Pick<PlanSettings, 'erpBoxView'> }) => {
  const sql = zongpaiLabelSql(config.erpBoxView);
  return async (zongpaiNo: string, format: LabelFormat): Promise<RenderedLabel> => {
    const { rows } = await db.query<ZongpaiLabelRow>(sql, { zongpai_no: zongpaiNo });
    const row = rows[0];
    if (row === undefined) throw new AppError('ZONGPAI_NOT_FOUND', { value: zongpaiNo });
    return render(
      {
        title: 'ZONGPAI',
        number: row.zongpai_no,
        lines: [
          ...orderLines(row),
          ['BOXES', String(row.box_count)],
          ['TOTAL QTY', String(row.total_quantity)],
          ['STATUS', row.status],
        ],
      },
      format,
    );
  };
};

/**
 * What a box's label needs, in one statement: its order and customer from the ERP plan, its
 * zongpai and total quantity when it is boxed, and the quantity its usable plan lines come to
 * (a label is often printed before packing). `known`: the plan has a line for it, or it is boxed.
 */
export const boxLabelSql = (settings: PlanSettings) => `
WITH ${planCte(settings.erpBoxView, planRulesOf(settings))}
SELECT EXISTS (SELECT 1 FROM plan_lines) OR b.box_no IS NOT NULL AS known,
       (SELECT min(l.order_no) FROM plan_lines l) AS order_no,
       (SELECT min(l.customer_name) FROM plan_lines l) AS customer_name,
       COALESCE(b.status, 'NOT_BOXED') AS status, b.zongpai_no, b.total_quantity,
       (SELECT COALESCE(sum(p.planned), 0) FROM plan p)::bigint AS planned_quantity
FROM (SELECT 1) AS one LEFT JOIN cargo.box b ON b.box_no = :box_no`;

type BoxLabelRow = {
  known: boolean;
  order_no: string | null;
  customer_name: string | null;
  status: string;
  zongpai_no: string | null;
  total_quantity: number | null;
  planned_quantity: number;
};

/**
 * The label of a box, one statement: the number as a barcode, its order number, customer,
 * zongpai (if boxed) and total quantity; a box of the ERP plan that is not boxed yet has a label
 * too, with the quantity its plan comes to.
 *
 * @example
 * ```ts
 * const label = makeBoxLabel({ db, config });
 * (await label('BOX-1001', 'svg')).text.includes('BOX-1001'); // true
 * ```
 */
export const makeBoxLabel = ({ db, config }: { db: Db; config: PlanSettings }) => {
  const sql = boxLabelSql(config);
  return async (boxNo: string, format: LabelFormat): Promise<RenderedLabel> => {
    const { rows } = await db.query<BoxLabelRow>(sql, { box_no: boxNo });
    const row = rows[0];
    if (row === undefined || !row.known) throw new AppError('BOX_NOT_FOUND', { value: boxNo });
    const boxed = row.zongpai_no !== null;
    return render(
      {
        title: 'BOX',
        number: boxNo,
        lines: [
          ['ORDER', row.order_no ?? ''],
          ...customerLine(row.customer_name),
          ...(boxed ? ([['ZONGPAI', row.zongpai_no ?? '']] as const) : []),
          boxed ? ['TOTAL QTY', String(row.total_quantity)] : ['PLANNED QTY', String(row.planned_quantity)],
          ['STATUS', row.status],
        ],
      },
      format,
    );
  };
};
