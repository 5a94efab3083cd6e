import * as z from 'zod/mini';
import { reasonMessage } from './refusal.ts';

/**
 * A query parameter holding a whole number from `min` to `max` (digits only: no sign, point or
 * exponent), `fallback` when absent. A refusal says what is wanted, never the pattern.
 *
 * @example
 * ```ts
 * const limit = wholeNumberQuery({ min: 1, max: 100, fallback: 20 });
 * ```
 */
export const wholeNumberQuery = ({ min, max, fallback }: { min: number; max?: number; fallback: number }) => {
  const wanted = reasonMessage({ reason: 'whole_number', min, ...(max === undefined ? {} : { max }) });
  // Without a bound, 15 digits: every such number is exact as a JavaScript number.
  const digits = max === undefined ? 15 : String(max).length;
  return z._default(
    z.pipe(
      z.string().check(z.regex(new RegExp(`^\\d{1,${digits}}$`), wanted)),
      z.pipe(
        z.transform(Number),
        z.int().check(z.minimum(min, wanted), ...(max === undefined ? [] : [z.maximum(max, wanted)])),
      ),
    ),
    fallback,
  );
};

/** The opaque `cursor` of a list's previous page: the characters the service's cursors are made of. */
export const cursorQuery = (pattern: RegExp) =>
  z.optional(z.string().check(z.regex(pattern, reasonMessage({ reason: 'not_a_cursor' }))));

/**
 * A page of a listing's boxes (an order's, a packing list's): `limit` boxes at most (1-500,
 * default 500: a page is cut earlier where its items would pass the Data API's result size) and
 * the `cursor` of the previous page, and the `totals_cursor` of the previous page of totals.
 */
export const boxPageQuery = () =>
  z.object({
    limit: wholeNumberQuery({ min: 1, max: 500, fallback: 500 }),
    cursor: cursorQuery(/^[A-Za-z0-9_-]{1,4096}$/),
    totals_cursor: cursorQuery(/^[A-Za-z0-9_-]{1,4096}$/),
  });
