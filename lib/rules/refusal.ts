import type { ErrorCode, MessageParams } from '../errors/catalogue.ts';
import { isReasonCode, type Reason } from '../errors/reasons.ts';

/**
 * What a custom Zod issue carries to the validation middleware (lib/http/validate.ts): the
 * parameters of its message, the error code it answers with when not the field's own, and the
 * reason a VALIDATION_ERROR names where the field has no code of its own and the parameters no reason.
 */
export type IssueParams = MessageParams & { readonly error_code?: ErrorCode; readonly otherwise?: Reason };

/**
 * A refusal as a custom Zod check's parameters: the reason, and the error code it answers with
 * when that is not the field's own.
 *
 * @example
 * ```ts
 * z.string().check(z.refine((s) => PRINTABLE.test(s), refusedBecause({ reason: 'printable' })));
 * ```
 */
export const refusedBecause = (reason: Reason, errorCode?: ErrorCode): { params: IssueParams } => ({
  params: { ...reason, ...(errorCode === undefined ? {} : { error_code: errorCode }) },
});

/**
 * The message of a built-in Zod check (`z.regex`, `z.minimum`, ...) that carries its reason: Zod
 * keeps no more than a message on such an issue, so the reason travels in it as JSON, and
 * {@link reasonInMessage} reads it back. The check itself stays as it is, for the API document.
 *
 * @example
 * ```ts
 * z.string().check(z.regex(/^[A-Za-z0-9_-]{1,200}$/, reasonMessage({ reason: 'not_a_cursor' })));
 * ```
 */
export const reasonMessage = (reason: Reason): string => JSON.stringify(reason);

/** The reason a message of {@link reasonMessage} carries, or undefined for any other message. */
export const reasonInMessage = (message: string): Reason | undefined => {
  if (!message.startsWith('{')) return undefined;
  try {
    const carried = JSON.parse(message) as { reason?: unknown };
    return isReasonCode(carried.reason) ? (carried as Reason) : undefined;
  } catch {
    return undefined;
  }
};
