import * as z from 'zod/mini';
import { AppError } from '../errors/app-error.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/types.ts';
import {
  compileWrite,
  isoTime,
  parsedRow,
  PROCEED,
  runWrite,
  type Idempotency,
  type WriteStatement,
} from '../db/write.ts';
import { quoteIdentifier, ZONGPAI_IS_A_BOX } from '../box/sql.ts';
import { ZONGPAI_IS_A_LOCATION } from '../rules/identifiers.ts';
import { outbox } from '../events/write.ts';
import type { ZongpaiResponse } from '../openapi/responses.ts';
import { PART_ROW, PARTS_ORDER, type PartRow } from '../db/parts.ts';

/** A zongpai's own fields, as every zongpai statement answers them ({@link zongpaiColumns}, the head of {@link zongpaiParts}). */
const ZONGPAI_FIELDS = {
  zongpai_no: z.string(),
  status: z.enum(['OPEN', 'CLOSED']),
  version: z.int(),
  created_at: z.string(),
  created_by: z.string(),
  closed_at: z.nullable(z.string()),
  closed_by: z.nullable(z.string()),
};
const ZongpaiHead = /* @__PURE__ */ z.object(ZONGPAI_FIELDS);
/** A box part of a zongpai's answer. */
const ZongpaiBox = /* @__PURE__ */ z.object({ box_no: z.string(), total_quantity: z.number() });

type ZongpaiRow = Omit<ZongpaiResponse, 'box_count' | 'total_quantity'>;

/**
 * The registration's answer row: the zongpai registered (its fields NULL when none was), whether
 * the number is a box's or a location's, and the number tried (NULL when no SSCC was left).
 */
const RegisterRow = /* @__PURE__ */ z.object({
  zongpai_no: z.nullable(ZONGPAI_FIELDS.zongpai_no),
  status: z.nullable(ZONGPAI_FIELDS.status),
  version: z.nullable(ZONGPAI_FIELDS.version),
  created_at: z.nullable(ZONGPAI_FIELDS.created_at),
  created_by: z.nullable(ZONGPAI_FIELDS.created_by),
  closed_at: ZONGPAI_FIELDS.closed_at,
  closed_by: ZONGPAI_FIELDS.closed_by,
  boxes: z.array(ZongpaiBox),
  is_box: z.boolean(),
  is_location: z.boolean(),
  number: z.nullable(z.string()),
});
type RegisterRow = z.infer<typeof RegisterRow>;

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

/** The GS1 mod-10 check digit of the 17 digits `body` (SQL text), as one digit of text. */
const gs1CheckDigitSql = (body: string) =>
  `(SELECT ((10 - sum(substr(${body}, d.i, 1)::integer * CASE WHEN d.i % 2 = 1 THEN 3 ELSE 1 END) % 10) % 10)::text FROM generate_series(1, 17) AS d (i))`;

/**
 * Registers a zongpai unless its number is taken, or is the number of a box in the ERP plan
 * or a registered location: a scan of that number must keep meaning the box (its location, its
 * boxing) or the location, never a pallet.
 *
 * With `:sscc` the number is the next SSCC: the extension digit, the company prefix, the next
 * serial reference of that pair (`cargo.sscc_serial`, counted on in this statement; racing
 * registrations wait for each other on its row) padded to 17 digits, and the GS1 check digit.
 * No row comes back from `serial` when the serials are used up (`:serial_max`). A serial taken by
 * a statement that then registers nothing (the number is taken or is a box's) stays taken: a
 * serial is never handed out twice. `number` answers the number tried, NULL when none was left.
 */
