import { AppError } from '../errors/app-error.ts';
import type { Db } from '../db/types.ts';

export interface ZongpaiResponse {
  zongpai_no: string;
  status: 'OPEN' | 'CLOSED';
  box_count: number;
  total_quantity: number;
  boxes: { box_no: string; total_quantity: number }[];
  created_at: string;
  created_by: string;
  closed_at: string | null;
  closed_by: string | null;
}

type ZongpaiRow = Omit<ZongpaiResponse, 'box_count' | 'total_quantity'> & Record<string, unknown>;

const boxesJson = `COALESCE((SELECT json_agg(json_build_object('box_no', b.box_no, 'total_quantity', b.total_quantity) ORDER BY b.box_no)
                              FROM cargo.box b WHERE b.zongpai_no = :zongpai_no), '[]'::json) AS boxes`;

const REGISTER_SQL = `
INSERT INTO cargo.zongpai (zongpai_no, created_by) VALUES (:zongpai_no, :actor)
ON CONFLICT (zongpai_no) DO NOTHING
RETURNING zongpai_no, status, created_at, created_by, closed_at, closed_by, '[]'::json AS boxes`;

const GET_SQL = `
SELECT z.zongpai_no, z.status, z.created_at, z.created_by, z.closed_at, z.closed_by, ${boxesJson}
FROM cargo.zongpai z WHERE z.zongpai_no = :zongpai_no`;

/**
 * Closes an open zongpai. The UPDATE waits for appends in flight (they hold the row FOR SHARE);
 * the boxes listed are those committed when the close began, which GET shows complete.
 */
const CLOSE_SQL = `
WITH closed AS (
  UPDATE cargo.zongpai z SET status = 'CLOSED', closed_at = now(), closed_by = :actor
  WHERE z.zongpai_no = :zongpai_no AND z.status = 'OPEN'
  RETURNING z.*
)
SELECT c.zongpai_no, c.status, c.created_at, c.created_by, c.closed_at, c.closed_by, ${boxesJson},
       EXISTS (SELECT 1 FROM cargo.zongpai z WHERE z.zongpai_no = :zongpai_no) AS known
FROM (SELECT 1) AS one LEFT JOIN closed c ON true`;

const withTotals = (row: ZongpaiRow): ZongpaiResponse => ({
  zongpai_no: row.zongpai_no,
  status: row.status,
  box_count: row.boxes.length,
  total_quantity: row.boxes.reduce((sum, b) => sum + b.total_quantity, 0),
  boxes: row.boxes,
  created_at: row.created_at,
  created_by: row.created_by,
  closed_at: row.closed_at,
  closed_by: row.closed_by,
});

/**
 * Zongpai (master tags such as pallets): register, read with boxes and totals, close.
 * Totals are derived from the boxes at read time, so concurrent appends cannot lose a count.
 *
 * @example
 * ```ts
 * const zongpai = makeZongpai({ db });
 * await zongpai.register('PLT-0001', 'olga');
 * await zongpai.close('PLT-0001', 'sam');
 * ```
 */
export const makeZongpai = ({ db }: { db: Db }) => ({
  async register(zongpaiNo: string, actor: string): Promise<ZongpaiResponse> {
    const { rows } = await db.query<ZongpaiRow>(REGISTER_SQL, { zongpai_no: zongpaiNo, actor });
    if (rows[0] === undefined) throw new AppError('ZONGPAI_ALREADY_EXISTS', { value: zongpaiNo });
    return withTotals(rows[0]);
  },

  async get(zongpaiNo: string): Promise<ZongpaiResponse> {
    const { rows } = await db.query<ZongpaiRow>(GET_SQL, { zongpai_no: zongpaiNo });
    if (rows[0] === undefined) throw new AppError('ZONGPAI_NOT_FOUND', { value: zongpaiNo });
    return withTotals(rows[0]);
  },

  async close(zongpaiNo: string, actor: string): Promise<ZongpaiResponse> {
    const { rows } = await db.query<ZongpaiRow & { known: boolean }>(CLOSE_SQL, { zongpai_no: zongpaiNo, actor });
    const row = rows[0];
    if (row?.zongpai_no == null) throw new AppError(row?.known === true ? 'ZONGPAI_CLOSED' : 'ZONGPAI_NOT_FOUND', { value: zongpaiNo });
    return withTotals(row);
  },
});

export type Zongpai = ReturnType<typeof makeZongpai>;
