import * as z from 'zod/mini';
import { AppError } from '../errors/app-error.ts';
import { errorCatalogue, isErrorCode, type ErrorCode } from '../errors/catalogue.ts';
import { DatabaseError } from './errors.ts';
import type { Db, Row, SqlParams } from './types.ts';

/**
 * A write statement in two parts, so the same SQL can run plainly or with an idempotency key:
 * `ctes` (the WITH list, without WITH) and `select` (the final SELECT the caller reads).
 * Each data-modifying CTE must include {@link PROCEED} in its WHERE clause, or write only from
 * the rows of one that does ({@link compileWrite} refuses it otherwise): with a live idempotency
 * key for the request, nothing is written and the first answer is returned instead.
 */
export interface WriteStatement<R extends Row = Row> {
  readonly ctes: string;
  readonly select: string;
  /**
   * When the statement can refuse a request as invalid input (a 400, such as a zongpai number
   * that is a box's), the condition on an answer row `r` that says so: such a request is not an
   * attempt (docs/HANDHELD.md: nothing is kept under its key), so its answer is not stored under the key.
   */
  readonly refusedAsInvalid?: string;
  /** The shape of its answer rows, stored with them under a key; shape 1 when not given. */
  readonly reply?: ReplyShape;
  /**
   * The schema of its answer rows (of the current reply shape): {@link runWrite} parses every row
   * by it, fresh or replayed, so a row that is not what the code reading it expects fails the
   * request as an internal error ({@link outcomeRows}) instead of being read as an answer. Every
   * write statement of the service has one (test/lib/db/write-statements.test.ts).
   */
  readonly row?: z.ZodMiniType<R>;
}

/**
 * The shape of a write's answer rows. A keyed answer is stored as the statement's rows with the
 * shape they have, so that a retry after a deployment that changed the statement's answer
 * columns is answered as the code that stored it answered, not decoded by code expecting other
 * columns. `version` is raised whenever the answer's columns change (1 for a statement's
 * first); `upgrades[n]` turns a stored row of shape n into one of shape n + 1, for every older
 * shape, so the current code reads it (the rows are kept for the key's 24 hours).
 */
export interface ReplyShape {
  readonly version: number;
  readonly upgrades?: Readonly<Record<number, (row: Row) => Row>>;
}

/**
 * The condition on an answer row `r` whose column `column` holds the error code: the code is
 * one the catalogue answers with 400 (see {@link WriteStatement.refusedAsInvalid}).
 */
export const answersInvalidInput = (column: string): string =>
  `r.${column} IN (${(Object.keys(errorCatalogue) as ErrorCode[])
    .filter((code) => errorCatalogue[code].status === 400)
    .map(errorCodeSql)
    .join(', ')})`;

/** The gate every write statement puts on its writes. */
export const PROCEED = 'NOT EXISTS (SELECT 1 FROM prior)';

/** The request's Idempotency-Key in a write statement, NULL when it came without one (the outbox records it). */
export const IDEMPOTENCY_KEY = '(SELECT rk.idempotency_key FROM request_key rk)';

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

export interface CompiledWrite<R extends Row = Row> {
  readonly plain: string;
  readonly idempotent: string;
  readonly reply: ReplyShape;
  readonly row: z.ZodMiniType<R> | undefined;
}

/**
 * A write's answer rows parsed by its statement's schema. A row the schema refuses is a fault of
 * the statement (or of a stored answer's upgrade), never an answer: it fails the request (500
 * INTERNAL_ERROR, logged with what did not parse), as an unknown error code does.
 *
 * @example
 * ```ts
 * outcomeRows(z.object({ zongpai_no: z.string() }), [{ zongpai_no: 7 }]); // throws
 * ```
 */
export const outcomeRows = <R extends Row>(schema: z.ZodMiniType<R> | undefined, rows: readonly Row[]): R[] =>
  schema === undefined ? (rows as R[]) : rows.map((row, index) => parsedRow(schema, row, `row ${String(index)}`));

