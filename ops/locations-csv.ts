import { CsvError, parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { normaliseCode, trimScan } from '../lib/contract/scanned-codes.ts';
import { describePattern } from '../lib/rules/identifiers.ts';

/**
 * The location register as a CSV file (RFC 4180, UTF-8, a byte order mark tolerated, CRLF or LF),
 * its header naming the columns `location_code,kind,zone,description,blocked` in any order; zone,
 * description and blocked may be left out or empty. Each line is checked by the rules of
 * `POST /v1/{service_prefix}/locations` (SPEC, The location register), so that a file with a bad
 * line is refused before anything is sent.
 */
export const COLUMNS = ['location_code', 'kind', 'zone', 'description', 'blocked'] as const;
export const KINDS = ['SHELF', 'STAGING', 'DOCK', 'FLOOR', 'QUARANTINE'] as const;
export type Kind = (typeof KINDS)[number];

/** A location as the import route takes it: an empty zone, description or blocked is left out. */
export interface LocationInput {
  readonly location_code: string;
  readonly kind: Kind;
  readonly zone?: string;
  readonly description?: string;
  readonly blocked?: boolean;
}

/** A location of the register as `GET …/locations` lists it (the fields the file holds). */
export interface RegisteredLocation {
  readonly location_code: string;
  readonly kind: string;
  readonly zone: string | null;
  readonly description: string | null;
  readonly blocked: boolean;
}

export interface CsvLine {
  /** The line of the file the record starts on (1 is the header). */
  readonly line: number;
  readonly location: LocationInput;
}

export interface LineProblem {
  readonly line: number;
  readonly reason: string;
}

export type ParsedFile = { ok: true; lines: CsvLine[] } | { ok: false; problems: LineProblem[] };

export interface Rules {
  /** The service's LOCATION_CODE_PATTERN. @default /^[A-Z0-9-]{2,32}$/ */
  readonly locationCode: RegExp;
}

export const DEFAULT_RULES: Rules = { locationCode: /^[A-Z0-9-]{2,32}$/ };
const ZONE = /^[A-Z0-9-]{1,32}$/;
/** Printable: no control, format, surrogate or unassigned code points (as the API's item codes). */
const PRINTABLE = /^[^\p{C}]*$/u;
const DESCRIPTION_MAX = 200;

/** The line a byte offset of the file is on. */
const lineCounter = (bytes: Buffer) => {
  let offset = 0;
  let line = 1;
  return (to: number): number => {
    for (; offset < to && offset < bytes.length; offset += 1) if (bytes[offset] === 0x0a) line += 1;
    return line;
  };
};

/** The first line that is not UTF-8, if any. */
const notUtf8 = (bytes: Buffer): number | undefined => {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let start = 0;
  for (let line = 1; start <= bytes.length; line += 1) {
    const end = bytes.indexOf(0x0a, start);
    const stop = end === -1 ? bytes.length : end;
    try {
      decoder.decode(bytes.subarray(start, stop));
    } catch {
      return line;
    }
    start = stop + 1;
  }
  return undefined;
};

const quoted = (value: string): string => JSON.stringify(value);

/** One record's fields, checked; the reasons it is refused otherwise. */
const checkRecord = (
  fields: Record<string, string>,
  rules: Rules,
): { location: LocationInput; reasons: [] } | { reasons: string[] } => {
  const reasons: string[] = [];
  const code = normaliseCode(fields.location_code ?? '');
  if (!rules.locationCode.test(code))
    reasons.push(`location_code ${quoted(code)} must be ${describePattern(rules.locationCode)}`);
  const kind = trimScan(fields.kind ?? '');
  if (!(KINDS as readonly string[]).includes(kind))
    reasons.push(`kind ${quoted(kind)} must be one of ${KINDS.join(', ')}`);
  const zone = normaliseCode(fields.zone ?? '');
  if (zone !== '' && !ZONE.test(zone)) reasons.push(`zone ${quoted(zone)} must be 1-32 characters of A-Z, 0-9 and '-'`);
  const description = fields.description ?? '';
  if (!PRINTABLE.test(description)) reasons.push('description must hold printable characters only');
  else if ([...description].length > DESCRIPTION_MAX)
    reasons.push(`description is ${[...description].length} characters long, at most ${DESCRIPTION_MAX} are allowed`);
  const blocked = trimScan(fields.blocked ?? '').toLowerCase();
  if (!['', 'true', 'false'].includes(blocked))
    reasons.push(`blocked ${quoted(fields.blocked ?? '')} must be true, false or empty`);
  if (reasons.length > 0) return { reasons };
  return {
    location: {
      location_code: code,
      kind: kind as Kind,
      ...(zone === '' ? {} : { zone }),
      ...(description === '' ? {} : { description }),
      ...(blocked === '' ? {} : { blocked: blocked === 'true' }),
    },
    reasons: [],
  };
};

/** The header's columns, or what is wrong with it. */
const checkHeader = (header: readonly string[]): { columns: string[] } | { reason: string } => {
  const columns = header.map((name) => trimScan(name).toLowerCase());
  const unknown = columns.filter((name) => !(COLUMNS as readonly string[]).includes(name));
  if (unknown.length > 0)
    return { reason: `unknown column ${unknown.map(quoted).join(', ')}; the columns are ${COLUMNS.join(',')}` };
  const twice = columns.filter((name, i) => columns.indexOf(name) !== i);
  if (twice.length > 0) return { reason: `column ${quoted(twice[0] as string)} is named twice` };
  const lacking = ['location_code', 'kind'].filter((name) => !columns.includes(name));
  if (lacking.length > 0) return { reason: `the header lacks the column ${lacking.join(' and ')}` };
  return { columns };
};

/**
 * Reads a location file: every line checked, every bad one named with its line number and its
 * reasons (a code given twice too, after trimming and upper-casing), or the locations in file order.
 *
 * @example
 * ```ts
 * const file = parseLocationsCsv(readFileSync('locations.csv'));
 * if (!file.ok) for (const p of file.problems) console.error(`line ${p.line}: ${p.reason}`);
 * ```
 */
export const parseLocationsCsv = (bytes: Buffer, rules: Rules = DEFAULT_RULES): ParsedFile => {
  const badByte = notUtf8(bytes);
  if (badByte !== undefined) return { ok: false, problems: [{ line: badByte, reason: 'is not UTF-8 text' }] };
  const lineAt = lineCounter(bytes);
  let records: { record: string[]; info: { bytes: number } }[];
  // Where the last whole record ended: an unclosed quote is reported where its record starts.
  let parsedTo = 0;
  try {
    // With `info`, each record comes as { record, info }; the library's types do not say so.
    records = parse(bytes, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      record_delimiter: ['\r\n', '\n'],
      info: true,
      on_record: (record: string[], context: { bytes: number }) => {
        parsedTo = context.bytes;
        return record;
      },
    }) as unknown as typeof records;
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    return { ok: false, problems: [{ line: lineCounter(bytes)(startOf(bytes, parsedTo)), reason: csvReason(error) }] };
  }
  const [header, ...rest] = records;
  if (header === undefined) return { ok: false, problems: [{ line: 1, reason: 'the file is empty' }] };
  const head = checkHeader(header.record);
  if ('reason' in head) return { ok: false, problems: [{ line: 1, reason: head.reason }] };
  const problems: LineProblem[] = [];
  const lines: CsvLine[] = [];
  const firstLineOf = new Map<string, number>();
  let end = header.info.bytes;
  for (const { record, info } of rest) {
    const line = lineAt(startOf(bytes, end));
    end = info.bytes;
    if (record.length !== head.columns.length) {
      problems.push({ line, reason: `has ${record.length} fields, the header ${head.columns.length}` });
      continue;
    }
    const checked = checkRecord(Object.fromEntries(head.columns.map((name, i) => [name, record[i] as string])), rules);
    if (!('location' in checked)) {
      problems.push({ line, reason: checked.reasons.join('; ') });
      continue;
    }
    const code = checked.location.location_code;
    const first = firstLineOf.get(code);
    if (first !== undefined) problems.push({ line, reason: `location_code ${quoted(code)} is on line ${first} too` });
    else firstLineOf.set(code, line);
    lines.push({ line, location: checked.location });
  }
  if (problems.length > 0) return { ok: false, problems };
  if (lines.length === 0) return { ok: false, problems: [{ line: 2, reason: 'the file holds no locations' }] };
  return { ok: true, lines };
};

