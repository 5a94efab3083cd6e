import * as z from 'zod/mini';
import { AppError } from '../errors/app-error.ts';
import type { ErrorCode, MessageParams } from '../errors/catalogue.ts';
import type { Config } from '../config.ts';
import { json, type Db } from '../db/types.ts';
import {
  compileWrite,
  errorCodeSql,
  isoTime,
  parsedRow,
  PROCEED,
  runWrite,
  statementErrorCode,
  type Idempotency,
  type WriteStatement,
} from '../db/write.ts';
import { cargoCodesSql, cargoOfPlaceSql } from '../location-register/cargo.ts';
import { TRAIL_FLOOR_SQL, TRAIL_WEEK } from '../db/trail-week.ts';
import { outbox } from '../events/write.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { LIVE, recordVersion } from './record-version.ts';
import type { CargoLocationResponse, HistoryEntry, LocationRecord, TrailEntry } from '../contract/common.ts';
import type { Scan } from './schemas.ts';

/**
 * The `cargo.located` event of a stored record `i`: the record as the POST answers it (the
 * year benchmark seeds its outbox with the same payload).
 */
export const locatedData =
  () => `jsonb_build_object('id', i.id::text, 'cargo_no', i.cargo_no, 'location_code', i.location_code, 'off_shelf', i.off_shelf,
  'scanned_at', ${isoTime('i.scanned_at')}, 'recorded_at', ${isoTime('i.recorded_at')}, 'recorded_by', i.recorded_by, 'device_id', i.device_id,
  'version', ${LIVE})`;

/** The columns of the request's scans, `s`, read from `:scans` with their index (`ord`, from 1). */
export const SCANS_FROM = `ROWS FROM (json_to_recordset(:scans) AS (cargo_no text, location_code text, off_shelf boolean, scanned_at timestamptz, device_id text))
       WITH ORDINALITY AS s (cargo_no, location_code, off_shelf, scanned_at, device_id, ord)`;

/**
 * The CTEs that read the request's scans (`scans`) and probe the register, the zongpais, the
 * boxes and the ERP plan for their codes (`registered`, `cargo_codes`; see {@link scanProblemsSql}).
 * The benchmark runs them alone to tell the probes' own cost from the rest of the checks.
 */
export const scanProbesSql = (erpView: string) => `
scans AS (
  SELECT s.*, ${cargoOfPlaceSql('s.location_code')} AS place_as_cargo FROM ${SCANS_FROM}
),
codes AS (
  SELECT array_agg(s.location_code) AS places, array_agg(s.place_as_cargo) AS places_as_cargo, array_agg(s.cargo_no) AS cargo_nos FROM scans s
),
registered AS (
  SELECT k.location_code, k.off_shelf, k.blocked FROM cargo.location k
  WHERE k.location_code = ANY ((SELECT c.places || c.cargo_nos FROM codes c)::text[])
),
cargo_codes AS (
  ${cargoCodesSql(erpView, '(SELECT c.places_as_cargo FROM codes c)::text[]')}
)`;

/**
 * The problems of a request's scans against the location register, each scan's first by rank:
 * a location code that is cargo (a registered zongpai or saved box, by primary key, or a box of
 * the ERP plan, by the view's own index in its collation; a pallet's or carton's GS1-128 label,
 * `00` and its SSCC, as that SSCC: `place_as_cargo`), a cargo number that is a registered
 * location, a blocked location, an `off_shelf` other than the registered location's, and, when
 * `:registered_only`, a location not registered. What the operator scanned wrong is answered
 * before a location the register does not know. Each table is read once per request, by one index
 * scan over the request's codes as an array (`codes`), which probes each distinct code once (a
 * backlog's scans share a few shelves): the register by primary key for the location codes and the
 * cargo numbers together (`registered`: a location's kind and blocked state, and whether a cargo
 * number is a location), the zongpais, boxes and ERP plan for the location codes (`cargo_codes`).
 * The scans then look their codes up in those few rows by hash.
 */
