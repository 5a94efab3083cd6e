import { badRequest, unsupportedResult } from './errors.ts';
import { byteaToBase64, parsePgArray, stripUtcOffset } from './pg-text.ts';
import type { PgArray } from './pg-text.ts';
import type { PgTypeInfo } from './pg-types.ts';

/** `resultSetOptions` of ExecuteStatement. */
export interface ResultSetOptions {
  readonly decimalReturnType: 'STRING' | 'DOUBLE_OR_LONG';
  readonly longReturnType: 'LONG' | 'STRING';
}

export const DEFAULT_RESULT_SET_OPTIONS: ResultSetOptions = { decimalReturnType: 'STRING', longReturnType: 'LONG' };

/** A JSON number written with exactly the given digits (`JSON.rawJSON`), whatever its size. */
export type RawNumber = { readonly rawJSON: string };

/**
 * The Data API sends a 64-bit integer's exact digits; going through a JS number would round
 * anything beyond 2^53 before it even reaches the wire.
 */
const exactLong = (digits: string): RawNumber =>
  (JSON as unknown as { rawJSON(text: string): RawNumber }).rawJSON(digits);

/** A Data API `Field` as restJson1 puts it on the wire (blobs in base64). */
export type WireValue =
  | { isNull: true }
  | { longValue: RawNumber }
  | { doubleValue: number | string }
  | { stringValue: string }
  | { booleanValue: boolean }
  | { blobValue: string }
  | { arrayValue: WireArray };

export type WireArray =
  | { longValues: (RawNumber | null)[] }
  | { doubleValues: (number | string | null)[] }
  | { booleanValues: (boolean | null)[] }
  | { stringValues: (string | null)[] };

/** The real service refuses a result bigger than this rather than truncate it. */
const MAX_RECORDS_BYTES = 1024 * 1024;
/** The JSON format has its own, larger limit (AWS documents 10 MB). */
const MAX_FORMATTED_BYTES = 10 * 1024 * 1024;
const TOO_LARGE = 'Database returned more than the allowed response size limit';
/**
 * "The Data API size limit is 64 KB per row in the result set returned by the database"
 * (https://docs.aws.amazon.com/AmazonRDS/latest/AuroraUserGuide/data-api.limitations.html), the
 * error its troubleshooting page heads "Packet for query is too large"; the rest of the message
 * is this emulator's. Counted as the row's values as the database returns them.
 */
const MAX_ROW_BYTES = 64 * 1024;
const checkRowSize = (row: readonly (string | null)[]): void => {
  const bytes = row.reduce((sum, text) => sum + (text === null ? 0 : Buffer.byteLength(text)), 0);
  if (bytes > MAX_ROW_BYTES)
    throw badRequest(`Packet for query is too large: a row of ${bytes} bytes, above the limit of 64 KB per row`);
};

/** Smithy's JSON codec carries non-finite doubles as these strings. */
const toDouble = (text: string): number | string => {
  const value = Number(text);
  return Number.isFinite(value) ? value : text;
};

const isIntegerText = (text: string): boolean => /^-?\d+$/.test(text);

/**
 * A bool's text (`t`, `f`) or a bit's (`1`, `0`) as a boolean. A bit string of more than one
 * bit has no boolean: refused rather than altered.
 */
const toBoolean = (text: string, type: PgTypeInfo): boolean => {
  if (type.name !== 'bit') return text === 't';
  if (text !== '0' && text !== '1') throw unsupportedResult('bit[] with elements of more than one bit');
  return text === '1';
};

const scalarText = (text: string, type: PgTypeInfo): string =>
  type.kind === 'timestamptz' ? stripUtcOffset(text) : type.kind === 'blob' ? byteaToBase64(text) : text;

const toWireArray = (items: PgArray, element: PgTypeInfo): WireArray => {
  // AWS: "UnsupportedResultException ... It contained a multidimensional array."
  if (items.some((item) => Array.isArray(item))) throw unsupportedResult('multidimensional array');
  const texts = items as (string | null)[];
  switch (element.kind) {
    case 'long':
      return { longValues: texts.map((t) => (t === null ? null : exactLong(t))) };
    case 'double':
      return { doubleValues: texts.map((t) => (t === null ? null : toDouble(t))) };
    case 'bool':
      return { booleanValues: texts.map((t) => (t === null ? null : toBoolean(t, element))) };
    default:
      return { stringValues: texts.map((t) => (t === null ? null : scalarText(t, element))) };
  }
};

