/**
 * Readers for PostgreSQL's text output formats that the Data API reshapes: array literals,
 * bytea hex, and timestamptz (which the Data API returns in UTC without a zone).
 */

/** A parsed array literal: nested lists of element texts, `null` for NULL elements. */
export type PgArray = (string | null | PgArray)[];

const readQuoted = (text: string, from: number): [string, number] => {
  let value = '';
  let i = from + 1;
  while (i < text.length && text[i] !== '"') {
    if (text[i] === '\\') i += 1;
    value += text[i] ?? '';
    i += 1;
  }
  return [value, i + 1];
};

const readArray = (text: string, from: number): [PgArray, number] => {
  const items: PgArray = [];
  let i = from + 1; // past '{'
  while (i < text.length && text[i] !== '}') {
    const c = text[i];
    if (c === ',' || c === ' ') {
      i += 1;
    } else if (c === '{') {
      const [nested, next] = readArray(text, i);
      items.push(nested);
      i = next;
    } else if (c === '"') {
      const [value, next] = readQuoted(text, i);
      items.push(value);
      i = next;
    } else {
      let end = i;
      while (end < text.length && text[end] !== ',' && text[end] !== '}') end += 1;
      const raw = text.slice(i, end).trim();
      items.push(raw.toUpperCase() === 'NULL' ? null : raw);
      i = end;
    }
  }
  return [items, i + 1];
};

/**
 * Parses an array literal as PostgreSQL prints it (optionally with `[1:2]=` bounds).
 *
 * @example
 * ```ts
 * parsePgArray('{{1,2},{3,NULL}}'); // [['1', '2'], ['3', null]]
 * parsePgArray('{"a,b","say \\"hi\\""}'); // ['a,b', 'say "hi"']
 * ```
 */
export const parsePgArray = (text: string): PgArray => {
  const open = text.indexOf('{');
  return open === -1 ? [] : readArray(text, open)[0];
};

/**
 * bytea's hex output (`\x0102`) as base64, the Data API's blob encoding.
 *
 * @example
 * ```ts
 * byteaToBase64('\\x68656c6c6f'); // 'aGVsbG8='
 * ```
 */
export const byteaToBase64 = (text: string): string =>
  text.startsWith('\\x')
    ? Buffer.from(text.slice(2), 'hex').toString('base64')
    : Buffer.from(text, 'latin1').toString('base64');

/**
 * A timestamptz printed in a UTC session (`2026-11-21 08:30:00.5+00`) without its zone, as the
 * Data API returns it.
 *
 * @example
 * ```ts
 * stripUtcOffset('2026-11-21 08:30:00.5+00'); // '2026-11-21 08:30:00.5'
 * ```
 */
export const stripUtcOffset = (text: string): string => text.replace(/[+-]\d\d(?::?\d\d){0,2}(?=( BC)?$)/, '');