/**
 * `value`, a statement's answer (a row, or part of one), parsed by `schema`: an answer of another
 * shape fails the request as an internal error, naming `what` and the fields that did not parse.
 */
export const parsedRow = <T>(schema: z.ZodMiniType<T>, value: unknown, what: string): T => {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(row)'}: ${issue.message}`);
  throw new Error(`a statement answered ${what} its schema refuses: ${issues.join('; ')}`);
};

/**
 * A catalogue error code as a SQL literal, for a statement that answers a problem by its code:
 * a code the catalogue does not know fails to compile.
 */
export const errorCodeSql = (code: ErrorCode): string => {
  if (!isErrorCode(code)) throw new RangeError(`not an error code: ${String(code)}`);
  return `'${code}'`;
};

/**
 * The error code a statement answered with, or null for none. A code the catalogue does not
 * know is a fault of the statement, never an answer: it fails the request (500 INTERNAL_ERROR,
 * logged) instead of falling through to a plausible wrong one.
 */
export const statementErrorCode = (value: unknown): ErrorCode | null => {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' && isErrorCode(value)) return value;
  throw new Error(`a write statement answered the unknown error code ${JSON.stringify(value)}`);
};

/**
 * Whether a write's outcome row holds every one of `columns`: a statement that found no problem
 * and still answers without them (or answers no row) wrote nothing.
 *
 * @example
 * ```ts
 * if (!wroteColumns(row, ['box_no', 'version'])) throw new AppError('VERSION_CONFLICT', { value: boxNo });
 * row.version; // a number from here on
 * ```
 */
export const wroteColumns = <R extends Row, C extends keyof R>(
  row: R | undefined,
  columns: readonly C[],
): row is R & { [K in C]: NonNullable<R[K]> } => row !== undefined && columns.every((column) => row[column] != null);

/**
 * The SQL with its comments and quoted texts (`'...'`, `E'...'`, `"..."`, `$tag$...$tag$`) blanked
 * out, each character a space, so that neither a parenthesis nor a gate written inside one counts.
 */
const codeOnly = (sql: string): string => {
  let out = '';
  let i = 0;
  const blank = (end: number) => {
    out += sql.slice(i, end).replace(/[^\n]/g, ' ');
    i = end;
  };
  while (i < sql.length) {
    const rest = sql.slice(i);
    if (rest.startsWith('--')) blank(sql.indexOf('\n', i) === -1 ? sql.length : sql.indexOf('\n', i));
    else if (rest.startsWith('/*')) {
      let depth = 0;
      let j = i;
      do {
        if (sql.startsWith('/*', j)) ((depth += 1), (j += 2));
        else if (sql.startsWith('*/', j)) ((depth -= 1), (j += 2));
        else j += 1;
      } while (depth > 0 && j < sql.length);
      blank(j);
    } else if (/^[$]([A-Za-z_][A-Za-z0-9_]*)?[$]/.test(rest) && !/[A-Za-z0-9_$]/.test(sql[i - 1] ?? '')) {
      const tag = (/^[$][A-Za-z0-9_]*[$]/.exec(rest) as RegExpExecArray)[0];
      const end = sql.indexOf(tag, i + tag.length);
      blank(end === -1 ? sql.length : end + tag.length);
    } else if (sql[i] === "'" || sql[i] === '"') {
      const quote = sql[i] as string;
      const escapes = quote === "'" && /[Ee]/.test(sql[i - 1] ?? '') && !/[A-Za-z0-9_]/.test(sql[i - 2] ?? '');
      let j = i + 1;
      while (j < sql.length) {
        if (escapes && sql[j] === '\\') j += 2;
        else if (sql[j] === quote && sql[j + 1] === quote) j += 2;
        else if (sql[j] === quote) break;
        else j += 1;
      }
      out += quote;
      i += 1;
      blank(j);
      if (j < sql.length) ((out += quote), (i += 1));
    } else ((out += sql[i]), (i += 1));
  }
  return out;
};

