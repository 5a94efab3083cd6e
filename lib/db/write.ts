import { AppError } from '../errors/app-error.ts';
import { DatabaseError } from './errors.ts';
import type { Db, Row, SqlParams } from './types.ts';

/**
 * A write statement in two parts, so the same SQL can run plainly or with an idempotency key:
 * `ctes` (the WITH list, without WITH) and `select` (the final SELECT the caller reads).
 * Its one data-modifying CTE that everything else hangs on must include {@link PROCEED} in its
 * WHERE clause: with a live idempotency key for the request, nothing is written and the first
 * answer is returned instead.
 */
export interface WriteStatement {
  readonly ctes: string;
  readonly select: string;
}

/** The gate every write statement puts on its writes. */
export const PROCEED = 'NOT EXISTS (SELECT 1 FROM prior)';

/**
 * Timestamps leave write statements as ISO-8601 text (`2026-11-21T08:30:00.123Z`), so that an
 * answer replayed from the idempotency store is byte for byte the first one.
 */
export const isoTime = (expr: string) => `to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** What a retried request is recognised by. */
export interface Idempotency {
  readonly caller: string;
  readonly key: string;
  /** Method and resource, e.g. `POST /v1/box`. */
  readonly route: string;
  /** Hash of the validated request (path, query and body). */
  readonly hash: string;
  readonly ttlHours: number;
}

export interface CompiledWrite {
  readonly plain: string;
  readonly idempotent: string;
}

/**
 * Compiles a write statement once, at cold start, into its plain and idempotent SQL.
 * The idempotent form looks the key up (`prior`), gates the writes on its absence, stores the
 * result rows under the key in the same statement, and answers either the stored rows or the
 * new ones as one JSON column: one round trip, and the effect and its record commit together.
 * An expired row under the key is deleted first (`expired`; the INSERT reads it, so the DELETE
 * has finished before the INSERT checks the key): the new answer then takes its place.
 *
 * @example
 * ```ts
 * const save = compileWrite({ ctes: `saved AS (INSERT ... WHERE ${PROCEED} RETURNING *)`, select: 'SELECT * FROM saved' });
 * ```
 */
export const compileWrite = (statement: WriteStatement): CompiledWrite => ({
  plain: `WITH prior AS (SELECT NULL::text AS request_hash, NULL::json AS result WHERE false),
${statement.ctes}
${statement.select}`,
  idempotent: `WITH prior AS (
  SELECT k.request_hash, k.result FROM cargo.idempotency_key k
  WHERE k.caller = :idem_caller AND k.idem_key = :idem_key AND k.expires_at > now()
),
expired AS (
  DELETE FROM cargo.idempotency_key k
  WHERE k.caller = :idem_caller AND k.idem_key = :idem_key AND k.expires_at <= now()
  RETURNING 1
),
${statement.ctes},
result AS (${statement.select}),
stored AS (
  INSERT INTO cargo.idempotency_key (caller, idem_key, route, request_hash, result, expires_at)
  SELECT :idem_caller, :idem_key, :idem_route, :idem_hash, COALESCE((SELECT json_agg(r) FROM result r), '[]'::json),
         now() + make_interval(hours => :idem_ttl_hours::integer)
  WHERE ${PROCEED} AND (SELECT count(*) FROM expired) >= 0
)
SELECT (SELECT p.request_hash FROM prior p) AS replay_hash,
       COALESCE((SELECT p.result FROM prior p), (SELECT json_agg(r) FROM result r), '[]'::json) AS rows`,
});

const PRIOR_SQL = `
SELECT k.request_hash, k.result FROM cargo.idempotency_key k
WHERE k.caller = :idem_caller AND k.idem_key = :idem_key AND k.expires_at > now()`;

const idemParams = (idem: Idempotency): SqlParams => ({
  idem_caller: idem.caller,
  idem_key: idem.key,
  idem_route: idem.route,
  idem_hash: idem.hash,
  idem_ttl_hours: idem.ttlHours,
});

const replayed = <R extends Row>(hash: string | null, rows: unknown, idem: Idempotency): R[] => {
  if (hash !== null && hash !== idem.hash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
  return rows as R[];
};

/**
 * Runs a compiled write, plainly or under an idempotency key.
 *
 * Under a key, a racing duplicate that started before the first committed ends in a unique
 * violation on the key (the database makes it wait for the first, then refuses it, undoing its
 * writes); it then reads the first answer in a second round trip. An expired key is deleted by
 * the statement itself before it stores the new one, so racing copies on an expired key behave
 * exactly like racing copies on a new one: the first stores, the others wait and replay it.
 */
export const runWrite = async <R extends Row>(db: Db, write: CompiledWrite, params: SqlParams, idem?: Idempotency): Promise<R[]> => {
  if (idem === undefined) return (await db.query<R>(write.plain, params)).rows;
  try {
    const { rows } = await db.query<{ replay_hash: string | null; rows: unknown }>(write.idempotent, { ...params, ...idemParams(idem) });
    return replayed<R>(rows[0]?.replay_hash ?? null, rows[0]?.rows ?? [], idem);
  } catch (error) {
    if (!(error instanceof DatabaseError && error.isUniqueViolation)) throw error;
    const { rows } = await db.query<{ request_hash: string; result: unknown }>(PRIOR_SQL, idemParams(idem));
    const prior = rows[0];
    if (prior === undefined) throw error;
    return replayed<R>(prior.request_hash, prior.result, idem);
  }
};
