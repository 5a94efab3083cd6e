import { requestVersion } from '../http/if-match.ts';

/**
 * The version a PATCH or DELETE is based on: the body's `version`, or the `If-Match` header
 * (`3`, `"3"` or `W/"3"`). Both may be sent only if they agree.
 *
 * @example
 * ```ts
 * expectedVersion(undefined, '"4"'); // 4
 * ```
 */
export const expectedVersion = (bodyVersion: number | undefined, ifMatch: string | undefined): number =>
  requestVersion(bodyVersion, ifMatch, {
    header: 'must be the box version, e.g. "3"',
    missing: 'is required (body field or If-Match header) and must be at least 1',
  });