/** The CTEs of a WITH list (without WITH, comments and quoted texts blanked), each with its name and body, in order. */
const ctesOf = (ctes: string): { name: string; body: string }[] => {
  const found: { name: string; body: string }[] = [];
  let depth = 0;
  let start = 0;
  let open = -1;
  for (let i = 0; i < ctes.length; i += 1) {
    const ch = ctes[i];
    if (ch === '(') {
      if (depth === 0) open = i;
      depth += 1;
    } else if (ch === ')') {
      depth -= 1;
      if (depth === 0) {
        const head = /^[\s,]*([A-Za-z_][A-Za-z0-9_]*)(?:\s*\([^)]*\))?\s+AS\s+(?:(?:NOT\s+)?MATERIALIZED\s+)?$/i.exec(
          ctes.slice(start, open),
        );
        if (head !== null) {
          found.push({ name: head[1] as string, body: ctes.slice(open + 1, i) });
          start = i + 1;
        }
      }
    }
  }
  return found;
};

const DATA_MODIFYING = /^\s*(INSERT|UPDATE|DELETE|MERGE)\b/i;

/**
 * Refuses a write statement that could write under a live idempotency key: every data-modifying
 * CTE must carry {@link PROCEED} itself or write only from the rows of a gated one (`FROM`,
 * `JOIN` or `USING` it), and the final part must be a plain SELECT. Comments and quoted texts
 * count for nothing. A quick reading of the text, for the local runtime and the tests: the test
 * suite checks every write statement on PostgreSQL's own parse tree as well
 * (test/support/idempotency-gate.ts), which an OR or an outer join cannot pass either.
 */
const assertGated = (statement: WriteStatement): void => {
  if (!/^\s*SELECT\b/i.test(codeOnly(statement.select)))
    throw new Error(
      'a write statement must end in a SELECT: its writes belong in its CTEs, behind the idempotency gate',
    );
  const gated: string[] = [];
  for (const { name, body } of ctesOf(codeOnly(statement.ctes))) {
    if (!DATA_MODIFYING.test(body)) continue;
    const readsGated = gated.some((g) => new RegExp(`\\b(?:FROM|JOIN|USING)\\s+${g}\\b`, 'i').test(body));
    if (!body.includes(PROCEED) && !readsGated) {
      throw new Error(
        `write statement CTE "${name}" writes without the idempotency gate: put PROCEED (${PROCEED}) in its WHERE, or write from the rows of a gated CTE`,
      );
    }
    gated.push(name);
  }
};

/**
 * Compiles a write statement once, at cold start, into its plain and idempotent SQL.
 * The idempotent form looks the key up (`prior`), gates the writes on its absence, stores the
 * result rows under the key in the same statement, and answers either the stored rows or the
 * new ones, one JSON row each: one round trip, and the effect and its record commit together.
 * An expired row under the key is deleted first (`expired`; the INSERT reads it, so the DELETE
 * has finished before the INSERT checks the key): the new answer then takes its place.
 * Throws when a data-modifying CTE is not behind the gate (see {@link PROCEED}), except in a
 * function bundle, whose statements the tests have all checked.
 *
 * @example
 * ```ts
 * const save = compileWrite({ ctes: `saved AS (INSERT ... WHERE ${PROCEED} RETURNING *)`, select: 'SELECT * FROM saved' });
 * ```
 */
