import { AppError } from '../errors/app-error.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/types.ts';
import { compileWrite, isoTime, PROCEED, runWrite, type Idempotency, type WriteStatement } from '../db/write.ts';
import { quoteIdentifier, ZONGPAI_IS_A_BOX } from '../box/sql.ts';
import { ZONGPAI_IS_A_LOCATION } from '../rules/identifiers.ts';
import { outbox } from '../events/write.ts';
import type { ZongpaiResponse } from '../openapi/responses.ts';
import { PARTS_ORDER, type PartRow } from '../db/parts.ts';

type ZongpaiRow = Omit<ZongpaiResponse, 'box_count' | 'total_quantity'> & Record<string, unknown>;

const zongpaiColumns = (alias: string) =>
  `${alias}.zongpai_no, ${alias}.status, ${alias}.version, ${isoTime(`${alias}.created_at`)} AS created_at, ${alias}.created_by, ${isoTime(`${alias}.closed_at`)} AS closed_at, ${alias}.closed_by`;

/**
 * A zongpai's answer as rows (lib/db/parts.ts): its own fields (`head`, from the zongpai rows
 * `s` of `head`), then one row per box (the JSON objects `x.box` of `boxes`), by box number. A
 * container load's boxes are more than one Data API result row carries as a list (64 KB, about
 * 1 300 boxes).
 */
export const zongpaiParts = (head: string, boxes: string) => `
SELECT 0 AS part_rank, 'head' AS part, NULL::text AS box_no, NULL::text AS item_code,
       json_build_object('zongpai_no', s.zongpai_no, 'status', s.status, 'version', s.version,
                         'created_at', ${isoTime('s.created_at')}, 'created_by', s.created_by,
                         'closed_at', ${isoTime('s.closed_at')}, 'closed_by', s.closed_by) AS data
FROM ${head}
UNION ALL
SELECT 1, 'box', x.box->>'box_no', NULL, x.box
FROM ${boxes}
${PARTS_ORDER}`;

/** The boxes `cargo.zongpai_boxes` reads (a fresh snapshot) for each zongpai row `s` of `state`, as `x.box`. */
export const boxesReadAfterLock = (state: string) =>
  `${state} s CROSS JOIN LATERAL json_array_elements(cargo.zongpai_boxes(s.zongpai_no)) AS x(box)`;

/**
 * The outbox event of a zongpai write (register, close, reopen) for each row of the CTE
 * `written`: `zongpai_no, status, version, box_count, total_quantity`. The boxes are read by
 * `cargo.zongpai_boxes` (a fresh snapshot once the zongpai row is locked), unless `boxes` gives them.
 */
export const zongpaiOutbox = (
  type: 'zongpai.registered' | 'zongpai.closed' | 'zongpai.reopened',
  written: string,
  boxes?: string,
) =>
  outbox(
    [
      {
        type,
        from: `${written} w CROSS JOIN LATERAL (SELECT ${boxes ?? 'cargo.zongpai_boxes(w.zongpai_no)'} AS list) b`,
        data: `jsonb_build_object('zongpai_no', w.zongpai_no, 'status', w.status, 'version', w.version, 'box_count', json_array_length(b.list),
        'total_quantity', (SELECT COALESCE(sum((x->>'total_quantity')::bigint), 0) FROM json_array_elements(b.list) x))`,
      },
    ],
    ':actor',
  );

/**
 * Registers a zongpai unless its number is taken, or is the number of a box in the ERP plan
 * or a registered location: a scan of that number must keep meaning the box (its location, its
 * boxing) or the location, never a pallet.
 */
export const registerStatement = (erpView: string): WriteStatement => ({
  ctes: `
box_of_plan AS (SELECT 1 FROM ${quoteIdentifier(erpView)} v WHERE v.box_no = :zongpai_no LIMIT 1),
a_location AS (SELECT 1 FROM cargo.location l WHERE l.location_code = :zongpai_no),
registered AS (
  INSERT INTO cargo.zongpai (zongpai_no, created_by) SELECT :zongpai_no, :actor
  WHERE ${PROCEED} AND NOT EXISTS (SELECT 1 FROM box_of_plan) AND NOT EXISTS (SELECT 1 FROM a_location)
  ON CONFLICT (zongpai_no) DO NOTHING
  RETURNING *
),
${zongpaiOutbox('zongpai.registered', 'registered', "'[]'::json")}`,
  select: `
SELECT ${zongpaiColumns('r')}, '[]'::json AS boxes, EXISTS (SELECT 1 FROM box_of_plan) AS is_box,
       EXISTS (SELECT 1 FROM a_location) AS is_location
FROM (SELECT 1) AS one LEFT JOIN registered r ON true`,
});

// The module-level SQL below is built by calls marked pure, so that a function that does not run a
// statement (zongpai-reopen imports this module for zongpaiOutbox) does not carry its text.
const getSql = () =>
  zongpaiParts(
    'cargo.zongpai s WHERE s.zongpai_no = :zongpai_no',
    `(SELECT json_build_object('box_no', b.box_no, 'total_quantity', b.total_quantity) AS box
      FROM cargo.box b WHERE b.zongpai_no = :zongpai_no) AS x`,
  );