/** Where the record after byte `end` starts: past the empty lines that are skipped. */
const startOf = (bytes: Buffer, end: number): number => {
  let at = end;
  while (at < bytes.length && (bytes[at] === 0x0d || bytes[at] === 0x0a)) at += 1;
  return at;
};

const csvReason = (error: CsvError): string =>
  error.code === 'CSV_QUOTE_NOT_CLOSED'
    ? 'a quoted field is not closed'
    : error.code === 'CSV_INVALID_CLOSING_QUOTE' || error.code === 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE'
      ? 'a quote inside a field must be doubled, and the field quoted'
      : `is not CSV (${error.message.split(':')[0]})`;

/**
 * The register as the same CSV the import reads: the header, one line per location in the order
 * given, fields quoted where RFC 4180 needs it, CRLF line ends.
 *
 * @example
 * ```ts
 * locationsCsv([{ location_code: 'A-01', kind: 'SHELF', zone: 'A', description: 'Rack 1, left', blocked: false }]);
 * // 'location_code,kind,zone,description,blocked\r\nA-01,SHELF,A,"Rack 1, left",false\r\n'
 * ```
 */
export const locationsCsv = (locations: readonly RegisteredLocation[]): string =>
  stringify(
    locations.map((l) => [l.location_code, l.kind, l.zone ?? '', l.description ?? '', String(l.blocked)]),
    { header: true, columns: [...COLUMNS], record_delimiter: '\r\n' },
  );