export const compileWrite = <R extends Row = Row>(statement: WriteStatement<R>): CompiledWrite<R> => {
  // Every write statement is fixed in the source and checked by the tests (lib/write-statements.ts
  // lists them all); a function bundle (`import.meta.bundled`) leaves the check and its code out.
  if (import.meta.bundled !== true) assertGated(statement);
  const reply = statement.reply ?? { version: 1 };
  for (let older = 1; older < reply.version; older += 1)
    if (reply.upgrades?.[older] === undefined)
      throw new Error(`a write statement of reply shape ${reply.version} has no upgrade of shape ${older}`);
  return {
    reply,
    row: statement.row,
    plain: `${WITHOUT_KEY}
${statement.ctes}
${statement.select}`,
    idempotent: `${UNDER_KEY}
${statement.ctes},
result AS (${statement.select}),
${storedAnswer(reply, statement.refusedAsInvalid)}
${KEYED_ANSWER}`,
  };
};

// The idempotency gate: the pieces compileWrite puts around a statement's own CTEs and SELECT.
// docs/sql/<name>.md shows each statement with them, in both forms.

/**
 * How a statement run without an Idempotency-Key starts: no prior answer (so {@link PROCEED}
 * holds) and no key for the outbox to record.
 */
const WITHOUT_KEY = `WITH prior AS (SELECT NULL::text AS request_hash, NULL::json AS result WHERE false),
request_key AS (SELECT NULL::text AS idempotency_key),`;

/**
 * How a statement run under an Idempotency-Key starts: `prior`, the answer stored under the
 * caller's key while it lives (its presence closes the gate: {@link PROCEED} is false and nothing
 * is written); `expired`, the removal of an answer past its hours, so that the new one takes its
 * place (the INSERT of {@link storedAnswer} reads it, so the DELETE has finished before the INSERT
 * checks the key); `request_key`, the key the outbox records with the events.
 */
const UNDER_KEY = `WITH prior AS (
  SELECT k.request_hash, k.result, COALESCE(k.reply_shape, 1) AS reply_shape FROM cargo.idempotency_key k
  WHERE k.caller = :idem_caller AND k.idem_key = :idem_key AND k.expires_at > now()
),
expired AS (
  DELETE FROM cargo.idempotency_key k
  WHERE k.caller = :idem_caller AND k.idem_key = :idem_key AND k.expires_at <= now()
  RETURNING 1
),
request_key AS (SELECT CAST(:idem_key AS text) AS idempotency_key),`;

/**
 * `stored`: the statement's answer (`result`, its SELECT) kept under the key, with its reply
 * shape, in the statement that wrote it, behind the gate like every write; not when the answer
 * refuses the request as invalid input (`refused`, see {@link WriteStatement.refusedAsInvalid}).
 */
const storedAnswer = (reply: ReplyShape, refused: string | undefined) => `stored AS (
  INSERT INTO cargo.idempotency_key (caller, idem_key, route, request_hash, result, reply_shape, expires_at)
  SELECT :idem_caller, :idem_key, :idem_route, :idem_hash, COALESCE((SELECT json_agg(r) FROM result r), '[]'::json),
         ${String(reply.version)}, now() + make_interval(hours => :idem_ttl_hours::integer)
  WHERE ${PROCEED} AND (SELECT count(*) FROM expired) >= 0${refused === undefined ? '' : `\n    AND NOT EXISTS (SELECT 1 FROM result r WHERE ${refused})`}
)`;

/**
 * What a statement run under a key answers: the stored answer's rows when there is one (a replay,
 * with the hash of the request that stored it and its shape), else its own, one JSON row each.
 */
const KEYED_ANSWER = `SELECT (SELECT p.request_hash FROM prior p) AS replay_hash, (SELECT p.reply_shape FROM prior p) AS replay_shape, a.row
FROM (SELECT 1) AS one
LEFT JOIN LATERAL json_array_elements(COALESCE((SELECT p.result FROM prior p), (SELECT json_agg(r) FROM result r), '[]'::json))
  WITH ORDINALITY AS a(row, n) ON true
ORDER BY a.n`;

