import { badRequest } from './errors.ts';
import { scanSql } from './sql-scan.ts';

/** A parameter value as it arrives on the wire (restJson1: blobs are base64 strings). */
export interface WireField {
  readonly isNull?: boolean;
  readonly booleanValue?: boolean;
  readonly longValue?: number;
  readonly doubleValue?: number | string;
  readonly stringValue?: string;
  readonly blobValue?: string;
  readonly arrayValue?: unknown;
}

export interface WireParameter {
  readonly name?: string;
  readonly value?: WireField;
  readonly typeHint?: string;
}

/** A statement ready for the backend: `$n` placeholders and text-format values. */
export interface PositionalStatement {
  readonly text: string;
  readonly values: (string | null)[];
}

/** How a stringValue binds for each typeHint; without one it is text, as in the real service. */
const HINT_CASTS: Readonly<Record<string, string>> = {
  DATE: 'date',
  DECIMAL: 'numeric',
  JSON: 'json',
  TIME: 'time',
  TIMESTAMP: 'timestamp',
  UUID: 'uuid',
};

interface Binding {
  readonly value: string | null;
  /** The explicit cast that fixes the parameter's type, as the Data API's JDBC binding does. */
  readonly cast: string | null;
}

const DOUBLE_WORDS = new Set(['NaN', 'Infinity', '-Infinity']);

const daysIn = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

const isDate = (text: string): boolean => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (match === null) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month);
};

const isTime = (text: string): boolean => {
  const match = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,3})?$/.exec(text);
  if (match === null) return false;
  const [hours, minutes, seconds] = match.slice(1, 4).map(Number) as [number, number, number];
  return hours <= 23 && minutes <= 59 && seconds <= 59;
};

/**
 * The formats the SqlParameter reference gives for each typeHint: DATE `YYYY-MM-DD`, TIME
 * `HH:MM:SS[.FFF]`, TIMESTAMP `YYYY-MM-DD HH:MM:SS[.FFF]` (no zone, no `T`, no words such as
 * `tomorrow` that PostgreSQL itself would accept), DECIMAL a plain decimal number, UUID the
 * canonical 8-4-4-4-12 form. Where AWS (Java's parsers) and PostgreSQL disagree, only what both
 * accept passes; a calendar-impossible date is refused rather than rolled over. JSON is left to
 * the database, which reports invalid JSON itself.
 */
const HINT_FORMATS: Readonly<Record<string, { readonly valid: (text: string) => boolean; readonly format: string }>> = {
  DATE: { valid: isDate, format: 'YYYY-MM-DD' },
  TIME: { valid: isTime, format: 'HH:MM:SS[.FFF]' },
  TIMESTAMP: {
    valid: (text) => /^\S+ \S+$/.test(text) && isDate(text.split(' ')[0] ?? '') && isTime(text.split(' ')[1] ?? ''),
    format: 'YYYY-MM-DD HH:MM:SS[.FFF]',
  },
  DECIMAL: {
    valid: (text) => /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text),
    format: 'a decimal number such as 12.50',
  },
  UUID: {
    valid: (text) => /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(text),
    format: 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx',
  },
};

const bindString = (name: string, value: string, typeHint: string | undefined): Binding => {
  if (typeHint === undefined) return { value, cast: 'text' };
  const cast = HINT_CASTS[typeHint];
  if (cast === undefined)
    throw badRequest(`Invalid typeHint ${typeHint}: expected one of ${Object.keys(HINT_CASTS).join(', ')}`);
  const format = HINT_FORMATS[typeHint];
  if (format !== undefined && !format.valid(value)) {
    throw badRequest(`Parameter ${name}: the value for typeHint ${typeHint} must have the format ${format.format}`);
  }
  return { value, cast };
};