/**
 * One PostgreSQL text value as the Data API `Field` for its type: integers as longValue,
 * floats as doubleValue, numeric as stringValue (exact), bool as booleanValue, bytea as
 * blobValue, arrays as arrayValue, timestamptz as a UTC string without zone, the rest
 * (text, uuid, json, jsonb, enums, date, time, timestamp) as stringValue.
 *
 * @example
 * ```ts
 * toField('2026-11-21 08:30:00+00', timestamptzInfo, DEFAULT_RESULT_SET_OPTIONS); // { stringValue: '2026-11-21 08:30:00' }
 * ```
 */
const toField = (text: string | null, type: PgTypeInfo, options: ResultSetOptions): WireValue => {
  if (text === null) return { isNull: true };
  switch (type.kind) {
    case 'long':
      return options.longReturnType === 'STRING' ? { stringValue: text } : { longValue: exactLong(text) };
    case 'double':
      return { doubleValue: toDouble(text) };
    case 'decimal':
      if (options.decimalReturnType === 'STRING') return { stringValue: text };
      return isIntegerText(text) ? { longValue: exactLong(text) } : { doubleValue: toDouble(text) };
    case 'bool':
      return { booleanValue: toBoolean(text, type) };
    case 'blob':
      return { blobValue: byteaToBase64(text) };
    case 'array':
      return { arrayValue: toWireArray(parsePgArray(text), type.element ?? type) };
    default:
      return { stringValue: scalarText(text, type) };
  }
};

/** Records, refused with BadRequestException when a row exceeds 64 KB or all would exceed 1 MiB. */
export const toRecords = (
  rows: readonly (readonly (string | null)[])[],
  types: readonly PgTypeInfo[],
  options: ResultSetOptions,
): WireValue[][] => {
  let bytes = 0;
  return rows.map((row) => {
    checkRowSize(row);
    const record = row.map((text, index) => toField(text, types[index] as PgTypeInfo, options));
    bytes += Buffer.byteLength(JSON.stringify(record));
    if (bytes > MAX_RECORDS_BYTES) throw badRequest(TOO_LARGE);
    return record;
  });
};

/** A JSON number for a PostgreSQL numeric text, or a string where JSON has no number (NaN). */
const jsonNumber = (text: string): string => (/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(text) ? text : JSON.stringify(text));

const jsonValue = (text: string | null, type: PgTypeInfo, options: ResultSetOptions): string => {
  if (text === null) return 'null';
  switch (type.kind) {
    case 'long':
      return options.longReturnType === 'STRING' ? JSON.stringify(text) : text; // raw digits: no 2^53 rounding here
    case 'double':
      return jsonNumber(text);
    case 'decimal':
      return options.decimalReturnType === 'STRING' ? JSON.stringify(text) : jsonNumber(text);
    case 'bool':
      return toBoolean(text, type) ? 'true' : 'false';
    case 'array':
      return jsonArray(parsePgArray(text), type.element ?? type, options);
    default:
      return JSON.stringify(scalarText(text, type));
  }
};

const jsonArray = (items: PgArray, element: PgTypeInfo, options: ResultSetOptions): string => {
  if (items.some((item) => Array.isArray(item))) throw unsupportedResult('multidimensional array');
  return `[${(items as (string | null)[]).map((item) => jsonValue(item, element, options)).join(',')}]`;
};

/**
 * `formattedRecords` of `formatRecordsAs: 'JSON'`, per the AWS data-type mapping: integers and
 * floats as numbers, numeric as strings, bool as true/false, bytea in base64, arrays as arrays,
 * NULL as null, everything else (json and jsonb included: their text, not parsed) as strings.
 *
 * @example
 * ```ts
 * toFormattedRecords(['id', 'doc'], [['7', '{"a":1}']], [int8Info, jsonbInfo], DEFAULT_RESULT_SET_OPTIONS);
 * // '[{"id":7,"doc":"{\\"a\\":1}"}]'
 * ```
 */
export const toFormattedRecords = (
  labels: readonly string[],
  rows: readonly (readonly (string | null)[])[],
  types: readonly PgTypeInfo[],
  options: ResultSetOptions,
): string => {
  if (new Set(labels).size !== labels.length) {
    throw badRequest('The result set has duplicate column labels; JSON format needs every column label to be unique');
  }
  const keys = labels.map((label) => JSON.stringify(label));
  let bytes = 2;
  const objects = rows.map((row) => {
    checkRowSize(row);
    const object = `{${row.map((text, index) => `${keys[index]}:${jsonValue(text, types[index] as PgTypeInfo, options)}`).join(',')}}`;
    bytes += Buffer.byteLength(object) + 1;
    if (bytes > MAX_FORMATTED_BYTES) throw badRequest(TOO_LARGE);
    return object;
  });
  return `[${objects.join(',')}]`;
};
