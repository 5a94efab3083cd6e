import * as z from 'zod/mini';
import { AppError } from '../errors/app-error.ts';
import { compileWrite, parsedRow, PROCEED, runWrite, type Idempotency, type WriteStatement } from '../db/write.ts';
import { quoteIdentifier } from '../db/identifier.ts';
import { isCargoSql, placesOfCargoSql, probeSql } from '../location-register/cargo.ts';
import type { ZongpaiResponse } from '../contract/responses.ts';
import {
  withTotals,
  ZONGPAI_FIELDS,
  ZongpaiBox,
  zongpaiColumns,
  ZongpaiHead,
  zongpaiOutbox,
  type Capability,
} from './zongpai.ts';

/**
 * The registration's answer row: the zongpai registered (its fields NULL when none was), whether
 * the number is a box's or a location's, and the number tried (NULL when no SSCC was left).
 */
const RegisterRow = /* @__PURE__ */ (() =>
  z.object({
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
  }))();
type RegisterRow = z.infer<typeof RegisterRow>;

/** The GS1 mod-10 check digit of the 17 digits `body` (SQL text), as one digit of text. */
const gs1CheckDigitSql = (body: string) =>
  `(SELECT ((10 - sum(substr(${body}, d.i, 1)::integer * CASE WHEN d.i % 2 = 1 THEN 3 ELSE 1 END) % 10) % 10)::text FROM generate_series(1, 17) AS d (i))`;

/** The 17 digits of an SSCC before its check digit (SQL): extension digit, company prefix, serial reference padded. */
const ssccBodySql = (extension: string, prefix: string, serial: string) =>
  `${extension} || ${prefix} || lpad(${serial}::text, 16 - char_length(${prefix}), '0')`;

/**
 * The first serial reference from `from` (SQL, a bigint) to `:serial_max` whose SSCC is free: not
 * a zongpai, a box (saved or of the ERP plan) or a registered location (as the SSCC or as its
 * GS1-128 label, `00` and the SSCC); NULL when none is left.
 * The serials come from a set-returning function in the select list, which yields one row at a
 * time, so the LIMIT stops at the first free one (in FROM, the function would be read whole
 * first); each candidate's number is probed by index, as a registration's is.
 */
const firstFreeSerialSql = (erpView: string, from: string) => `(
  SELECT f.serial
  FROM (
    -- OFFSET 0 keeps each candidate's number computed once, not once per probe.
    SELECT c.serial, c.body || ${gs1CheckDigitSql('c.body')} AS number
    FROM (
      SELECT serial, ${ssccBodySql('CAST(:sscc_extension AS text)', 'CAST(:sscc_prefix AS text)', 'serial')} AS body
      FROM (SELECT generate_series(${from}, CAST(:serial_max AS bigint)) AS serial) g
    ) c
    OFFSET 0
  ) f
  WHERE NOT (${isCargoSql(erpView, 'f.number')} OR ${probeSql('cargo.location l', `l.location_code = ANY (${placesOfCargoSql('f.number')})`)})
  LIMIT 1)`;

/**
 * Registers a zongpai unless its number is taken, or is the number of a box in the ERP plan
 * or a registered location: a scan of that number must keep meaning the box (its location, its
 * boxing) or the location, never a pallet.
 *
 * With `:sscc` the number is the next free SSCC: the extension digit, the company prefix, the next
 * serial reference of that pair (`cargo.sscc_serial`) padded to 17 digits, and the GS1 check
 * digit, where a serial whose number is already taken (a pallet registered by hand, a carton the
 * ERP labelled from the same prefix, a location) is passed over and stays unused. `held` locks the
 * pair's row first and reads its latest serial (racing registrations wait for each other there),
 * so the search (`free`) starts after the serial last handed out. Only the very first registrations of a
 * pair, racing before its row exists, cannot wait on it: the one that comes second takes the next
 * serial unsearched. No row comes back from `serial` when the serials are used up (`:serial_max`).
 * A serial is never handed out twice. `number` answers the number tried, NULL when none was left.
 */
export const registerStatement = (erpView: string): WriteStatement<RegisterRow> => ({
  ctes: `
held AS (
  SELECT h.last_serial FROM cargo.sscc_serial h
  WHERE :sscc AND ${PROCEED} AND h.extension_digit = CAST(:sscc_extension AS text) AND h.company_prefix = CAST(:sscc_prefix AS text)
  FOR UPDATE
),
free AS MATERIALIZED (
  SELECT ${firstFreeSerialSql(erpView, 'COALESCE((SELECT h.last_serial FROM held h) + 1, 1)')} AS serial WHERE :sscc AND ${PROCEED}
),
serial AS (
  INSERT INTO cargo.sscc_serial AS s (extension_digit, company_prefix, last_serial)
  SELECT CAST(:sscc_extension AS text), CAST(:sscc_prefix AS text), f.serial FROM free f WHERE f.serial IS NOT NULL AND ${PROCEED}
  ON CONFLICT (extension_digit, company_prefix) DO UPDATE
    SET last_serial = GREATEST(EXCLUDED.last_serial, s.last_serial + 1), changed_at = now()
    WHERE s.last_serial < CAST(:serial_max AS bigint)
  RETURNING ${ssccBodySql('s.extension_digit', 's.company_prefix', 's.last_serial')} AS body
),
number AS (
  SELECT CAST(:zongpai_no AS text) AS zongpai_no WHERE NOT :sscc
  UNION ALL
  SELECT s.body || ${gs1CheckDigitSql('s.body')} FROM serial s
),
-- The view's own index compares in its collation; an SSCC is built from codes in "C".
box_of_plan AS (SELECT 1 FROM ${quoteIdentifier(erpView)} v, number n WHERE v.box_no = n.zongpai_no COLLATE "default" LIMIT 1),
-- An SSCC's GS1-128 label reads as 00 and the SSCC: a location registered so is the pallet's label too.
a_location AS (
  SELECT 1 FROM cargo.location l, number n
  WHERE l.location_code = ANY (${placesOfCargoSql('n.zongpai_no')})
),
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

/** What registering names: the zongpai's own number, or none, for the next SSCC. */
export interface ZongpaiToRegister {
  readonly zongpai_no?: string | undefined;
}

/**
 * Registers a zongpai (a master tag such as a pallet) by its number, or by the next SSCC, in one
 * statement ({@link registerStatement}).
 *
 * @example
 * ```ts
 * const register = makeZongpaiRegister({ db, config });
 * await register({ zongpai_no: 'PLT-0001' }, 'olga');
 * await register({}, 'olga'); // the next SSCC (GS1_COMPANY_PREFIX set)
 * ```
 */ export const makeZongpaiRegister = ({ db, config }: Capability) => {
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
    if (row?.is_box === true) throw new AppError('INVALID_ZONGPAI', { value: number, reason: 'zongpai_is_a_box' });
    if (row?.is_location === true)
      throw new AppError('INVALID_ZONGPAI', { value: number, reason: 'zongpai_is_a_location' });
    if (row?.zongpai_no == null) throw new AppError('ZONGPAI_ALREADY_EXISTS', { value: number });
    return withTotals({ ...parsedRow(ZongpaiHead, row, 'a registered zongpai'), boxes: row.boxes });
  };
};