const bindField = (name: string, field: WireField, typeHint: string | undefined): Binding => {
  const members = Object.entries(field).filter(([, v]) => v !== undefined && v !== null);
  if (members.length !== 1) throw badRequest(`Parameter ${name} must have exactly one value member`);
  const [member, value] = members[0] as [string, unknown];
  switch (member) {
    case 'arrayValue':
      throw badRequest('Array parameters are not supported.');
    case 'isNull':
      if (value !== true) throw badRequest(`Parameter ${name}: isNull must be true when set`);
      return { value: null, cast: null }; // untyped, as the real service binds NULL
    case 'stringValue':
      if (typeof value !== 'string') break;
      return bindString(name, value, typeHint);
    case 'longValue':
      if (typeof value !== 'number' || !Number.isInteger(value)) break;
      return { value: BigInt(value).toString(), cast: 'int8' };
    case 'doubleValue':
      if (typeof value === 'number') return { value: String(value), cast: 'float8' };
      if (typeof value === 'string' && DOUBLE_WORDS.has(value)) return { value, cast: 'float8' };
      break;
    case 'booleanValue':
      if (typeof value !== 'boolean') break;
      return { value: String(value), cast: 'bool' };
    case 'blobValue':
      if (typeof value !== 'string') break;
      return { value: `\\x${Buffer.from(value, 'base64').toString('hex')}`, cast: 'bytea' };
    default:
      throw badRequest(`Parameter ${name}: unknown value member ${member}`);
  }
  throw badRequest(`Parameter ${name}: invalid ${member}`);
};

const parametersByName = (parameters: readonly WireParameter[]): Map<string, WireParameter> => {
  const byName = new Map<string, WireParameter>();
  for (const parameter of parameters) {
    if (typeof parameter.name !== 'string' || parameter.name === '') throw badRequest('Every parameter needs a name');
    if (parameter.value === undefined || parameter.value === null)
      throw badRequest(`Parameter ${parameter.name} has no value`);
    if (typeof parameter.value !== 'object') throw badRequest(`Parameter ${parameter.name}: value must be a Field`);
    byName.set(parameter.name, parameter);
  }
  return byName;
};

/**
 * Turns Data API SQL with `:name` parameters into PostgreSQL's `$n`, with the explicit cast
 * each value type binds as (so a plain string into a timestamp column fails unless its
 * typeHint says TIMESTAMP, as in AWS). Every parameter is validated, even unused ones;
 * several statements, array values and a placeholder without a parameter are
 * BadRequestException.
 *
 * @example
 * ```ts
 * toPositional('SELECT * FROM box WHERE box_no = :no OR parent = :no', [{ name: 'no', value: { stringValue: 'B1' } }]);
 * // { text: 'SELECT * FROM box WHERE box_no = $1::text OR parent = $1::text', values: ['B1'] }
 * ```
 */
export const toPositional = (sql: string, parameters: readonly WireParameter[] = []): PositionalStatement => {
  const scan = scanSql(sql);
  if (scan.multipleStatements) throw badRequest("Multistatements aren't supported.");
  const byName = parametersByName(parameters);
  const bindings = new Map<string, Binding>();
  for (const [name, parameter] of byName)
    bindings.set(name, bindField(name, parameter.value as WireField, parameter.typeHint));
  const positions = new Map<string, number>();
  const values: (string | null)[] = [];
  let text = '';
  let copiedUpTo = 0;
  for (const placeholder of scan.placeholders) {
    const binding = bindings.get(placeholder.name);
    if (binding === undefined) throw badRequest(`No value specified for parameter: ${placeholder.name}`);
    let position = positions.get(placeholder.name);
    if (position === undefined) {
      values.push(binding.value);
      position = values.length;
      positions.set(placeholder.name, position);
    }
    text += `${sql.slice(copiedUpTo, placeholder.start)}$${position}${binding.cast === null ? '' : `::${binding.cast}`}`;
    copiedUpTo = placeholder.end;
  }
  return { text: text + sql.slice(copiedUpTo), values };
};
