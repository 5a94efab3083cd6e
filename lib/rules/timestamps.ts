/**
 * The instants the service stores and compares in PostgreSQL. JavaScript's Date accepts
 * year 0000 and rolls 29 February of a common year over to 1 March; PostgreSQL refuses
 * both, so a value is checked here first and refused as the client's mistake (400), never
 * left for the database to fail on (500).
 *
 * PostgreSQL counts years before 1 AD with an era (`0001-12-31 23:56:00+00 BC`), JavaScript
 * astronomically (`0000-12-31T23:56:00.000Z`, then `-000001-…`): the history's order times of
 * scans stored before the first scan time was set are read and paged in both forms.
 */

/** The ISO 8601 form PostgreSQL reads: four-digit years 0001..9999 (there is no year 0000). */
const FIRST = new Date('0001-01-01T00:00:00.000Z').getTime();
const LAST = new Date('9999-12-31T23:59:59.999Z').getTime();
/** The earliest instant a PostgreSQL timestamptz holds: 24 November 4714 BC. */
const EARLIEST = new Date('-004713-11-24T00:00:00.000Z').getTime();

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

const ERA = /^(\d{4})(-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z) BC$/;

/**
 * An instant as PostgreSQL writes and reads it, from the ISO text {@link Date.toISOString}
 * writes: years before 1 AD with their era (year 0000 is 1 BC).
 *
 * @example
 * ```ts
 * toPostgresInstant('0000-12-31T23:56:00.000Z'); // '0001-12-31T23:56:00.000Z BC'
 * ```
 */
export const toPostgresInstant = (iso: string): string => {
  const at = new Date(iso);
  const year = at.getUTCFullYear();
  if (year >= 1) return iso;
  return `${String(1 - year).padStart(4, '0')}${iso.slice(iso.indexOf('-', 1))} BC`;
};

/**
 * Reads {@link toPostgresInstant}'s text exactly (`…Z`, or `…Z BC` before 1 AD), within what
 * PostgreSQL stores: a real calendar date, no year 0000, none before 4714 BC. Answers the
 * instant's ISO text as JavaScript writes it, or undefined.
 *
 * @example
 * ```ts
 * parsePostgresInstant('0001-12-31T23:56:00.000Z BC'); // '0000-12-31T23:56:00.000Z'
 * parsePostgresInstant('0000-06-01T00:00:00.000Z'); // undefined
 * ```
 */
export const parsePostgresInstant = (text: string): string | undefined => {
  const bc = ERA.exec(text);
  if (bc === null) return parseExactIsoInstant(text)?.toISOString();
  const [, era = '', rest = ''] = bc;
  const year = 1 - Number(era);
  if (year > 0) return undefined;
  const iso = `${year === 0 ? '0000' : `-${String(-year).padStart(6, '0')}`}${rest}`;
  const at = new Date(iso);
  return at.getTime() >= EARLIEST && at.toISOString() === iso ? iso : undefined;
};
