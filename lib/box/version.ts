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
    header: { reason: 'if_match_form', versioned: 'box' },
    missing: { reason: 'version_missing', versioned: 'box' },
  });