const scanProblemsSql = (erpView: string) => `${scanProbesSql(erpView)},
checked AS (
  SELECT s.ord, s.cargo_no, s.location_code, s.off_shelf, s.scanned_at, s.device_id, l.off_shelf AS registered_off_shelf,
         CASE WHEN s.place_as_cargo IN (SELECT x.code FROM cargo_codes x) THEN ${errorCodeSql('LOCATION_IS_CARGO')}
              WHEN s.cargo_no IN (SELECT r.location_code FROM registered r) THEN ${errorCodeSql('CARGO_IS_LOCATION')}
              WHEN l.blocked THEN ${errorCodeSql('LOCATION_BLOCKED')}
              WHEN s.off_shelf <> l.off_shelf THEN ${errorCodeSql('OFF_SHELF_MISMATCH')}
              WHEN l.location_code IS NULL AND :registered_only::boolean THEN ${errorCodeSql('LOCATION_NOT_FOUND')}
         END AS code
  FROM scans s
  LEFT JOIN registered l ON l.location_code = s.location_code
),
problems AS (
  SELECT c.* FROM checked c WHERE c.code IS NOT NULL
)`;

/** A cargo's current location, as `location_current` keeps it. */
const CURRENT_COLUMNS = [
  'cargo_no',
  'record_id',
  'location_code',
  'off_shelf',
  'scanned_at',
  'recorded_at',
  'occurred_at',
  'recorded_by',
  'device_id',
] as const;

/** A scan stored (`EXCLUDED`) is newer than the current location held (`c`): it becomes the current location. */
const NEWER = '(EXCLUDED.occurred_at, EXCLUDED.record_id) > (c.occurred_at, c.record_id)';

/**
 * What stores scans, as the CTEs `inserted` (the records), `located` (the current locations kept)
 * and the outbox's: the scans are the rows `s` of `from` (`cargo_no, location_code, scanned_at,
 * device_id, ord`), stored with `offShelf`, and only when the idempotency gate and `gate` (an
 * `AND …` or nothing) let them. See {@link recordStatement} for how they are ordered and kept.
 */
export const storeScansSql = ({ from, gate, offShelf }: { from: string; gate: string; offShelf: string }) => `
inserted AS (
  INSERT INTO cargo.location_record (cargo_no, location_code, off_shelf, scanned_at, occurred_at, recorded_by, device_id)
  SELECT s.cargo_no, s.location_code, ${offShelf}, s.scanned_at,
         date_trunc('milliseconds', COALESCE(s.scanned_at - GREATEST(max(s.scanned_at) OVER () - now(), interval '0'), now())),
         :recorded_by, s.device_id
  FROM ${from}
  WHERE ${PROCEED}${gate}
  ORDER BY s.ord
  RETURNING *
),
located AS (
  INSERT INTO cargo.location_current AS c (${CURRENT_COLUMNS.join(', ')}, first_at, last_at)
  SELECT DISTINCT ON (i.cargo_no) i.cargo_no, i.id, i.location_code, i.off_shelf, i.scanned_at, i.recorded_at, i.occurred_at, i.recorded_by, i.device_id,
         min(i.occurred_at) OVER (PARTITION BY i.cargo_no), i.occurred_at
  FROM inserted i
  ORDER BY i.cargo_no, i.occurred_at DESC, i.id DESC
  ON CONFLICT (cargo_no) DO UPDATE
  SET ${CURRENT_COLUMNS.filter((column) => column !== 'cargo_no')
    .map((column) => `${column} = CASE WHEN ${NEWER} THEN EXCLUDED.${column} ELSE c.${column} END`)
    .join(', ')},
      first_at = CASE WHEN c.first_at IS NOT NULL THEN LEAST(c.first_at, EXCLUDED.first_at) END,
      last_at = CASE WHEN c.last_at IS NOT NULL THEN GREATEST(c.last_at, EXCLUDED.last_at) END
  WHERE ${NEWER} OR EXCLUDED.first_at < c.first_at
  RETURNING c.cargo_no
),
${outbox([{ type: 'cargo.located', from: `inserted i CROSS JOIN (SELECT count(*) FROM located) AS current_kept`, data: locatedData(), order: 'i.id' }], ':recorded_by')}`;

/**
 * All scans of a request in one INSERT ... SELECT over a JSON list: the whole backlog is stored
 * or none of it. With the location register's checks (`erpView` given, see {@link scanProblemsSql}),
 * a scan that breaks one stores nothing of the request, and the answer is a problem row per such
 * scan (its index, `idx` from 0, and its code); a scan that leaves out `off_shelf` stores its
 * registered location's, or false at a location not registered. Without them (only for schemas
 * before the register: the migration tests and benchmarks) every scan is stored as sent.
 * `occurred_at`, what scans are ordered by, is the device's time taken back by
 * as much as the request's latest scan is ahead of the server (scans up to 5 minutes ahead are
 * accepted): the scans of one upload keep their order, and none is ordered after the server's
 * time of recording, so a handheld whose clock runs fast cannot keep a later scan from another
 * device from becoming the current location. It is kept to the millisecond so that cursors are exact.
 * The same statement keeps `location_current`: each cargo's newest scan of the request replaces
 * the one held only when it is newer (`occurred_at`, then id), so a backlog of old scans uploaded
 * late never displaces a newer location, and concurrent scans of one cargo end with the newest.
 * Beside it the cargo's span (migration 024) widens to the request's oldest and newest scans of
 * it, whether they become the current location or not (a late scan older than every other widens
 * it too); a span not known (NULL) stays so.
 * The events read `located` first (its count), so that the current locations' row locks come
 * before the outbox's.
 */
