import * as z from 'zod/mini';
import { AppError, type FieldProblem } from '../errors/app-error.ts';
import type { Config } from '../config.ts';
import { json, type Db } from '../db/types.ts';
import { LOCATION_JSON } from '../db/migrations/021-location-register.ts';
import { outcomeRow } from '../db/outcome-row.ts';
import {
  compileWrite,
  errorCodeSql,
  PROCEED,
  runWrite,
  statementErrorCode,
  type Idempotency,
  type WriteStatement,
} from '../db/write.ts';
import { isCargoPlaceSql } from './cargo.ts';
import { outbox } from '../events/write.ts';
import { keyCursor } from '../rules/key-cursor.ts';
import type { LocationImportResponse, LocationListResponse, RegisteredLocation } from '../contract/register.ts';
import { LOCATION_KINDS, type LocationInput, type LocationKind, type LocationListQuery } from './schemas.ts';

/** The outbox of a register write: `location.registered` for each row of `written` it created, `location.changed` for each it changed. */
const registerOutbox = (written: string) =>
  outbox(
    [
      {
        type: 'location.registered',
        from: `${written} l WHERE l.created`,
        data: LOCATION_JSON,
        order: 'l.location_code',
      },
      {
        type: 'location.changed',
        from: `${written} l WHERE NOT l.created`,
        data: LOCATION_JSON,
        order: 'l.location_code',
      },
    ],
    ':actor',
  );

/**
 * The upsert of a register write over the rows of `source` (`location_code, kind, zone,
 * description, blocked`): a new code is created at version 1; a registered one is changed, at
 * its next version, only when it is based on its current version (`versionOk`, over the row `l`
 * as it is once locked) and something differs. A location another write holds is waited for and
 * judged as that write left it. RETURNING says which rows it created.
 */
const upsert = (source: string, gate: string, versionOk: string) => `
  INSERT INTO cargo.location AS l (location_code, kind, zone, description, blocked, registered_by, changed_by)
  SELECT s.location_code, s.kind, s.zone, s.description, s.blocked, :actor, :actor
  FROM ${source}
  WHERE ${gate} AND ${PROCEED}
  ORDER BY s.location_code COLLATE "C"
  ON CONFLICT (location_code) DO UPDATE
  SET kind = EXCLUDED.kind, zone = EXCLUDED.zone, description = EXCLUDED.description, blocked = EXCLUDED.blocked,
      version = l.version + 1, changed_at = now(), changed_by = EXCLUDED.changed_by
  WHERE ${versionOk}
    AND (l.kind, l.zone, l.description, l.blocked) IS DISTINCT FROM (EXCLUDED.kind, EXCLUDED.zone, EXCLUDED.description, EXCLUDED.blocked)
  RETURNING l.*, (l.xmax = 0) AS created`;

/**
 * PUT one location: refused when its code is cargo (LOCATION_IS_CARGO) or when it names a
 * version of a location not registered (VERSION_CONFLICT); otherwise created, changed, or left
 * as it is when nothing differs (no new version, no event). A location left alone (unchanged,
 * or changed since the version named) is answered as it is now, read after the upsert locked
 * it (`cargo.registered_location`, a fresh snapshot).
 */
/** A registered location as the statements answer it ({@link LOCATION_JSON}). */
const LocationJson = /* @__PURE__ */ (() =>
  z.object({
    location_code: z.string(),
    kind: z.enum(LOCATION_KINDS),
    off_shelf: z.boolean(),
    zone: z.nullable(z.string()),
    description: z.nullable(z.string()),
    blocked: z.boolean(),
    version: z.int(),
    registered_at: z.string(),
    changed_at: z.string(),
  }))();

const PutRow = /* @__PURE__ */ (() =>
  z.extend(outcomeRow({ location: LocationJson }), { written: z.boolean(), created: z.boolean() }))();
type PutRow = z.infer<typeof PutRow>;

