/**
 * The request headers of the API's writes, in the forms a client may send them: the HTTP layer
 * reads each header by its form here and the API reference documents the same one, so that what
 * is documented is what is accepted.
 */

/**
 * An `Idempotency-Key` header: 1-255 visible ASCII characters (a UUID, for example).
 *
 * @example
 * ```ts
 * IDEMPOTENCY_KEY.test('0b7e2a4c-5d1f-4c3e-9a8b-2f6d1e0c7b9a'); // true
 * ```
 */
export const IDEMPOTENCY_KEY = /^[!-~]{1,255}$/;

/**
 * An `If-Match` header that names a version: `3`, `"3"` or `W/"3"`; the version's digits are its
 * first group.
 *
 * @example
 * ```ts
 * IF_MATCH.exec('W/"3"')?.[1]; // '3'
 * ```
 */
export const IF_MATCH = /^(?:W\/)?"?(\d{1,9})"?$/;