const GET_SQL = /* @__PURE__ */ getSql();

/**
 * Closes a zongpai, or answers a closed one as it is. The UPDATE waits for appends in flight
 * (they hold the row FOR SHARE) and every later append finds it CLOSED; the boxes are read by
 * `cargo.zongpai_boxes` only once the row is locked, with a snapshot of their own, so the
 * answer lists exactly the boxes on the zongpai when it closed. An already closed zongpai is
 * read FOR SHARE, which returns its newest version even when a close committed while waiting.
 */
const closeStatementOf = (): WriteStatement => ({
  ctes: `
closed AS (
  UPDATE cargo.zongpai z SET status = 'CLOSED', closed_at = now(), closed_by = :actor, version = z.version + 1
  WHERE z.zongpai_no = :zongpai_no AND z.status = 'OPEN' AND ${PROCEED}
  RETURNING z.*
),
unchanged AS (
  SELECT z.* FROM cargo.zongpai z
  WHERE z.zongpai_no = :zongpai_no AND NOT EXISTS (SELECT 1 FROM closed) AND ${PROCEED}
  FOR SHARE
),
state AS (SELECT * FROM closed UNION ALL SELECT * FROM unchanged),
${zongpaiOutbox('zongpai.closed', 'closed')}`,
  select: zongpaiParts('state s', boxesReadAfterLock('state')),
});
export const closeStatement: WriteStatement = /* @__PURE__ */ closeStatementOf();
const CLOSE = /* @__PURE__ */ compileWrite(closeStatement);

/** A zongpai answer with its box count and total quantity, its fields in the order every zongpai answer has them. */
const withTotals = (row: ZongpaiRow): ZongpaiResponse => ({
  zongpai_no: row.zongpai_no,
  status: row.status,
  version: row.version,
  box_count: row.boxes.length,
  total_quantity: row.boxes.reduce((sum, b) => sum + b.total_quantity, 0),
  boxes: row.boxes,
  created_at: row.created_at,
  created_by: row.created_by,
  closed_at: row.closed_at,
  closed_by: row.closed_by,
});

/** A zongpai answered as {@link zongpaiParts}, put back together; undefined when there is no such zongpai. */
export const zongpaiFromParts = (rows: readonly PartRow[]): ZongpaiResponse | undefined => {
  const head = rows.find((row) => row.part === 'head');
  if (head === undefined) return undefined;
  const boxes = rows.filter((row) => row.part === 'box').map((row) => row.data as ZongpaiResponse['boxes'][number]);
  return withTotals({ ...(head.data as ZongpaiRow), boxes });
};

type Capability = { readonly db: Db; readonly config: Pick<Config, 'erpBoxView'> };

/**
 * Zongpai (master tags such as pallets): register, read with boxes and totals, close (closing
 * a closed one answers it as it is), one factory per operation so that a function carries only
 * its own statement. Totals are derived from the boxes at read time, so concurrent appends cannot
 * lose a count.
 *
 * @example
 * ```ts
 * const register = makeZongpaiRegister({ db, config });
 * await register('PLT-0001', 'olga');
 * await makeZongpaiClose({ db, config })('PLT-0001', 'sam');
 * ```
 */
export const makeZongpaiRegister = ({ db, config }: Capability) => {
  const register = compileWrite(registerStatement(config.erpBoxView));
  return async (zongpaiNo: string, actor: string, idempotency?: Idempotency): Promise<ZongpaiResponse> => {
    const rows = await runWrite<ZongpaiRow & { is_box: boolean; is_location: boolean }>(
      db,
      register,
      { zongpai_no: zongpaiNo, actor },
      idempotency,
    );
    const row = rows[0];
    if (row?.is_box === true)
      throw new AppError('INVALID_ZONGPAI', {
        value: zongpaiNo,
        reason: ZONGPAI_IS_A_BOX,
      });
    if (row?.is_location === true)
      throw new AppError('INVALID_ZONGPAI', { value: zongpaiNo, reason: ZONGPAI_IS_A_LOCATION });
    if (row?.zongpai_no == null) throw new AppError('ZONGPAI_ALREADY_EXISTS', { value: zongpaiNo });
    return withTotals(row);
  };
};

export const makeZongpaiGet =
  ({ db }: Capability) =>
  async (zongpaiNo: string): Promise<ZongpaiResponse> => {
    const { rows } = await db.query<PartRow>(GET_SQL, { zongpai_no: zongpaiNo });
    const zongpai = zongpaiFromParts(rows);
    if (zongpai === undefined) throw new AppError('ZONGPAI_NOT_FOUND', { value: zongpaiNo });
    return zongpai;
  };

export const makeZongpaiClose =
  ({ db }: Capability) =>
  async (zongpaiNo: string, actor: string, idempotency?: Idempotency): Promise<ZongpaiResponse> => {
    const zongpai = zongpaiFromParts(await runWrite<PartRow>(db, CLOSE, { zongpai_no: zongpaiNo, actor }, idempotency));
    if (zongpai === undefined) throw new AppError('ZONGPAI_NOT_FOUND', { value: zongpaiNo });
    return zongpai;
  };