export const registerStatement = (erpView: string): WriteStatement<RegisterRow> => ({
  ctes: `
serial AS (
  INSERT INTO cargo.sscc_serial AS s (extension_digit, company_prefix, last_serial)
  SELECT CAST(:sscc_extension AS text), CAST(:sscc_prefix AS text), 1 WHERE :sscc AND ${PROCEED}
  ON CONFLICT (extension_digit, company_prefix) DO UPDATE SET last_serial = s.last_serial + 1, changed_at = now()
    WHERE s.last_serial < CAST(:serial_max AS bigint)
  RETURNING s.extension_digit || s.company_prefix || lpad(s.last_serial::text, 16 - char_length(s.company_prefix), '0') AS body
),
number AS (
  SELECT CAST(:zongpai_no AS text) AS zongpai_no WHERE NOT :sscc
  UNION ALL
  SELECT s.body || ${gs1CheckDigitSql('s.body')} FROM serial s
),
-- The view's own index compares in its collation; an SSCC is built from codes in "C".
box_of_plan AS (SELECT 1 FROM ${quoteIdentifier(erpView)} v, number n WHERE v.box_no = n.zongpai_no COLLATE "default" LIMIT 1),
a_location AS (SELECT 1 FROM cargo.location l, number n WHERE l.location_code = n.zongpai_no),
registered AS (
  INSERT INTO cargo.zongpai (zongpai_no, created_by) SELECT n.zongpai_no, :actor FROM number n
  WHERE ${PROCEED} AND NOT EXISTS (SELECT 1 FROM box_of_plan) AND NOT EXISTS (SELECT 1 FROM a_location)
  ON CONFLICT (zongpai_no) DO NOTHING
  RETURNING *
),
${zongpaiOutbox('zongpai.registered', 'registered', "'[]'::json")}`,
  select: `
SELECT ${zongpaiColumns('r')}, '[]'::json AS boxes, EXISTS (SELECT 1 FROM box_of_plan) AS is_box,
       EXISTS (SELECT 1 FROM a_location) AS is_location, (SELECT n.zongpai_no FROM number n) AS number
FROM (SELECT 1) AS one LEFT JOIN registered r ON true`,
  refusedAsInvalid: 'r.is_box OR r.is_location',
  // Shape 2 answers the number tried (an SSCC's is not in the request) and whether it is a
  // registered location's; a shape-1 row is a named zongpai's, from before the register.
  reply: { version: 2, upgrades: { 1: (row) => ({ ...row, is_location: false, number: null }) } },
  row: RegisterRow,
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
const closeStatementOf = (): WriteStatement<PartRow> => ({
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
  row: PART_ROW,
});
export const closeStatement: WriteStatement<PartRow> = /* @__PURE__ */ closeStatementOf();
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

/** A part's data parsed by `schema` ({@link parsedRow}). */
const partData = <T>(schema: z.ZodMiniType<T>, row: PartRow): T =>
  parsedRow(schema, row.data, `a zongpai's ${row.part} part`);

/** A zongpai answered as {@link zongpaiParts}, put back together; undefined when there is no such zongpai. */
export const zongpaiFromParts = (rows: readonly PartRow[]): ZongpaiResponse | undefined => {
  const head = rows.find((row) => row.part === 'head');
  if (head === undefined) return undefined;
  const boxes = rows.filter((row) => row.part === 'box').map((row) => partData(ZongpaiBox, row));
  return withTotals({ ...partData(ZongpaiHead, head), boxes });
};

type Capability = { readonly db: Db; readonly config: Pick<Config, 'erpBoxView' | 'sscc'> };

/** What registering names: the zongpai's own number, or none, for the next SSCC. */
export interface ZongpaiToRegister {
  readonly zongpai_no?: string | undefined;
}

/**
 * Zongpai (master tags such as pallets): register, read with boxes and totals, close (closing
 * a closed one answers it as it is), one factory per operation so that a function carries only
 * its own statement. Totals are derived from the boxes at read time, so concurrent appends cannot
 * lose a count.
 *
 * @example
 * ```ts
 * const register = makeZongpaiRegister({ db, config });
 * await register({ zongpai_no: 'PLT-0001' }, 'olga');
 * await register({}, 'olga'); // the next SSCC (GS1_COMPANY_PREFIX set)
 * await makeZongpaiClose({ db, config })('PLT-0001', 'sam');
 * ```
 */
export const makeZongpaiRegister = ({ db, config }: Capability) => {
  const register = compileWrite(registerStatement(config.erpBoxView));
  const { companyPrefix, extensionDigit } = config.sscc;
  const serialDigits = 16 - (companyPrefix?.length ?? 0);
  return async (zongpai: ZongpaiToRegister, actor: string, idempotency?: Idempotency): Promise<ZongpaiResponse> => {
    const sscc = zongpai.zongpai_no === undefined;
    if (sscc && companyPrefix === undefined) throw new AppError('SSCC_NOT_CONFIGURED');
    const rows = await runWrite(
      db,
      register,
      {
        zongpai_no: zongpai.zongpai_no ?? null,
        sscc,
        sscc_extension: extensionDigit,
        sscc_prefix: companyPrefix ?? '',
        serial_max: 10 ** serialDigits - 1,
        actor,
      },
      idempotency,
    );
    const row = rows[0];
    const number = row?.number ?? zongpai.zongpai_no;
    if (number == null) throw new AppError('SSCC_EXHAUSTED', { value: companyPrefix, extension: extensionDigit });
    if (row?.is_box === true)
      throw new AppError('INVALID_ZONGPAI', {
        value: number,
        reason: ZONGPAI_IS_A_BOX,
      });
    if (row?.is_location === true)
      throw new AppError('INVALID_ZONGPAI', { value: number, reason: ZONGPAI_IS_A_LOCATION });
    if (row?.zongpai_no == null) throw new AppError('ZONGPAI_ALREADY_EXISTS', { value: number });
    return withTotals({ ...parsedRow(ZongpaiHead, row, 'a registered zongpai'), boxes: row.boxes });
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
    const zongpai = zongpaiFromParts(await runWrite(db, CLOSE, { zongpai_no: zongpaiNo, actor }, idempotency));
    if (zongpai === undefined) throw new AppError('ZONGPAI_NOT_FOUND', { value: zongpaiNo });
    return zongpai;
  };