export const recordStatement = (erpView?: string): WriteStatement<ScanRow> => ({
  ctes: `${erpView === undefined ? '' : `${scanProblemsSql(erpView)},`}
${storeScansSql(
  erpView === undefined
    ? { from: SCANS_FROM, gate: '', offShelf: 's.off_shelf' }
    : {
        from: 'checked s',
        gate: ' AND NOT EXISTS (SELECT 1 FROM problems)',
        offShelf: 'COALESCE(s.off_shelf, s.registered_off_shelf, false)',
      },
)}`,
  select:
    erpView === undefined
      ? RECORDS_SELECT
      : `
SELECT * FROM (${RECORDS_SELECT}) AS records
UNION ALL
SELECT p.code, (p.ord - 1)::integer, p.location_code, p.cargo_no, p.registered_off_shelf,
       NULL, NULL, NULL, NULL, NULL
FROM problems p`,
  row: ScanRow,
});

/** The stored records, as the POST answers them (no problem: `error_code` NULL). */
export const RECORDS_SELECT = `
SELECT NULL::text AS error_code, NULL::integer AS idx, location_code, cargo_no, off_shelf,
       id::text AS id, ${isoTime('scanned_at')} AS scanned_at, ${isoTime('recorded_at')} AS recorded_at, recorded_by, device_id
FROM inserted
ORDER BY inserted.id`;

/** The problem of the scans (`problems` of {@link recordStatement}), the most telling first; then by index. */
const PROBLEM_RANK: readonly ErrorCode[] = [
  'LOCATION_IS_CARGO',
  'CARGO_IS_LOCATION',
  'LOCATION_BLOCKED',
  'OFF_SHELF_MISMATCH',
  'LOCATION_NOT_FOUND',
];

/** The field a problem of a scan is about. */
const PROBLEM_FIELD: Readonly<Partial<Record<ErrorCode, string>>> = {
  CARGO_IS_LOCATION: 'cargo_no',
  OFF_SHELF_MISMATCH: 'off_shelf',
};

/** The row a scan's or a transfer's statement answers: a problem (`error_code`), or a stored record ({@link RECORDS_SELECT}). */
export const ScanRow = /* @__PURE__ */ (() =>
  z.object({
    error_code: z.nullable(z.string()),
    idx: z.nullable(z.int()),
    location_code: z.string(),
    cargo_no: z.nullable(z.string()),
    off_shelf: z.nullable(z.boolean()),
    // A problem's row has none of the record's own columns ({@link storedRecord} parses a record's).
    id: z.optional(z.nullable(z.string())),
    scanned_at: z.optional(z.nullable(z.string())),
    recorded_at: z.optional(z.nullable(z.string())),
    recorded_by: z.optional(z.nullable(z.string())),
    device_id: z.optional(z.nullable(z.string())),
  }))();
export type ScanRow = z.infer<typeof ScanRow>;

/** A row of {@link RECORDS_SELECT}: a record stored, each of its columns as the record has it. */
const StoredRecordRow = /* @__PURE__ */ (() =>
  z.object({
    id: z.string(),
    cargo_no: z.string(),
    location_code: z.string(),
    off_shelf: z.boolean(),
    scanned_at: z.nullable(z.string()),
    recorded_at: z.string(),
    recorded_by: z.string(),
    device_id: z.nullable(z.string()),
  }))();

/** A stored record as a scan's or a transfer's answer gives it, from a row of {@link RECORDS_SELECT}. */
export const storedRecord = (row: ScanRow): LocationRecord => ({
  ...parsedRow(StoredRecordRow, row, 'a stored record'),
  version: LIVE,
});

/**
 * The error of a request's scans from its problem rows: the most telling code (then the first
 * index), every problem in `details`, named by its place in a backlog (`records[2].location_code`).
 * Undefined when there is none.
 */
