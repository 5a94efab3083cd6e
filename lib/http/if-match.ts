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
  const digits = /^(?:W\/)?"?(\d{1,9})"?$/.exec(value)?.[1];
  return digits === undefined ? null : Number(digits);
};
