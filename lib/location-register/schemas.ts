import * as z from 'zod/mini';
import { normaliseCode } from '../contract/scanned-codes.ts';
import { refusedBecause } from '../rules/refusal.ts';
import type { Fields } from '../rules/fields.ts';
import { cursorQuery, wholeNumberQuery } from '../rules/query.ts';
import { versionField } from '../rules/version.ts';

/** The kinds of location the register knows; every kind but a shelf is off the shelf. */
export const LOCATION_KINDS = ['SHELF', 'STAGING', 'DOCK', 'FLOOR', 'QUARANTINE'] as const;
export type LocationKind = (typeof LOCATION_KINDS)[number];

/** How many locations one import holds. */
export const IMPORT_MAX = 500;

const ZONE = /^[A-Z0-9-]{1,32}$/;

/** A zone: trimmed and upper-cased as codes are, 1-32 of `A-Z 0-9 -`. */
const zone = z.pipe(
  z.string(),
  z.transform((raw: string, ctx) => {
    const value = normaliseCode(raw);
    if (ZONE.test(value)) return value;
    ctx.issues.push({ code: 'custom', input: raw, ...refusedBecause({ reason: 'pattern', pattern: ZONE.source }) });
    return z.NEVER;
  }),
);

/** What a location is, as a PUT or an import entry gives it: what it leaves out is none (zone, description) or not blocked. */
const locationFields = (fields: Fields) => ({
  kind: z.enum(LOCATION_KINDS),
  zone: z.optional(z.nullable(zone)),
  description: z.optional(z.nullable(fields.locationDescription)),
  blocked: z.optional(z.boolean()),
});

/** One location of an import: its code and what it is. */
const importEntry = (fields: Fields) =>
  z.strictObject({ location_code: fields.locationCode, ...locationFields(fields) });

/**
 * Request schemas of the register's routes, built from the configured identifier rules. An
 * import naming one code twice is refused at the second (and each later) index: which of the two
 * is meant cannot be guessed.
 *
 * @example
 * ```ts
 * const s = makeRegisterSchemas(fields);
 * s.putBody.parse({ kind: 'DOCK', zone: 'north' }); // { kind: 'DOCK', zone: 'NORTH' }
 * ```
 */
export const makeRegisterSchemas = (fields: Fields) => {
  const entry = importEntry(fields);
  return {
    path: z.object({ location_code: fields.locationCode }),
    putBody: z.strictObject({ ...locationFields(fields), version: z.optional(versionField()) }),
    importBody: z.strictObject({
      locations: z.array(entry).check(
        z.minLength(1),
        z.maxLength(IMPORT_MAX),
        z.superRefine((locations, ctx) => {
          const first = new Map<string, number>();
          locations.forEach((location, index) => {
            const seen = first.get(location.location_code);
            if (seen === undefined) first.set(location.location_code, index);
            else
              ctx.issues.push({
                code: 'custom',
                input: location.location_code,
                path: [index, 'location_code'],
                ...refusedBecause({ reason: 'listed_already', index: seen }, 'VALIDATION_ERROR'),
              });
          });
        }),
      ),
    }),
    listQuery: z.object({
      kind: z.optional(z.enum(LOCATION_KINDS)),
      zone: z.optional(zone),
      blocked: z.optional(
        z.pipe(
          z.enum(['true', 'false']),
          z.transform((v: 'true' | 'false') => v === 'true'),
        ),
      ),
      limit: wholeNumberQuery({ min: 1, max: 100, fallback: 20 }),
      cursor: cursorQuery(/^[A-Za-z0-9_-]{1,200}$/),
    }),
  };
};

export type RegisterSchemas = ReturnType<typeof makeRegisterSchemas>;
export type LocationInput = z.output<ReturnType<typeof importEntry>>;
export type LocationListQuery = z.output<RegisterSchemas['listQuery']>;