const PRIOR_SQL = `
SELECT k.request_hash, COALESCE(k.reply_shape, 1) AS reply_shape, a.row FROM cargo.idempotency_key k
LEFT JOIN LATERAL json_array_elements(k.result) WITH ORDINALITY AS a(row, n) ON true
WHERE k.caller = :idem_caller AND k.idem_key = :idem_key AND k.expires_at > now()
ORDER BY a.n`;

const idemParams = (idem: Idempotency): SqlParams => ({
  idem_caller: idem.caller,
  idem_key: idem.key,
  idem_route: idem.route,
  idem_hash: idem.hash,
  idem_ttl_hours: idem.ttlHours,
});

/**
 * The answer's rows, one result row each: the Data API refuses a row over 64 KB, and a backlog's
 * 500 records are about 100 KB. `row` is NULL on the one row of an answer with none.
 */
type AnswerRow = { readonly row: unknown };

/** What a keyed write's answer says besides its rows: the stored answer's request and shape, when it is a replay. */
interface Replay {
  readonly hash: string | null;
  readonly shape: number | null;
}

/**
 * The answer's rows as the running statement's shape has them. A stored answer of an older shape
 * is upgraded; one of a newer shape was stored by a newer deployment while this one still
 * answers (during a deployment): it is not guessed at, the client retries with the same key
 * after Retry-After and the newer code answers it.
 */
const replayed = ({ hash, shape }: Replay, rows: readonly AnswerRow[], idem: Idempotency, reply: ReplyShape): Row[] => {
  if (hash !== null && hash !== idem.hash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
  const answer = rows.filter((r) => r.row !== null).map((r) => r.row as Row);
  const stored = hash === null ? reply.version : (shape ?? 1);
  if (stored > reply.version) throw new AppError('DATABASE_UNAVAILABLE', {}, [], { headers: { 'Retry-After': '5' } });
  let upgraded = answer;
  for (let from = stored; from < reply.version; from += 1) {
    const upgrade = reply.upgrades?.[from];
    if (upgrade === undefined) throw new Error(`no upgrade of reply shape ${from}`); // compileWrite checked it
    upgraded = upgraded.map((row) => upgrade(row));
  }
  return upgraded;
};

/**
 * Runs a compiled write, plainly or under an idempotency key: its answer rows, parsed by the
 * statement's schema ({@link outcomeRows}).
 *
 * Under a key, a racing duplicate that started before the first committed ends in a unique
 * violation on the key (the database makes it wait for the first, then refuses it, undoing its
 * writes); it then reads the first answer in a second round trip. An expired key is deleted by
 * the statement itself before it stores the new one, so racing copies on an expired key behave
 * exactly like racing copies on a new one: the first stores, the others wait and replay it.
 */
export const runWrite = async <R extends Row>(
  db: Db,
  write: CompiledWrite<R>,
  params: SqlParams,
  idem?: Idempotency,
): Promise<R[]> => outcomeRows(write.row, await answerRows(db, write, params, idem));

/** The rows a write answers, fresh or replayed, before they are parsed. */
const answerRows = async (db: Db, write: CompiledWrite<Row>, params: SqlParams, idem?: Idempotency): Promise<Row[]> => {
  if (idem === undefined) return (await db.query(write.plain, params)).rows;
  try {
    const { rows } = await db.query<AnswerRow & { replay_hash: string | null; replay_shape: number | null }>(
      write.idempotent,
      { ...params, ...idemParams(idem) },
    );
    return replayed(
      { hash: rows[0]?.replay_hash ?? null, shape: rows[0]?.replay_shape ?? null },
      rows,
      idem,
      write.reply,
    );
  } catch (error) {
    if (!(error instanceof DatabaseError && error.isUniqueViolation)) throw error;
    const { rows } = await db.query<AnswerRow & { request_hash: string; reply_shape: number }>(
      PRIOR_SQL,
      idemParams(idem),
    );
    const prior = rows[0];
    if (prior === undefined) throw error;
    return replayed({ hash: prior.request_hash, shape: prior.reply_shape }, rows, idem, write.reply);
  }
};