export const scanProblems = (rows: readonly ScanRow[], backlog: boolean): AppError | undefined => {
  const problems = rows.flatMap((row) => {
    const code = statementErrorCode(row.error_code);
    if (code === null) return [];
    const name = PROBLEM_FIELD[code] ?? 'location_code';
    const field = backlog ? `records[${String(row.idx)}].${name}` : name;
    const value = code === 'CARGO_IS_LOCATION' ? (row.cargo_no ?? '') : row.location_code;
    // OFF_SHELF_MISMATCH's message is the one for the off_shelf the register holds.
    const params: MessageParams =
      code === 'OFF_SHELF_MISMATCH' ? { value, reason: row.off_shelf === true ? 'true' : 'false' } : { value };
    return [{ field, code, params, rank: PROBLEM_RANK.indexOf(code), idx: row.idx ?? 0 }];
  });
  if (problems.length === 0) return undefined;
  problems.sort((a, b) => a.idx - b.idx);
  const [first] = [...problems].sort((a, b) => a.rank - b.rank || a.idx - b.idx);
  if (first === undefined) return undefined;
  return new AppError(
    first.code,
    { ...first.params, field: first.field },
    problems.map(({ field, code, params }) => ({ field, code, params })),
  );
};

// Built by a call marked pure, so that a function that never records (location-get, -void,
// -content) does not carry this SQL: esbuild cannot prove outbox() and isoTime() free of effects.
export const RECORD: WriteStatement<ScanRow> = /* @__PURE__ */ recordStatement();
const RECORD_WRITE = /* @__PURE__ */ compileWrite(RECORD);

/**
 * What a trail starts from, for `:cargo_no`: `carrier`, the zongpai a boxed box is on and since
 * when (none for a zongpai or an unboxed box), and `kind`, whether the cargo is a zongpai (`own_via`).
 */
export const TRAIL_CARGO_SQL = `carrier AS (
  SELECT b.zongpai_no, b.zongpai_since FROM cargo.box b WHERE b.box_no = :cargo_no AND b.status = 'BOXED'
),
kind AS (
  SELECT CASE WHEN EXISTS (SELECT 1 FROM cargo.zongpai z WHERE z.zongpai_no = :cargo_no) THEN 'ZONGPAI' ELSE 'BOX' END AS own_via
)`;

/**
 * The two CTEs every form of the history page starts from, after {@link TRAIL_CARGO_SQL}: `latest`,
 * the current locations of the cargo and its zongpai, and `trails`, the two halves of its history
 * (its own, and its zongpai's since the box joined it).
 */
export const TRAIL_HEADS_SQL = `latest AS (
  SELECT c.record_id AS id, c.cargo_no, c.location_code, c.off_shelf, c.scanned_at, c.recorded_at, c.occurred_at, c.recorded_by, c.device_id,
         NULL::timestamptz AS voided_at, NULL::text AS voided_by, CASE WHEN c.cargo_no = :cargo_no THEN k.own_via ELSE 'ZONGPAI' END AS via
  FROM cargo.location_current c, kind k
  WHERE c.cargo_no IN (:cargo_no, (SELECT z.zongpai_no FROM carrier z))
),
trails AS (
  SELECT :cargo_no::text AS cargo_no, '-infinity'::timestamptz AS since, k.own_via AS via FROM kind k
  UNION ALL
  SELECT c.zongpai_no, c.zongpai_since, 'ZONGPAI' FROM carrier c
)`;

/**
 * How every form of the history page ends, after its `page` CTE (one page of the two halves, newest
 * first): the newer of the two current locations in `latest`, and the page, as the rows the finder
 * reads (`part` says which).
 */
export const TRAIL_PARTS_SQL = `parts AS (
  (SELECT 'current' AS part, * FROM latest ORDER BY occurred_at DESC, id DESC LIMIT 1)
  UNION ALL
  (SELECT 'history', * FROM page ORDER BY occurred_at DESC, id DESC LIMIT :fetch)
)
SELECT part, id::text AS id, cargo_no, location_code, off_shelf, scanned_at, recorded_at, occurred_at, recorded_by, device_id, voided_at, voided_by, via
FROM parts`;

/**
 * Whether a side of a trail's span (`first_at` or `last_at`) is not known: a current location
 * (`c`) or forgotten span (`f`) there that holds NULL for it (kept before migration 024). An
 * absent row holds nothing, which LEAST and GREATEST leave out.
 */
