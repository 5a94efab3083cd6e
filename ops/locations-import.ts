import { createHash } from 'node:crypto';
import { ApiError, type ImportCounts, type RegisterApi } from './locations-api.ts';
import type { CsvLine, LocationInput, RegisteredLocation } from './locations-csv.ts';

/** The route's bounds (SPEC: 1-500 locations; Limits: a request body of 256 KiB at most). */
export const BATCH_SIZE = 500;
export const BODY_LIMIT = 256 * 1024;

export interface Batch {
  /** 1-based, in file order. */
  readonly number: number;
  readonly lines: readonly CsvLine[];
  readonly key: string;
}

/** `JSON.stringify` replacer writing every object's keys in one order (the service's own notion of one body). */
const keysInOrder = (_key: string, value: unknown): unknown =>
  value === null || typeof value !== 'object' || Array.isArray(value)
    ? value
    : Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** A batch's Idempotency-Key: a hash of its body's canonical JSON, the same on every run of the same file. */
export const batchKey = (locations: readonly LocationInput[]): string =>
  `locations-import-${createHash('sha256').update(JSON.stringify({ locations }, keysInOrder)).digest('base64url')}`;

/**
 * The file's locations in batches of 500 in file order, fewer where 500 would make a body over
 * 256 KiB (long descriptions in many-byte scripts), each with its key.
 *
 * @example
 * ```ts
 * batchesOf(file.lines).length; // 100 for a file of 50 000 locations
 * ```
 */
export const batchesOf = (lines: readonly CsvLine[]): Batch[] => {
  const envelope = Buffer.byteLength('{"locations":[]}');
  const batches: Batch[] = [];
  let current: CsvLine[] = [];
  let size = envelope;
  const close = () => {
    if (current.length === 0) return;
    batches.push({ number: batches.length + 1, lines: current, key: batchKey(current.map((l) => l.location)) });
    current = [];
    size = envelope;
  };
  for (const line of lines) {
    const bytes = Buffer.byteLength(JSON.stringify(line.location)) + 1;
    if (current.length === BATCH_SIZE || size + bytes > BODY_LIMIT) close();
    current.push(line);
    size += bytes;
  }
  close();
  return batches;
};

/**
 * Whether the register already holds the location exactly as the file gives it (an empty zone or
 * description is none, an empty blocked is false). Anything else counts as a difference, so the
 * batch is sent and the service decides.
 */
const alreadyRegistered = (wanted: LocationInput, held: RegisteredLocation | undefined): boolean =>
  held !== undefined &&
  held.kind === wanted.kind &&
  (held.zone ?? null) === (wanted.zone ?? null) &&
  (held.description ?? null) === (wanted.description ?? null) &&
  held.blocked === (wanted.blocked ?? false);

export interface Progress {
  reading(count: number): void;
  batch(batch: Batch, of: number, outcome: ImportCounts | 'unchanged'): void;
  retry(batch: Batch, reason: string, waitMs: number): void;
  end(): void;
}

/** A refused batch, named by its lines, after the batches before it were imported. */
export class BatchRefused extends Error {
  constructor(
    readonly batch: Batch,
    readonly of: number,
    override readonly cause: ApiError | Error,
    readonly before: ImportCounts,
  ) {
    const first = batch.lines[0]?.line;
    const last = batch.lines.at(-1)?.line;
    super(`batch ${batch.number} of ${of} (lines ${first}-${last}) was refused: ${describe(cause, batch)}`);
  }
}

/**
 * The unified error body as a user of the file reads it: the code, then each detail by the line
 * of the file it is about and its column (the service names a location by its place in the batch,
 * `locations[4].kind`), or the message alone when there is no detail.
 */
const describe = (error: Error, batch: Batch): string => {
  if (!(error instanceof ApiError)) return error.message;
  const code = error.body.error_code ?? `HTTP ${error.status}`;
  const details = error.body.details ?? [];
  if (details.length === 0) return `${code}: ${error.body.message ?? 'no message'}`;
  const lines = details.map((d) => {
    const field = d.field ?? '';
    const message = d.message ?? '';
    const said = field !== '' && message.includes(field) ? message : `${field} ${message}`.trim();
    const place = /^locations\[(\d+)\]\.?/.exec(field);
    const line = place === null ? undefined : batch.lines[Number(place[1])]?.line;
    return line === undefined || place === null ? `\n  ${said}` : `\n  line ${line}: ${said.replaceAll(place[0], '')}`;
  });
  return code + lines.join('');
};

const add = (a: ImportCounts, b: ImportCounts): ImportCounts => ({
  created: a.created + b.created,
  changed: a.changed + b.changed,
  unchanged: a.unchanged + b.unchanged,
});

/**
 * Imports the file's locations: reads the register first, skips every batch the register already
 * holds exactly (counted unchanged, nothing sent), and sends the others one after the other,
 * each under its key. Stops at the first refused batch.
 *
 * @example
 * ```ts
 * const counts = await importLocations(api, file.lines, progress); // { created: 49990, changed: 10, unchanged: 0 }
 * ```
 */
export const importLocations = async (
  api: RegisterApi,
  lines: readonly CsvLine[],
  progress: Progress,
): Promise<ImportCounts> => {
  const held = new Map<string, RegisteredLocation>();
  for await (const page of api.list()) {
    for (const location of page) held.set(location.location_code, location);
    progress.reading(held.size);
  }
  const batches = batchesOf(lines);
  let total: ImportCounts = { created: 0, changed: 0, unchanged: 0 };
  for (const batch of batches) {
    if (batch.lines.every((l) => alreadyRegistered(l.location, held.get(l.location.location_code)))) {
      total = add(total, { created: 0, changed: 0, unchanged: batch.lines.length });
      progress.batch(batch, batches.length, 'unchanged');
      continue;
    }
    let counts: ImportCounts;
    try {
      counts = await api.importBatch(
        batch.lines.map((l) => l.location),
        batch.key,
        (reason, waitMs) => progress.retry(batch, reason, waitMs),
      );
    } catch (error) {
      progress.end();
      throw new BatchRefused(batch, batches.length, error as Error, total);
    }
    total = add(total, counts);
    progress.batch(batch, batches.length, counts);
  }
  progress.end();
  return total;
};