export const putStatement = (erpView: string): WriteStatement<PutRow> => ({
  ctes: `
problem AS (
  SELECT ${errorCodeSql('LOCATION_IS_CARGO')} AS code WHERE ${isCargoPlaceSql(erpView, ':location_code')}
  UNION ALL
  SELECT ${errorCodeSql('VERSION_CONFLICT')}
  WHERE :version::integer IS NOT NULL AND NOT EXISTS (SELECT 1 FROM cargo.location k WHERE k.location_code = :location_code)
  LIMIT 1
),
written AS (${upsert(
    `(SELECT :location_code::text AS location_code, :kind::text AS kind, :zone::text AS zone, :description::text AS description,
           :blocked::boolean AS blocked) AS s`,
    'NOT EXISTS (SELECT 1 FROM problem)',
    '(:version::integer IS NULL OR l.version = :version::integer)',
  )}
),
${registerOutbox('written')}`,
  select: `
SELECT (SELECT p.code FROM problem p) AS error_code, w.location_code IS NOT NULL AS written, COALESCE(w.created, false) AS created,
       CASE WHEN w.location_code IS NOT NULL THEN (SELECT ${LOCATION_JSON} FROM written l)
            WHEN NOT EXISTS (SELECT 1 FROM problem) THEN cargo.registered_location(:location_code) END AS location
FROM (SELECT 1) AS one LEFT JOIN written w ON true`,
  row: PutRow,
});

/**
 * An import: every entry created or overwritten (no versions: an import is authoritative), in
 * code order, or none when a code is cargo (each such index answered). Entries as they are
 * registered already change nothing.
 */
const ImportRow = /* @__PURE__ */ (() =>
  outcomeRow({ idx: z.int(), location_code: z.string(), created: z.int(), changed: z.int() }))();
type ImportRow = z.infer<typeof ImportRow>;

export const importStatement = (erpView: string): WriteStatement<ImportRow> => ({
  ctes: `
entries AS (
  SELECT e.location_code, e.kind, e.zone, e.description, COALESCE(e.blocked, false) AS blocked, e.ord - 1 AS idx
  FROM ROWS FROM (json_to_recordset(:locations) AS (location_code text, kind text, zone text, description text, blocked boolean))
       WITH ORDINALITY AS e (location_code, kind, zone, description, blocked, ord)
),
cargo_codes AS (
  SELECT e.idx, e.location_code FROM entries e WHERE ${isCargoPlaceSql(erpView, 'e.location_code')}
),
written AS (${upsert('entries s', 'NOT EXISTS (SELECT 1 FROM cargo_codes)', 'true')}
),
${registerOutbox('written')}`,
  select: `
SELECT ${errorCodeSql('LOCATION_IS_CARGO')} AS error_code, c.idx, c.location_code, NULL::integer AS created, NULL::integer AS changed
FROM cargo_codes c
UNION ALL
SELECT NULL, NULL, NULL, (count(*) FILTER (WHERE w.created))::integer, (count(*) FILTER (WHERE NOT w.created))::integer
FROM written w
ORDER BY 2 NULLS LAST`,
  row: ImportRow,
});

type Capability = { readonly db: Db; readonly config: Pick<Config, 'erpBoxView'> };

export interface LocationPut {
  readonly location_code: string;
  readonly kind: LocationKind;
  readonly zone?: string | null | undefined;
  readonly description?: string | null | undefined;
  readonly blocked?: boolean | undefined;
  /** The version the change is based on, if the caller names one. */
  readonly version?: number | undefined;
}

/** A PUT's answer: the location, and whether it was created (201) or is as it was or changed (200). */
export interface PutOutcome {
  readonly created: boolean;
  readonly location: RegisteredLocation;
}

/**
 * PUT …/locations/{location_code}: registers or changes one location in one statement.
 *
 * @example
 * ```ts
 * const put = makeLocationPut({ db, config });
 * const { created, location } = await put({ location_code: 'DOCK-1', kind: 'DOCK' }, 'sam');
 * ```
 */
export const makeLocationPut = ({ db, config }: Capability) => {
  const write = compileWrite(putStatement(config.erpBoxView));
  return async (input: LocationPut, actor: string, idempotency?: Idempotency): Promise<PutOutcome> => {
    const version = input.version ?? null;
    const [row] = await runWrite(
      db,
      write,
      {
        location_code: input.location_code,
        kind: input.kind,
        zone: input.zone ?? null,
        description: input.description ?? null,
        blocked: input.blocked ?? false,
        version,
        actor,
      },
      idempotency,
    );
    const code = statementErrorCode(row?.error_code);
    if (code === 'VERSION_CONFLICT')
      throw new AppError(code, { value: input.location_code, reason: 'location', version: version ?? undefined });
    if (code !== null) throw new AppError(code, { value: input.location_code });
    const location = row?.location;
    if (row === undefined || location == null) throw new Error('the register answered no location');
    if (!row.written && version !== null && location.version !== version)
      throw new AppError('VERSION_CONFLICT', { value: input.location_code, reason: 'location', version });
    return { created: row.created, location };
  };
};