const SPAN_UNKNOWN = (side: 'first_at' | 'last_at') =>
  `(c.cargo_no IS NOT NULL AND c.${side} IS NULL) OR (f.cargo_no IS NOT NULL AND f.${side} IS NULL)`;

/**
 * The current location and one page of history. A box on a zongpai also inherits the zongpai's
 * scans: the newer of its own current location and its zongpai's is where it is now (moving a
 * pallet moves its boxes), and the zongpai's scans since the box joined it appear in its history.
 * The current locations are kept (`location_current`, primary key lookups), never searched.
 * Each half of the history (the cargo's own trail, and its zongpai's since the box joined it) walks
 * the trail index's weeks (migration 022) newest first, from the cursor's week (or now's: no scan
 * is ordered after its recording, or the week of the cargo's last scan, if earlier), each week one
 * index descent on (week, cargo_no) read backward, and stops once the half has a page or at the
 * week of the cargo's first scan (its span, migration 024; a cargo never scanned walks none): the
 * weeks a nested loop over the series yields, in its order, each week's entries in index order. The walk ends at the oldest month partition's start, or at the
 * week the box joined the zongpai; what is older than every month (`location_record_before`, late
 * scans of any past time, few) is read last, by the cargo alone, only when the weeks did not fill
 * the page. The layout always holds this month (the maintenance keeps it and those ahead). The zongpai's scans from before the box
 * joined it are dropped after the LIMIT, which is the same page (newest first, they can only come
 * last). Both halves are one LATERAL reference to the partitioned table, so its partitions are
 * planned once (planning grows with their number; the Data API cannot keep a prepared plan), each
 * week pruned to its one or two months as it runs, and `location_record_before` is named itself, one
 * table planned. Voided scans stay in the
 * history, marked.
 */
export const TRAIL_SQL = `
WITH ${TRAIL_CARGO_SQL},
span AS (
  ${TRAIL_FLOOR_SQL}
),
${TRAIL_HEADS_SQL},
spans AS (
  -- Each half's span (migration 024), its own trail's or the zongpai's: the current location's and
  -- the one a void forgot, together (a cargo scanned again after every scan was voided has both).
  -- A side not known walks every week on it; no current location and none forgotten, no scan at all.
  SELECT t.cargo_no, t.via, c.cargo_no IS NOT NULL OR f.cargo_no IS NOT NULL AS scanned,
         GREATEST(t.since, CASE WHEN ${SPAN_UNKNOWN('first_at')} THEN '-infinity' ELSE LEAST(c.first_at, f.first_at) END) AS since,
         CASE WHEN ${SPAN_UNKNOWN('last_at')} THEN 'infinity' ELSE GREATEST(c.last_at, f.last_at) END AS last_at
  FROM trails t
  LEFT JOIN cargo.location_current c ON c.cargo_no = t.cargo_no COLLATE "C"
  LEFT JOIN cargo.location_forgotten f ON f.cargo_no = t.cargo_no COLLATE "C"
),
bounds AS (
  -- No scan is ordered after now (its recording time), so the walk starts at the cursor or now.
  SELECT LEAST(COALESCE(:before_at::timestamptz, 'infinity'), now()) AS top, COALESCE(:before_at::timestamptz, 'infinity') AS top_at,
         COALESCE(:before_id::bigint, 9223372036854775807) AS top_id, s.floor
  FROM span s
),
page AS (
  SELECT p.*, t.via
  FROM spans t
  CROSS JOIN bounds b
  CROSS JOIN LATERAL (
    (SELECT q.*
     FROM generate_series(${TRAIL_WEEK('LEAST(b.top, t.last_at)')}, GREATEST(${TRAIL_WEEK('b.floor')}, ${TRAIL_WEEK('t.since')}), interval '-168 hours') AS w (week)
     CROSS JOIN LATERAL (
       SELECT r.id, r.cargo_no, r.location_code, r.off_shelf, r.scanned_at, r.recorded_at, r.occurred_at, r.recorded_by, r.device_id,
              r.voided_at, r.voided_by
       FROM cargo.location_record r
       -- The history's codes keep the database's collation; its trail index compares them in "C" (migration 017).
       -- The week's bounds prune the partitions to its one or two months as each week is read.
       WHERE ${TRAIL_WEEK('r.occurred_at')} = w.week AND r.cargo_no = t.cargo_no COLLATE "C"
         AND r.occurred_at >= GREATEST(w.week, b.floor) AND r.occurred_at < w.week + interval '168 hours'
         AND (r.occurred_at, r.id) < (b.top_at, b.top_id)
       ORDER BY r.occurred_at DESC, r.id DESC LIMIT :fetch) q
     WHERE t.scanned
     LIMIT :fetch)
    UNION ALL
    (SELECT o.id, o.cargo_no, o.location_code, o.off_shelf, o.scanned_at, o.recorded_at, o.occurred_at, o.recorded_by, o.device_id,
            o.voided_at, o.voided_by
     -- Named, not through the parent: one table planned, not every partition a second time.
     FROM cargo.location_record_before o
     WHERE o.cargo_no = t.cargo_no COLLATE "C" AND o.occurred_at < b.floor AND o.occurred_at >= t.since
       AND (o.occurred_at, o.id) < (b.top_at, b.top_id) AND t.scanned AND t.since < b.floor
     ORDER BY o.occurred_at DESC, o.id DESC LIMIT :fetch)
    LIMIT :fetch) p
  WHERE p.occurred_at >= t.since
),
${TRAIL_PARTS_SQL}`;

