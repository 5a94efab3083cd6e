import type { ColumnMetadata, Field } from '@aws-sdk/client-rds-data';
import type { Row } from './types.ts';

/**
 * Data API timestamps are UTC without a zone: `2026-11-21 08:30:00.123456`, and before 1 AD
 * with PostgreSQL's era (`0001-12-31 23:56:00 BC`), which ISO 8601 writes as year 0000, then
 * `-000001` (as `Date.toISOString` does): an era dropped would answer a time 2 years later.
 */
const toIsoTimestamp = (text: string): string => {
  const [date = '', time = '00:00:00', era] = text.split(' ');
  const [hms = '00:00:00', fraction = ''] = time.split('.');
  const [year = '', monthDay = ''] = [date.slice(0, date.indexOf('-')), date.slice(date.indexOf('-'))];
  const astronomical = era === 'BC' ? 1 - Number(year) : undefined;
  const isoYear =
    astronomical === undefined ? year : astronomical === 0 ? '0000' : `-${String(-astronomical).padStart(6, '0')}`;
  return `${isoYear}${monthDay}T${hms}.${fraction.padEnd(3, '0').slice(0, 3)}Z`;
};

/** The int8 may exceed 2^53; a statement that can return such a value must cast it to text. */
const safeLong = (value: number, column: string): number => {
  if (!Number.isSafeInteger(value)) throw new RangeError(`Column ${column}: integer beyond 2^53; select it as text`);
  return value;
};

const decodeField = (field: Field, column: ColumnMetadata): unknown => {
  if (field.isNull === true) return null;
  const type = column.typeName?.toLowerCase() ?? '';
  if (field.stringValue !== undefined) {
    if (type === 'json' || type === 'jsonb') return JSON.parse(field.stringValue);
    if (type === 'timestamp' || type === 'timestamptz') return toIsoTimestamp(field.stringValue);
    return field.stringValue; // text, uuid, numeric (kept as a string: exact), dates
  }
  if (field.longValue !== undefined) return safeLong(field.longValue, column.name ?? '?');
  if (field.doubleValue !== undefined) return field.doubleValue;
  if (field.booleanValue !== undefined) return field.booleanValue;
  if (field.blobValue !== undefined) return field.blobValue;
  if (field.arrayValue !== undefined)
    throw new TypeError(`Column ${column.name ?? '?'}: arrays are not decoded; aggregate to json instead`);
  return null;
};

/**
 * Decodes Data API records into plain rows keyed by column label, using the result metadata:
 * json and jsonb are parsed, timestamps become ISO-8601 UTC strings, numerics stay exact strings,
 * int8 beyond 2^53 is refused rather than silently rounded.
 *
 * @example
 * ```ts
 * decodeRecords([[{ stringValue: '2026-11-21 08:30:00' }]], [{ name: 'at', typeName: 'timestamptz' }]);
 * // [{ at: '2026-11-21T08:30:00.000Z' }]
 * ```
 */
export const decodeRecords = (records: Field[][] | undefined, columns: ColumnMetadata[] | undefined): Row[] => {
  if (records === undefined || records.length === 0) return [];
  const meta = columns ?? [];
  return records.map((record) => {
    const row: Row = {};
    record.forEach((field, index) => {
      const column = meta[index] ?? { name: `column${index}` };
      row[column.label ?? column.name ?? `column${index}`] = decodeField(field, column);
    });
    return row;
  });
};
