import type * as z from 'zod/mini';
import type { ErrorBody as ErrorBodySchema } from '../contract/errors.ts';
import { errorCatalogue, type ErrorCode, type Language, type MessageParams } from './catalogue.ts';

/** One field-level problem, listed in `details` when a request has several, or one in an entry of a list. */
export interface FieldProblem {
  readonly field: string;
  readonly code: ErrorCode;
  readonly params: MessageParams;
}

/**
 * The one error type the service throws on purpose. Its HTTP status and domain come from
 * the catalogue, so the renderer needs no `switch`.
 *
 * @example
 * ```ts
 * throw new AppError('ZONGPAI_CLOSED', { value: 'PLT-0001' });
 * ```
 */
export class AppError extends Error {
  override readonly name = 'AppError';
  readonly statusCode: number;
  /** Extra response headers: `Retry-After` from the catalogue unless the thrower gives its own. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    readonly code: ErrorCode,
    readonly params: MessageParams = {},
    readonly details: readonly FieldProblem[] = [],
    options: { cause?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(errorCatalogue[code].message.en(params), { cause: options.cause });
    this.statusCode = errorCatalogue[code].status;
    const retryAfter = errorCatalogue[code].retryAfter;
    this.headers = { ...(retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) }), ...options.headers };
  }
}

/**
 * The unified error body of the SPEC, as its schema declares it; `request_id` is left out only
 * when the event carries none.
 */
export type ErrorBody = Omit<z.infer<typeof ErrorBodySchema>, 'request_id'> & { request_id?: string };

/** Renders an error as the unified body in the caller's language. */
export const errorBody = (error: AppError, language: Language, requestId?: string): ErrorBody => {
  const entry = errorCatalogue[error.code];
  const body: ErrorBody = {
    error_code: error.code,
    message: entry.message[language](error.params),
    domain: entry.domain,
    ...(requestId === undefined ? {} : { request_id: requestId }),
  };
  // Several problems, or one in an entry of a list (`records[3].cargo_no`): a client reads which from `details`.
  if (error.details.length > 1 || error.details.some((d) => d.field.includes('['))) {
    body.details = error.details.map((d) => ({
      field: d.field,
      error_code: d.code,
      message: errorCatalogue[d.code].message[language]({ ...d.params, field: d.field }),
    }));
  }
  return body;
};
