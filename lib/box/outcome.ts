import * as z from 'zod/mini';
import { outcomeRow } from '../db/outcome-row.ts';
import type { Db, Row, SqlParams } from '../db/types.ts';
import {
  runWrite,
  statementErrorCode,
  wroteColumns,
  type CompiledWrite,
  type Idempotency,
  type WriteStatement,
} from '../db/write.ts';
import { AppError } from '../errors/app-error.ts';
import type { ErrorCode, MessageParams } from '../errors/catalogue.ts';
import {
  boxEventCte,
  boxOutbox,
  boxOutcomeSelect,
  BOX_REFUSED_AS_INVALID,
  BOX_REPLY,
  CHECK_REASONS,
  planCte,
  type CheckReason,
  type PlanRules,
} from './sql.ts';
import type { BoxSaveResponse } from '../contract/responses.ts';

/** The SPEC's `BoxSaveResponse`, as its schema declares it. */
export type { BoxSaveResponse };

/**
 * The row a box write answers with: either the first problem found (see `Check` in sql.ts), or
 * the written box. Every box write's statement declares it as its row, so a row of any other
 * shape fails the request as an internal error.
 */
export const BoxOutcomeRow = /* @__PURE__ */ (() =>
  z.extend(
    outcomeRow({
      /** The box, zongpai or item the problem is about. */
      error_value: z.string(),
      /** The reason, or which variant of the code's message applies, e.g. `not_boxed` for BOX_NOT_FOUND. */
      error_reason: z.string(),
      /** The planned quantity the request goes beyond (QUANTITY_EXCEEDS_PLAN, ERP_PLAN_INVALID). */
      error_planned: z.number(),
      /** The version the request was based on (VERSION_CONFLICT). */
      error_version: z.int(),
      /** The order or customer the zongpai already holds (ZONGPAI_MIXES_ORDERS, ZONGPAI_MIXES_CUSTOMERS). */
      error_other: z.string(),
      box_no: z.string(),
      zongpai_no: z.string(),
      status: z.enum(['BOXED', 'NOT_BOXED']),
      version: z.int(),
      total_quantity: z.number(),
      saved_at: z.string(),
      saved_by: z.string(),
      complete: z.boolean(),
    }),
    // Every row holds the items, an empty list for a problem's.
    { items: z.array(z.object({ item_code: z.string(), quantity: z.int() })) },
  ))();
export type BoxOutcomeRow = z.infer<typeof BoxOutcomeRow>;

/** The event type each box action announces in the outbox. */
const BOX_EVENT_TYPES = { SAVE: 'box.saved', EDIT: 'box.edited', UNDO: 'box.undone' } as const;

/** What one box write's statement adds to what every box write shares. */
export interface BoxWrite {
  /** What the box's trail (`cargo.box_event`) records of it. */
  readonly action: keyof typeof BOX_EVENT_TYPES;
  /**
   * The write's own CTEs, from a new line, after the ERP plan's (`plan_lines`, `plan`): the items
   * the box holds after it (`requested`, which the events read), the zongpai rows it locks, its
   * checks (`problem`, which the answer reads) and its write.
   */
  readonly ctes: string;
  /** The CTE that writes the box: its trail event and its outbox event are of the boxes it returns. */
  readonly written: string;
  /** The CTE the answer reads the box from, when not `written` (an edit that changes nothing answers the box as it is). */
  readonly answered?: string;
}

/**
 * A box write's statement: the ERP plan of `:box_no`, the write's own CTEs, then what every
 * box write does with the box it wrote (its trail event, its outbox event) and its answer, one
 * {@link BoxOutcomeRow}. A box write that answers more extends the result with its own `select`
 * and `row`.
 *
 * @example
 * ```ts
 * const undo = boxWriteStatement(erpView, rules, { action: 'UNDO', written: 'undone', ctes: `
 * undone AS (UPDATE cargo.box b SET ... WHERE b.box_no = :box_no AND ${PROCEED} RETURNING b.*)` });
 * ```
 */