/**
 * POST …/locations: imports up to 500 locations in one statement, all or none.
 *
 * @example
 * ```ts
 * const load = makeLocationImport({ db, config });
 * await load([{ location_code: 'A-01', kind: 'SHELF', zone: 'A' }], 'sam'); // { created: 1, changed: 0, unchanged: 0 }
 * ```
 */
export const makeLocationImport = ({ db, config }: Capability) => {
  const write = compileWrite(importStatement(config.erpBoxView));
  return async (
    locations: readonly LocationInput[],
    actor: string,
    idempotency?: Idempotency,
  ): Promise<LocationImportResponse> => {
    const list = locations.map((l) => ({
      location_code: l.location_code,
      kind: l.kind,
      zone: l.zone ?? null,
      description: l.description ?? null,
      blocked: l.blocked ?? false,
    }));
    const rows = await runWrite(db, write, { locations: json(list), actor }, idempotency);
    const problems: FieldProblem[] = rows.flatMap((row) => {
      const code = statementErrorCode(row.error_code);
      return code === null
        ? []
        : [{ field: `locations[${String(row.idx)}].location_code`, code, params: { value: row.location_code ?? '' } }];
    });
    const [first] = problems;
    if (first !== undefined) throw new AppError(first.code, { ...first.params, field: first.field }, problems);
    const counts = rows.find((row) => row.error_code == null);
    const created = counts?.created ?? 0;
    const changed = counts?.changed ?? 0;
    return { created, changed, unchanged: locations.length - created - changed };
  };
};

const GET_SQL = `SELECT ${LOCATION_JSON} AS location FROM cargo.location l WHERE l.location_code = :location_code`;

/**
 * GET …/locations/{location_code}: one registered location.
 *
 * @example
 * ```ts
 * await makeLocationGet({ db })('DOCK-1'); // { location_code: 'DOCK-1', kind: 'DOCK', off_shelf: true, ... }
 * ```
 */
export const makeLocationGet =
  ({ db }: { db: Db }) =>
  async (locationCode: string): Promise<RegisteredLocation> => {
    const { rows } = await db.query<{ location: RegisteredLocation }>(GET_SQL, { location_code: locationCode });
    const location = rows[0]?.location;
    if (location === undefined) throw new AppError('LOCATION_NOT_FOUND', { value: locationCode });
    return location;
  };

/**
 * A page of the register in code order from the cursor, optionally of one kind, zone or blocked
 * state: an index range scan on the code (or, by zone, on the zone's codes), stopped by the LIMIT.
 */
const listSql = (byZone: boolean) => `
SELECT ${LOCATION_JSON} AS location, l.location_code
FROM cargo.location l
WHERE ${byZone ? 'l.zone = :zone AND ' : ''}l.location_code > :after
  AND (:kind::text IS NULL OR l.kind = :kind::text) AND (:blocked::boolean IS NULL OR l.blocked = :blocked::boolean)
ORDER BY ${byZone ? 'l.zone, ' : ''}l.location_code
LIMIT :fetch`;
const LIST_ALL = listSql(false);
const LIST_BY_ZONE = listSql(true);

/** A register page's position: the last code it showed. */
const CURSOR = keyCursor('l', '[^\\p{C}|]{1,200}');

/**
 * GET …/locations: the register by code, a page at a time.
 *
 * @example
 * ```ts
 * const page = await makeLocationList({ db })({ kind: 'DOCK', limit: 20 }); // { locations: [...], next_cursor }
 * ```
 */
export const makeLocationList =
  ({ db }: { db: Db }) =>
  async (query: LocationListQuery): Promise<LocationListResponse> => {
    const { rows } = await db.query<{ location: RegisteredLocation; location_code: string }>(
      query.zone === undefined ? LIST_ALL : LIST_BY_ZONE,
      {
        ...(query.zone === undefined ? {} : { zone: query.zone }),
        after: query.cursor === undefined ? '' : CURSOR.decode(query.cursor),
        kind: query.kind ?? null,
        blocked: query.blocked ?? null,
        fetch: query.limit + 1,
      },
    );
    const page = rows.slice(0, query.limit);
    const last = rows.length > query.limit ? page[page.length - 1] : undefined;
    return {
      locations: page.map((row) => row.location),
      next_cursor: last === undefined ? null : CURSOR.encode(last.location_code),
    };
  };
