/**
 * The port between the Data API emulator and a PostgreSQL engine (embedded PGlite or a real
 * server). Values cross it as PostgreSQL's own text format, in both directions, so the
 * emulator alone decides how each type looks on the Data API wire, whatever the engine.
 */

/**
 * How long a Data API call may run: 45 seconds, after which it is answered
 * StatementTimeoutException (https://docs.aws.amazon.com/AmazonRDS/latest/AuroraUserGuide/data-api-timeouts.html).
 * A PostgreSQL server's connections start with it as their statement_timeout.
 */
export const DATA_API_CALL_TIMEOUT_MS = 45_000;

/** A column of a result, as the server's RowDescription message describes it. */
export interface ResultField {
  readonly name: string;
  readonly dataTypeID: number;
  /** OID of the table the column comes from; 0 for an expression. */
  readonly tableID: number;
  /** Attribute number of the column in that table; 0 for an expression. */
  readonly columnID: number;
  /** Type modifier (e.g. the length of a varchar(n)); -1 when there is none. */
  readonly dataTypeModifier: number;
}

/** The outcome of one statement: raw text values, `null` for SQL NULL. */
export interface TextResult {
  /** Empty when the statement returns no rows (e.g. an INSERT without RETURNING). */
  readonly fields: readonly ResultField[];
  readonly rows: readonly (readonly (string | null)[])[];
  /** The command tag's verb: SELECT, INSERT, UPDATE, DELETE, MERGE, CREATE, ... */
  readonly command: string;
  /** The command tag's row count (rows returned or changed), when the tag has one. */
  readonly rowCount: number | null;
}

/** Positional parameters, in PostgreSQL text format; `null` binds SQL NULL. */
export type QueryValues = readonly (string | null)[];

/**
 * How late a backend may cancel a statement after its deadline: a PostgreSQL connection starts
 * with the 45 s call timeout as its statement_timeout, which serves a call whose statement
 * starts within this of the call, without a SET of its own.
 */
export const DEADLINE_SLACK_MS = 250;

export interface QueryOptions {
  /**
   * When the statement must have ended (`Date.now()` time), as a Data API call's timeout
   * cancels its statement: one not started by then is not run, one still running then is
   * cancelled; either fails with {@link StatementTimeoutError} and commits nothing (outside a
   * transaction its changes are rolled back; inside one, the transaction can only roll back).
   * `Infinity`: never cancelled. Unset: the connection's own limit. A backend may cancel up to
   * {@link DEADLINE_SLACK_MS} after it.
   */
  readonly deadline?: number;
}

/** One connection, used by one caller at a time. */
export interface SqlSession {
  /**
   * Runs exactly one statement with `$1`, `$2`... parameters.
   *
   * @example
   * ```ts
   * const { rows } = await session.query('SELECT $1::int8 + 1 AS n', ['41']); // rows: [['42']]
   * await session.query('SELECT pg_sleep(60)', [], { deadline: Date.now() + 45_000 }); // rejects with StatementTimeoutError
   * ```
   */
  query(text: string, values?: QueryValues, options?: QueryOptions): Promise<TextResult>;
}

/** A session inside BEGIN ... COMMIT, holding its connection until it ends. */
export interface SqlTransaction extends SqlSession {
  /** Commits; rejects (and ends the transaction) when PostgreSQL answered ROLLBACK instead. */
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

/**
 * A PostgreSQL engine. Every connection runs with `TimeZone=UTC` and ISO dates, as the Data
 * API's own connections do.
 *
 * @example
 * ```ts
 * const backend = await createPgliteBackend();
 * await backend.query('CREATE TABLE box (box_no text PRIMARY KEY)');
 * const tx = await backend.begin();
 * await tx.query('INSERT INTO box VALUES ($1::text)', ['B-1']);
 * await tx.commit();
 * await backend.close();
 * ```
 */
export interface SqlBackend extends SqlSession {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs `fn` on one connection in autocommit mode, held for `fn`'s whole duration; as `user`
   * when given (see {@link signInAs}), else as the backend's own connection user.
   */
  withSession<T>(fn: (session: SqlSession) => Promise<T>, user?: string): Promise<T>;
  /**
   * Opens a transaction, as `user` when given. PGlite has a single connection, so there every
   * other caller waits until the transaction ends; PostgreSQL gives it a dedicated pooled
   * connection.
   */
  begin(user?: string): Promise<SqlTransaction>;
  close(): Promise<void>;
}

const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Makes a fresh connection act as the database user `user` (`SET ROLE`), as a Data API call
 * signed in with that user's secret runs: every privilege check is that user's. The connection's
 * own user (the master locally) must be a superuser or a member of the role. `DISCARD ALL`, which
 * every backend runs when a call ends, sets it back.
 *
 * @example
 * ```ts
 * await signInAs(session, 'cargo_reader'); // an INSERT now fails with 42501
 * ```
 */
export const signInAs = async (session: SqlSession, user: string | undefined): Promise<void> => {
  if (user === undefined) return;
  // A role name cannot be a bind parameter; only a plain lower-case identifier gets here.
  if (!ROLE_NAME.test(user)) throw new Error(`database user '${user}' is not a lower-case SQL identifier`);
  await session.query(`SET ROLE ${user}`);
};

/** The error a backend throws for a statement cancelled at its {@link QueryOptions.deadline}, as PostgreSQL's statement_timeout. */
export class StatementTimeoutError extends Error {
  override readonly name = 'StatementTimeoutError';
  readonly code = '57014';
  constructor(options?: { cause?: unknown }) {
    super('canceling statement due to statement timeout', options);
  }
}

/** The error a backend throws when COMMIT turned into ROLLBACK (an earlier statement failed). */
export class CommitRolledBackError extends Error {
  override readonly name = 'CommitRolledBackError';
  readonly code = '25P02';
  constructor() {
    super('The database returned ROLLBACK, so the transaction cannot be committed');
  }
}
