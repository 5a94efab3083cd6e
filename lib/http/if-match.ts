import { AppError } from '../errors/app-error.ts';
import type { Reason } from '../errors/reasons.ts';

/** An `If-Match` header that names a version: `3`, `"3"` or `W/"3"`. */
export const IF_MATCH = /^(?:W\/)?"?(\d{1,9})"?$/;

/**
 * The version an `If-Match` header names: `3`, `"3"` and `W/"3"` all name version 3.
 * `undefined` when there is no header (or an empty one), `null` when it names no version.
 *
 * @example
 * ```ts
 * ifMatchVersion('W/"4"'); // 4
 * ```
 */
export const ifMatchVersion = (header: string | undefined): number | null | undefined => {
  const value = header?.trim();
  if (value === undefined || value === '') return undefined;
  const digits = IF_MATCH.exec(value)?.[1];
  return digits === undefined ? null : Number(digits);
};

/**
 * The version a PATCH or DELETE is based on: the body's `version`, or the `If-Match` header;
 * both may be sent only if they agree. `what` gives the reasons of the refusals for the thing versioned.
 *
 * @example
 * ```ts
 * requestVersion(undefined, '"4"', { header: { reason: 'if_match_form', versioned: 'box' }, missing: { reason: 'required' } }); // 4
 * ```
 */
export const requestVersion = (
  bodyVersion: number | undefined,
  ifMatch: string | undefined,
  what: { header: Reason; missing: Reason },
): number => {
  const headerVersion = ifMatchVersion(ifMatch);
  if (headerVersion === null) throw new AppError('VALIDATION_ERROR', { ...what.header, field: 'If-Match' });
  if (bodyVersion !== undefined && headerVersion !== undefined && bodyVersion !== headerVersion)
    throw new AppError('VALIDATION_ERROR', { field: 'version', reason: 'differs_from_if_match' });
  const version = bodyVersion ?? headerVersion;
  if (version === undefined || version < 1)
    throw new AppError('VALIDATION_ERROR', { ...what.missing, field: 'version' });
  return version;
};
