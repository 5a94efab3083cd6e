/**
 * The instants the service stores and compares in PostgreSQL. JavaScript's Date accepts
 * year 0000 and rolls 29 February of a common year over to 1 March; PostgreSQL refuses
 * both, so a value is checked here first and refused as the client's mistake (400), never
 * left for the database to fail on (500).
 */

/** The ISO 8601 form PostgreSQL reads: four-digit years 0001..9999 (there is no year 0000). */
const FIRST = new Date('0001-01-01T00:00:00.000Z').getTime();
const LAST = new Date('9999-12-31T23:59:59.999Z').getTime();

/**
 * True when a date falls within years 0001..9999 (UTC), the range its ISO text can be stored in.
 *
 * @example
 * ```ts
 * isStorableInstant(new Date('0000-06-01T00:00:00Z')); // false
 * ```
 */
export const isStorableInstant = (at: Date): boolean => {
  const ms = at.getTime();
  return Number.isFinite(ms) && ms >= FIRST && ms <= LAST;
};

/**
 * Reads `YYYY-MM-DDTHH:MM:SS.mmmZ` exactly: the text must name a real instant, written as
 * {@link Date.toISOString} writes it, so that no calendar date is rolled over.
 *
 * @example
 * ```ts
 * parseExactIsoInstant('2025-02-29T00:00:00.000Z'); // undefined
 * ```
 */
export const parseExactIsoInstant = (text: string): Date | undefined => {
  const at = new Date(text);
  return isStorableInstant(at) && at.toISOString() === text ? at : undefined;
};
