/**
 * A zongpai's answer, shared by the statements that answer one (register.ts, close.ts, reopen.ts)
 * and the read: its columns, its parts, its event, its schemas, the end of a change of its status,
 * and the GET itself. Each write statement is in its own file.
 */

import * as z from 'zod/mini';
import { AppError } from '../errors/app-error.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/types.ts';
import {
  isoTime,
  parsedRow,
  runWrite,
  type CompiledWrite,
  type Idempotency,
  type WriteStatement,
} from '../db/write.ts';
import { outbox } from '../events/write.ts';
import type { ZongpaiResponse } from '../contract/responses.ts';
import { PART_ROW, PARTS_ORDER, type PartRow } from '../db/parts.ts';

/** A zongpai's own fields, as every zongpai statement answers them ({@link zongpaiColumns}, the head of {@link zongpaiParts}). */
export const ZONGPAI_FIELDS = {
  zongpai_no: z.string(),
  status: z.enum(['OPEN', 'CLOSED']),
  version: z.int(),
  created_at: z.string(),
  created_by: z.string(),
  closed_at: z.nullable(z.string()),
  closed_by: z.nullable(z.string()),
};
export const ZongpaiHead = /* @__PURE__ */ (() => z.object(ZONGPAI_FIELDS))();
/** A box part of a zongpai's answer. */
export const ZongpaiBox = /* @__PURE__ */ (() => z.object({ box_no: z.string(), total_quantity: z.number() }))();

type ZongpaiRow = Omit<ZongpaiResponse, 'box_count' | 'total_quantity'>;

export const zongpaiColumns = (alias: string) =>
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

// Built by a call marked pure, so that a function that only writes (close, reopen, register: they
// import this module for zongpaiParts and zongpaiOutbox) does not carry the read's text.
const getSql = () =>
  zongpaiParts(
    'cargo.zongpai s WHERE s.zongpai_no = :zongpai_no',
    `(SELECT json_build_object('box_no', b.box_no, 'total_quantity', b.total_quantity) AS box
      FROM cargo.box b WHERE b.zongpai_no = :zongpai_no) AS x`,
  );
const GET_SQL = /* @__PURE__ */ getSql();

/** A zongpai answer with its box count and total quantity, its fields in the order every zongpai answer has them. */
export const withTotals = (row: ZongpaiRow): ZongpaiResponse => ({
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

/** A part's data parsed by `schema` ({@link parsedRow}). */
const partData = <T>(schema: z.ZodMiniType<T>, row: PartRow): T =>
  parsedRow(schema, row.data, `a zongpai's ${row.part} part`);

/** Zongpai `zongpaiNo` answered as {@link zongpaiParts}, put back together; ZONGPAI_NOT_FOUND when there is none. */
export const zongpaiFromParts = (rows: readonly PartRow[], zongpaiNo: string): ZongpaiResponse => {
  const head = rows.find((row) => row.part === 'head');
  if (head === undefined) throw new AppError('ZONGPAI_NOT_FOUND', { value: zongpaiNo });
  const boxes = rows.filter((row) => row.part === 'box').map((row) => partData(ZongpaiBox, row));
  return withTotals({ ...partData(ZongpaiHead, head), boxes });
};

export type Capability = { readonly db: Db; readonly config: Pick<Config, 'erpBoxView' | 'sscc'> };

/**
 * A change of a zongpai's status (a close, a reopening) in one statement: its own CTEs (`ctes`)
 * hold `changed`, the zongpai row the change wrote (none when the zongpai already had the status),
 * and end with `unchanged`, the row as it is otherwise, read FOR SHARE. Then come `state`, the
 * zongpai either way, the event of the change (`type`, none when nothing changed), and the zongpai
 * as it answers, its boxes read by `cargo.zongpai_boxes` once its row is locked.
 */
export const statusChangeStatement = (
  type: 'zongpai.closed' | 'zongpai.reopened',
  changed: string,
  ctes: string,
): WriteStatement<PartRow> => ({
  ctes: `${ctes},
state AS (SELECT * FROM ${changed} UNION ALL SELECT * FROM unchanged),
${zongpaiOutbox(type, changed)}`,
  select: zongpaiParts('state s', boxesReadAfterLock('state')),
  row: PART_ROW,
});

/** Runs a change of a zongpai's status ({@link statusChangeStatement}, compiled): the zongpai as the change leaves it. */
export const makeStatusChange =
  (write: CompiledWrite<PartRow>) =>
  ({ db }: Capability) =>
  async (zongpaiNo: string, actor: string, idempotency?: Idempotency): Promise<ZongpaiResponse> =>
    zongpaiFromParts(await runWrite(db, write, { zongpai_no: zongpaiNo, actor }, idempotency), zongpaiNo);

/**
 * Reads a zongpai with its boxes and totals. Totals are derived from the boxes at read time, so
 * concurrent appends cannot lose a count.
 *
 * @example
 * ```ts
 * await makeZongpaiGet({ db, config })('PLT-0001'); // { zongpai_no: 'PLT-0001', box_count: 2, ... }
 * ```
 */
export const makeZongpaiGet =
  ({ db }: Capability) =>
  async (zongpaiNo: string): Promise<ZongpaiResponse> => {
    const { rows } = await db.query<PartRow>(GET_SQL, { zongpai_no: zongpaiNo });
    return zongpaiFromParts(rows, zongpaiNo);
  };