type TrailRow = Omit<HistoryEntry, 'version'> & { part: 'current' | 'history' };

/** The settings the register's checks of a scan read. */
type ScanSettings = Pick<Config, 'erpBoxView' | 'locationsRegisteredOnly'>;

/**
 * Records scans: one, or a backlog stored all or none, in one statement, checked against the
 * location register (see {@link recordStatement}); `backlog` says whether the problems are named by
 * index. Without `config`, unchecked (for schemas before the register only).
 *
 * @example
 * ```ts
 * const record = makeScanRecorder({ db, config });
 * await record([{ cargo_no: 'BOX-0001', location_code: 'A-01' }], 'alice');
 * ```
 */
export const makeScanRecorder = ({ db, config }: { db: Db; config?: ScanSettings }) => {
  const write = config === undefined ? RECORD_WRITE : compileWrite(recordStatement(config.erpBoxView));
  return async (
    scans: readonly Scan[],
    recordedBy: string,
    idempotency?: Idempotency,
    backlog = scans.length > 1,
  ): Promise<{ records: LocationRecord[] }> => {
    const list = scans.map((s) => ({
      ...s,
      off_shelf: s.off_shelf ?? (config === undefined ? false : null),
      scanned_at: s.scanned_at ?? null,
      device_id: s.device_id ?? null,
    }));
    const rows = await runWrite(
      db,
      write,
      {
        scans: json(list),
        recorded_by: recordedBy,
        ...(config === undefined ? {} : { registered_only: config.locationsRegisteredOnly }),
      },
      idempotency,
    );
    const problem = scanProblems(rows, backlog);
    if (problem !== undefined) throw problem;
    return { records: rows.map(storedRecord) };
  };
};

/**
 * Answers where cargo is now and one page of where it was, newest first.
 *
 * @example
 * ```ts
 * const find = makeCargoFinder({ db });
 * const where = await find('BOX-0001', { limit: 20 });
 * ```
 */
export const makeCargoFinder =
  ({ db }: { db: Db }) =>
  async (cargoNo: string, page: { limit: number; cursor?: string }): Promise<CargoLocationResponse> => {
    const before = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
    const { rows } = await db.query<TrailRow & Record<string, unknown>>(TRAIL_SQL, {
      cargo_no: cargoNo,
      before_at: before?.at ?? null,
      before_id: before?.id ?? null,
      fetch: page.limit + 1,
    });
    const [current] = rows
      .filter((r) => r.part === 'current')
      .map(withoutPart)
      .map(({ voided_at: _at, voided_by: _by, ...entry }): TrailEntry => entry);
    const history = rows.filter((r) => r.part === 'history').map(withoutPart);
    // A cargo whose every scan was voided has no current location, but its voided scans stay in
    // its history: only cargo with no scan at all is not found (a page past the first may be empty).
    if (current === undefined && history.length === 0 && before === undefined) {
      throw new AppError('CARGO_NOT_FOUND', { value: cargoNo });
    }
    const last = history.length > page.limit ? history[page.limit - 1] : undefined;
    return {
      cargo_no: cargoNo,
      current: current ?? null,
      history: history.slice(0, page.limit),
      next_cursor: last === undefined ? null : encodeCursor({ at: last.occurred_at, id: last.id }),
    };
  };

const withoutPart = ({ part: _part, ...entry }: TrailRow): HistoryEntry => ({
  ...entry,
  version: recordVersion(entry.voided_at),
});
