import { AppError } from '../errors/app-error.ts';
import { ifMatchVersion } from '../http/if-match.ts';

/**
 * The version a PATCH or DELETE is based on: the body's `version`, or the `If-Match` header
 * (`3`, `"3"` or `W/"3"`). Both may be sent only if they agree.
 *
 * @example
 * ```ts
 * expectedVersion(undefined, '"4"'); // 4
 * ```
 */
export const expectedVersion = (bodyVersion: number | undefined, ifMatch: string | undefined): number => {
  const headerVersion = ifMatchVersion(ifMatch);
  if (headerVersion === null)
    throw new AppError('VALIDATION_ERROR', { field: 'If-Match', reason: 'must be the box version, e.g. "3"' });
  if (bodyVersion !== undefined && headerVersion !== undefined && bodyVersion !== headerVersion) {
    throw new AppError('VALIDATION_ERROR', { field: 'version', reason: 'differs from If-Match' });
  }
  const version = bodyVersion ?? headerVersion;
  if (version === undefined || version < 1)
    throw new AppError('VALIDATION_ERROR', {
      field: 'version',
      reason: 'is required (body field or If-Match header) and must be at least 1',
    });
  return version;
};
