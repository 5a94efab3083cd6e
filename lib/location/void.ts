import * as z from 'zod/mini';
import { AppError } from '../errors/app-error.ts';
import type { Db } from '../db/types.ts';
import { outcomeRow } from '../db/outcome-row.ts';
import {
  compileWrite,
  errorCodeSql,
  isoTime,
  PROCEED,
  runWrite,
  statementErrorCode,
  wroteColumns,
  type Idempotency,
  type WriteStatement,
} from '../db/write.ts';
import { outbox } from '../events/write.ts';
import type { VoidedRecordResponse } from '../contract/common.ts';
import { LIVE, VOIDED } from './record-version.ts';

/** The `location.voided` event's data: the record as `cargo.located` carried it, with `voided_at` and `voided_by`. */
const voidedData =
  () => `jsonb_build_object('id', v.id::text, 'cargo_no', v.cargo_no, 'location_code', v.location_code, 'off_shelf', v.off_shelf,
  'scanned_at', ${isoTime('v.scanned_at')}, 'recorded_at', ${isoTime('v.recorded_at')}, 'recorded_by', v.recorded_by, 'device_id', v.device_id,
  'version', ${VOIDED}, 'voided_at', ${isoTime('v.voided_at')}, 'voided_by', v.voided_by)`;

/**
 * Voids one scan in one statement: the record stays in the history marked voided (who, when);
 * when it was the cargo's current location, the newest unvoided scan before it takes its place
 * (or the cargo has no current location left). Only version 1 (not voided) may be voided;
 * naming version 2 of a voided record answers it as it is, changing nothing.
 *
 * The current location is moved back by `cargo.void_current` (lib/db/sql-functions/), called once for a
 * record this statement voided: it waits for any other scan or void of the cargo holding its
 * current location and reads what they committed, which this statement's own snapshot would not
 * show (two scans voided at once, or a late backlog uploaded as the current scan is voided).
 * The partitioned history is referenced twice by this statement, by constant predicates: to read
 * the record, and to update it (planning costs per partition and per reference, and the Data API
 * keeps no prepared statement); the function's query is planned once per connection.
 *
 * The void is announced (`location.voided`, the record with `voided_at` and `voided_by`) in the
 * same statement, so the event exists exactly when the void committed. The event's rows read the
 * count of `current_kept`, so the current location's row lock comes before the outbox counter's
 * (the lock a write takes last).
 */
const VoidRow = /* @__PURE__ */ (() =>
  outcomeRow({
    id: z.string(),
    cargo_no: z.string(),
    location_code: z.string(),
    voided_at: z.string(),
    voided_by: z.string(),
  }))();
type VoidRow = z.infer<typeof VoidRow>;

const voidStatement = (): WriteStatement<VoidRow> => ({
  ctes: `
target AS (
  SELECT r.id, r.cargo_no, r.location_code, r.voided_at, r.voided_by
  FROM cargo.location_record r
  WHERE r.cargo_no = :cargo_no AND r.id = :id::bigint
),
voided AS (
  UPDATE cargo.location_record r SET voided_at = now(), voided_by = :voided_by
  WHERE r.cargo_no = :cargo_no AND r.id = :id::bigint
    AND r.voided_at IS NULL AND :version::integer = ${LIVE} AND ${PROCEED}
  RETURNING r.id, r.cargo_no, r.location_code, r.off_shelf, r.scanned_at, r.recorded_at, r.recorded_by, r.device_id, r.voided_at, r.voided_by
),
current_kept AS (
  SELECT cargo.void_current(v.cargo_no, v.id) AS outcome FROM voided v
),
${outbox([{ type: 'location.voided', from: 'voided v CROSS JOIN (SELECT count(*) FROM current_kept) AS kept', data: voidedData() }], ':voided_by')}`,
  select: `
SELECT CASE WHEN t.id IS NULL THEN ${errorCodeSql('RECORD_NOT_FOUND')}
            WHEN v.id IS NOT NULL OR (t.voided_at IS NOT NULL AND :version::integer = ${VOIDED}) THEN NULL
            ELSE ${errorCodeSql('VERSION_CONFLICT')} END AS error_code,
       t.id::text AS id, t.cargo_no, t.location_code,
       ${isoTime('COALESCE(v.voided_at, t.voided_at)')} AS voided_at, COALESCE(v.voided_by, t.voided_by) AS voided_by
FROM (SELECT 1) AS one
LEFT JOIN target t ON true
LEFT JOIN voided v ON true`,
  row: VoidRow,
});
// Built by a call marked pure, so that the location functions that import this module through
// lib/location/index.ts without voiding (esbuild cannot prove isoTime() and outbox() free of
// effects) do not carry this SQL.
export const VOID: WriteStatement<VoidRow> = /* @__PURE__ */ voidStatement();

/** The largest record id: PostgreSQL's bigint. */
const MAX_ID = 9_223_372_036_854_775_807n;

/**
 * Voids a wrong scan of a cargo (supervisors), in one statement.
 *
 * @example
 * ```ts
 * const voidScan = makeScanVoider({ db });
 * await voidScan({ cargo_no: 'BOX-0001', id: '42', version: 1 }, 'sam');
 * ```
 */
export const makeScanVoider = ({ db }: { db: Db }) => {
  const write = compileWrite(VOID);
  return async (
    request: { cargo_no: string; id: string; version: number },
    voidedBy: string,
    idempotency?: Idempotency,
  ): Promise<VoidedRecordResponse> => {
    // An id beyond bigint names no record; it never reaches the database as an error.
    if (BigInt(request.id) > MAX_ID) throw new AppError('RECORD_NOT_FOUND', { value: request.id });
    const rows = await runWrite(
      db,
      write,
      { cargo_no: request.cargo_no, id: request.id, version: request.version, voided_by: voidedBy },
      idempotency,
    );
    const row = rows[0];
    const code = statementErrorCode(row?.error_code);
    if (code === 'VERSION_CONFLICT')
      throw new AppError(code, { value: request.id, version: request.version, reason: 'location_record' });
    if (code !== null) throw new AppError(code, { value: request.id });
    if (!wroteColumns(row, ['id', 'cargo_no', 'location_code', 'voided_at', 'voided_by'])) {
      throw new AppError('RECORD_NOT_FOUND', { value: request.id });
    }
    return {
      id: row.id,
      cargo_no: row.cargo_no,
      location_code: row.location_code,
      voided_at: row.voided_at,
      voided_by: row.voided_by,
      version: VOIDED,
    };
  };
};
