import { AppError } from '../errors/app-error.ts';
import { isErrorCode, type ErrorCode } from '../errors/catalogue.ts';
import type { BoxSaveResponse } from '../openapi/responses.ts';
import type { BoxItem } from './schemas.ts';

/** A statement's own code for "the box exists but is not boxed": answered as BOX_NOT_FOUND. */
export const NOT_BOXED = 'NOT_BOXED';

/** The SPEC's `BoxSaveResponse`, as its schema declares it. */
export type { BoxSaveResponse };

/** The row a box write answers with: either the first problem found, or the written box. */
export interface BoxOutcomeRow extends Record<string, unknown> {
  error_code: string | null;
  error_subject: string | null;
  error_limit: number | null;
  box_no: string | null;
  zongpai_no: string | null;
  status: 'BOXED' | 'NOT_BOXED' | null;
  version: number | null;
  total_quantity: number | null;
  saved_at: string | null;
  saved_by: string | null;
  complete: boolean | null;
  items: BoxItem[];
}

/**
 * Turns a box write's outcome row into the response, or into the error its problem names.
 * `whenNothingWritten` says what it means that no problem was found and still nothing was
 * written: another request changed the box first (already boxed, or a newer version).
 */
export const boxOutcome = (row: BoxOutcomeRow | undefined, whenNothingWritten: ErrorCode, boxNo: string, version?: number): BoxSaveResponse => {
  if (row?.error_code === NOT_BOXED) throw new AppError('BOX_NOT_FOUND', { value: boxNo, reason: 'not_boxed' });
  if (row?.error_code != null && isErrorCode(row.error_code)) {
    const limit = row.error_limit ?? version;
    throw new AppError(row.error_code, { value: row.error_subject ?? boxNo, ...(limit == null ? {} : { limit }) });
  }
  if (row?.box_no == null || row.version == null || row.status == null || row.saved_at == null || row.saved_by == null) {
    throw new AppError(whenNothingWritten, { value: boxNo, ...(version === undefined ? {} : { limit: version }) });
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
