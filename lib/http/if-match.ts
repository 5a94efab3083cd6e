import { AppError } from '../errors/app-error.ts';

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
 * both may be sent only if they agree. `what` words the refusals for the thing versioned.
 *
 * @example
 * ```ts
 * requestVersion(undefined, '"4"', { header: 'must be the box version, e.g. "3"', missing: 'is required' }); // 4
 * ```
 */
export const requestVersion = (
  bodyVersion: number | undefined,
  ifMatch: string | undefined,
  what: { header: string; missing: string },
): number => {
  const headerVersion = ifMatchVersion(ifMatch);
  if (headerVersion === null) throw new AppError('VALIDATION_ERROR', { field: 'If-Match', reason: what.header });
  if (bodyVersion !== undefined && headerVersion !== undefined && bodyVersion !== headerVersion)
    throw new AppError('VALIDATION_ERROR', { field: 'version', reason: 'differs from If-Match' });
  const version = bodyVersion ?? headerVersion;
  if (version === undefined || version < 1)
    throw new AppError('VALIDATION_ERROR', { field: 'version', reason: what.missing });
  return version;
};
