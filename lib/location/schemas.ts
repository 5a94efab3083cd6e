import * as z from 'zod/mini';
import { reasonMessage, refusedBecause } from '../rules/refusal.ts';
import type { Config } from '../config.ts';
import type { Fields } from '../rules/fields.ts';
import { either, isObject } from '../rules/either.ts';
import { cursorQuery, wholeNumberQuery } from '../rules/query.ts';
import { versionField } from '../rules/version.ts';

/** Device clocks drift; a scan time further ahead of the server than this is refused. */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * A scan time before this is a device whose clock was reset or never set (1970, year 0001), not
 * a warehouse scan: stored, it would be ordered before every real scan, and taken back by a
 * backlog's clock running ahead it could fall before 1 AD.
 */
const EARLIEST_SCAN = { year: 2000, ms: Date.UTC(2000, 0, 1) };

/** One page of a list: `limit` (1-100, default 20) and the opaque `cursor` of the previous page. */
const pageQuery = (cursor: RegExp) =>
  z.object({ limit: wholeNumberQuery({ min: 1, max: 100, fallback: 20 }), cursor: cursorQuery(cursor) });

/**
 * The body of POST location: one scan or a backlog. Each location route builds only its own
 * schemas (this, {@link makeCargoLocationSchemas}, ...), so a function carries no other route's.
 */
export const makeScanSchemas = (config: Config, fields: Fields, now: () => Date = () => new Date()) => {
  const scannedAt = z.pipe(
    z.iso.datetime({ offset: true, error: reasonMessage({ reason: 'scan_time_form' }) }),
    z.transform((text: string, ctx) => {
      // The only '.' is the seconds' fraction: a non-zero digit past its third would be dropped.
      if (/\.\d{3}\d*[1-9]/.test(text)) {
        ctx.issues.push({
          code: 'custom',
          input: text,
          ...refusedBecause({ reason: 'scan_time_precision' }),
        });
        return z.NEVER;
      }
      const at = new Date(text);
      if (!(at.getTime() >= EARLIEST_SCAN.ms)) {
        ctx.issues.push({
          code: 'custom',
          input: text,
          ...refusedBecause({ reason: 'scan_time_too_early', year: EARLIEST_SCAN.year }),
        });
        return z.NEVER;
      }
      if (at.getTime() - now().getTime() > MAX_CLOCK_SKEW_MS) {
        ctx.issues.push({
          code: 'custom',
          input: text,
          ...refusedBecause({ reason: 'scan_time_ahead', minutes: MAX_CLOCK_SKEW_MS / 60_000 }),
        });
        return z.NEVER;
      }
      return at.toISOString();
    }),
  );

  const scan = z.strictObject({
    cargo_no: fields.cargoNo,
    location_code: fields.locationCode,
    /** Left out: the registered location's, or false at a location the register does not know. */
    off_shelf: z.optional(z.boolean()),
    scanned_at: z.optional(scannedAt),
    device_id: z.optional(fields.deviceId),
  });

  const backlog = z.strictObject({
    records: z.array(scan).check(z.minLength(1), z.maxLength(config.locationRecordsMax)),
  });

  // A body naming `records` and a scan's own fields would lose the scan: it is refused, not guessed at.
  const oneShape = z
    .unknown()
    .check(
      z.refine(
        (input) => !(isObject(input) && 'records' in input && Object.keys(scan.shape).some((field) => field in input)),
        refusedBecause({ reason: 'scan_or_records' }, 'VALIDATION_ERROR'),
      ),
    );

  return {
    scan,
    backlog,
    /** One scan, or `{ records: [...] }`: both arrive as a list of scans, and whether it was a backlog. */
    recordBody: z.pipe(
      z.pipe(
        oneShape,
        either((input) => isObject(input) && 'records' in input, backlog, scan),
      ),
      z.transform((body) =>
        'records' in body ? { scans: body.records, backlog: true } : { scans: [body], backlog: false },
      ),
    ),
  };
};

/** GET location/{cargo_no}: the cargo and a page of its history. */
export const makeCargoLocationSchemas = (fields: Fields) => ({
  path: z.object({ cargo_no: fields.cargoNo }),
  query: pageQuery(/^[A-Za-z0-9_-]{1,200}$/),
});

/** What is at a location: the location, and the same page parameters as history. */
export const makeLocationContentSchemas = (fields: Fields) => ({
  path: z.object({ location_code: fields.locationCode }),
  query: pageQuery(/^[A-Za-z0-9_-]{1,400}$/),
});

/** Void a scan: the cargo and the record's id (a bigint, as the POST answered it). */
export const makeScanVoidSchemas = (fields: Fields) => ({
  path: z.object({
    cargo_no: fields.cargoNo,
    id: z.string().check(z.regex(/^[1-9]\d{0,18}$/, reasonMessage({ reason: 'record_id' }))),
  }),
  body: z.optional(z.strictObject({ version: z.optional(versionField()) })),
});

/**
 * Request schemas of all location routes, built from the configured identifier rules.
 *
 * @example
 * ```ts
 * const s = makeLocationSchemas(config, fields);
 * s.recordBody.parse({ cargo_no: 'box-0001', location_code: 'a-01-02' });
 * ```
 */
export const makeLocationSchemas = (config: Config, fields: Fields, now: () => Date = () => new Date()) => ({
  ...makeScanSchemas(config, fields, now),
  get: makeCargoLocationSchemas(fields),
  content: makeLocationContentSchemas(fields),
  void: makeScanVoidSchemas(fields),
});

export type LocationSchemas = ReturnType<typeof makeLocationSchemas>;
export type Scan = z.output<LocationSchemas['scan']>;