export const boxWriteStatement = (
  erpView: string,
  rules: PlanRules,
  { action, ctes, written, answered = written }: BoxWrite,
): WriteStatement<BoxOutcomeRow> => ({
  ctes: `
${planCte(erpView, rules)},${ctes},
${boxEventCte(written, action)},
${boxOutbox(written, BOX_EVENT_TYPES[action])}`,
  select: boxOutcomeSelect(answered),
  refusedAsInvalid: BOX_REFUSED_AS_INVALID,
  reply: BOX_REPLY,
  row: BoxOutcomeRow,
});

/** A saved box as the request names it: its number and the version the change is based on. */
export interface BoxAtVersion {
  readonly box_no: string;
  readonly version: number;
}

/** One request's box write: the statement compiled for it, who asks, and the Idempotency-Key if any. */
export interface BoxWriteCall<R extends Row = BoxOutcomeRow> {
  readonly db: Db;
  readonly write: CompiledWrite<R>;
  readonly actor: string;
  readonly idempotency: Idempotency | undefined;
}

/** Runs the call's statement with `params` and the actor: its outcome row, if it answered one. */
export const runBoxWrite = async <R extends BoxOutcomeRow = BoxOutcomeRow>(
  call: BoxWriteCall<R>,
  params: SqlParams,
): Promise<R | undefined> =>
  (await runWrite<R>(call.db, call.write, { ...params, actor: call.actor }, call.idempotency))[0];

/** A row's reason: none, or a code the catalogue renders; any other value is the statement's defect. */
const checkReason = (reason: string | null): { reason?: CheckReason } => {
  if (reason == null) return {};
  const known = CHECK_REASONS.find((r) => r === reason);
  if (known === undefined) throw new Error(`a box write answered the unknown reason ${JSON.stringify(reason)}`);
  return { reason: known };
};

/** The refusals of the mixing rule, whose value is an order or a customer. */
const MIXING_CODES: ReadonlySet<ErrorCode> = new Set(['ZONGPAI_MIXES_ORDERS', 'ZONGPAI_MIXES_CUSTOMERS']);

/** What the message of a problem row says, each column under its message parameter. */
const problemParams = (
  code: ErrorCode,
  row: BoxOutcomeRow,
  boxNo: string,
  zongpaiNo: string | undefined,
): MessageParams => ({
  // A mixing refusal's value is the box's order or customer: none is none, not the box.
  ...(row.error_value != null ? { value: row.error_value } : MIXING_CODES.has(code) ? {} : { value: boxNo }),
  box: boxNo,
  ...(zongpaiNo === undefined ? {} : { zongpai: zongpaiNo }),
  ...(row.error_other == null ? {} : { other: row.error_other }),
  ...checkReason(row.error_reason),
  ...(row.error_planned == null ? {} : { limit: row.error_planned }),
  ...(row.error_version == null ? {} : { version: row.error_version }),
});

/**
 * Turns a box write's outcome row into the response, or into the error its problem names.
 * `whenNothingWritten` says what it means that no problem was found and still nothing was
 * written: another request changed the box first (already boxed, or a newer version).
 */
export const boxOutcome = (
  row: BoxOutcomeRow | undefined,
  whenNothingWritten: ErrorCode,
  boxNo: string,
  version?: number,
  zongpaiNo?: string,
): BoxSaveResponse => {
  const code = statementErrorCode(row?.error_code);
  if (row !== undefined && code !== null) throw new AppError(code, problemParams(code, row, boxNo, zongpaiNo));
  if (!wroteColumns(row, ['box_no', 'version', 'status', 'saved_at', 'saved_by'])) {
    throw new AppError(whenNothingWritten, { value: boxNo, ...(version === undefined ? {} : { version }) });
  }
  return {
    box_no: row.box_no,
    zongpai_no: row.zongpai_no,
    status: row.status,
    version: row.version,
    complete: row.complete === true,
    items: row.items,
    total_quantity: row.total_quantity ?? 0,
    saved_at: row.saved_at,
    saved_by: row.saved_by,
  };
};
