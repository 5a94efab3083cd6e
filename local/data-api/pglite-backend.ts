import { Mutex, PGlite, protocol } from '@electric-sql/pglite';
import { CommitRolledBackError, signInAs, StatementTimeoutError } from './backend.ts';
import type {
  TextResult,
  QueryOptions,
  QueryValues,
  ResultField,
  SqlBackend,
  SqlSession,
  SqlTransaction,
} from './backend.ts';

interface BackendMessage {
  readonly name: string;
  readonly fields?: readonly (ResultField | string | null)[];
  readonly text?: string;
  /** readyForQuery: I idle, T in a transaction block, E in a failed one. */
  readonly status?: string;
}

const { serialize } = protocol;

/** Folds the extended-protocol answer into a result, keeping values in PostgreSQL's text format. */
const toResult = (messages: readonly BackendMessage[]): TextResult => {
  let fields: ResultField[] = [];
  const rows: (string | null)[][] = [];
  let tag = '';
  for (const message of messages) {
    if (message.name === 'rowDescription') fields = [...(message.fields as ResultField[])];
    else if (message.name === 'dataRow') rows.push([...(message.fields as (string | null)[])]);
    else if (message.name === 'commandComplete') tag = message.text ?? '';
  }
  const words = tag.split(' ');
  const count = Number.parseInt(words[words.length - 1] ?? '', 10);
  return { fields, rows, command: words[0] ?? '', rowCount: Number.isNaN(count) ? null : count };
};

/**
 * Fails the statement's transaction, as PostgreSQL's statement_timeout does: sent before Sync,
 * it makes Sync roll back the implicit transaction of an autocommitted statement, and leaves
 * an open transaction only able to roll back.
 */
const CANCEL = `DO $$ BEGIN RAISE EXCEPTION USING ERRCODE = 'query_canceled', MESSAGE = 'canceling statement due to statement timeout'; END $$`;

/**
 * One statement through the extended protocol by hand: unlike `PGlite.query`, this keeps the
 * RowDescription's table and column ids (needed for column metadata) and leaves every value
 * as text, so PGlite answers exactly what a PostgreSQL server sends.
 *
 * PGlite runs in this process and has no statement_timeout (no timer interrupts it), so a
 * `deadline` is kept here: a statement is not started past it, and one that ends past it is
 * cancelled before Sync, which is where PostgreSQL commits an autocommitted statement
 * ("Sync causes the backend to close the current transaction if it's not inside a BEGIN/COMMIT
 * transaction block": PostgreSQL, Frontend/Backend Protocol, Extended Query).
 */
const runStatement = async (
  db: PGlite,
  text: string,
  values: QueryValues,
  options: QueryOptions,
  onStatus: (status: string) => void,
): Promise<TextResult> => {
  const send = async (message: Uint8Array) =>
    (await db.execProtocol(message, { syncToFs: false })).messages as BackendMessage[];
  const execute = async (statement: string, parameters: QueryValues) => [
    ...(await send(serialize.parse({ text: statement }))),
    ...(await send(serialize.bind({ values: [...parameters] }))),
    ...(await send(serialize.describe({ type: 'P' }))),
    ...(await send(serialize.execute({}))),
  ];
  const late = () => options.deadline !== undefined && Date.now() >= options.deadline;
  try {
    if (late()) throw new StatementTimeoutError();
    const messages = await execute(text, values);
    if (late()) {
      const cancelled = await execute(CANCEL, []).catch((error: unknown) => error);
      throw new StatementTimeoutError({ cause: cancelled });
    }
    return toResult(messages);
  } finally {
    const ready = (await send(serialize.sync())).find((message) => message.name === 'readyForQuery');
    if (ready?.status !== undefined) onStatus(ready.status);
  }
};

export interface PgliteBackendOptions {
  /** Where the database files live; undefined keeps them in memory. */
  readonly dataDir?: string;
  /**
   * A data directory tarball (from PGlite's `dumpDataDir`) to start from instead of running
   * initdb: about four times faster, which is what test suites starting many databases want.
   */
  readonly loadDataDir?: Blob;
}

/** A PGlite backend can also hand over its data directory, for {@link PgliteBackendOptions.loadDataDir}. */
export interface PgliteBackend extends SqlBackend {
  /** The whole data directory as a tarball, taken between statements (never inside a transaction). */
  dumpDataDir(): Promise<Blob>;
}

/**
 * A backend on embedded PGlite: in memory, or persisted in `dataDir`. PGlite is a single
 * connection, so one mutex orders everything: a statement waits for the one before it, and
 * an open transaction holds the mutex until it commits or rolls back.
 *
 * @example
 * ```ts
 * const backend = await createPgliteBackend({ dataDir: '.data/pglite' });
 * const { rows } = await backend.query('SELECT now()::text'); // a UTC timestamp
 * await backend.close();
 * ```
 */
export const createPgliteBackend = async (options: PgliteBackendOptions = {}): Promise<PgliteBackend> => {
  const db = await PGlite.create({
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    ...(options.loadDataDir === undefined ? {} : { loadDataDir: options.loadDataDir }),
  });
  const lock = new Mutex();
  let status = 'I';
  const run = (text: string, values: QueryValues = [], options: QueryOptions = {}) =>
    runStatement(db, text, values, options, (next) => {
      status = next;
    });
  /**
   * Back to a fresh connection's state after every call and every transaction: nothing a
   * statement SETs, creates as TEMP, PREPAREs or LISTENs to, nor any plan it made, reaches the
   * next call, as the Data API runs DISCARD ALL before it reuses a connection. The Data API's
   * connections run in UTC.
   */
  const reset = async () => {
    await run('DISCARD ALL');
    await run("SET TimeZone = 'UTC'");
    await run("SET DateStyle = 'ISO, MDY'");
  };
  await reset();

  const session: SqlSession = { query: (text, values = [], options = {}) => run(text, values, options) };

  const withSession = <T>(fn: (s: SqlSession) => Promise<T>, user?: string): Promise<T> =>
    lock.runExclusive(async () => {
      try {
        await signInAs(session, user);
        return await fn(session);
      } finally {
        // A bare BEGIN sent as a statement must not turn the one connection transactional.
        if (status !== 'I') await run('ROLLBACK');
        await reset();
        await db.syncToFs();
      }
    });

  const begin = async (user?: string): Promise<SqlTransaction> => {
    const release = await lock.acquire();
    let open = true;
    const end = async (statement: 'COMMIT' | 'ROLLBACK'): Promise<TextResult> => {
      if (!open) throw new Error('Transaction is closed');
      open = false;
      try {
        return await run(statement);
      } finally {
        await reset().catch(() => undefined);
        await db.syncToFs().catch(() => undefined);
        release();
      }
    };
    try {
      await signInAs(session, user);
      await run('BEGIN');
    } catch (error) {
      await reset().catch(() => undefined);
      release();
      throw error;
    }
    return {
      query: async (text, values = [], options = {}) => {
        if (!open) throw new Error('Transaction is closed');
        return run(text, values, options);
      },
      commit: async () => {
        const result = await end('COMMIT');
        if (result.command === 'ROLLBACK') throw new CommitRolledBackError();
      },
      rollback: async () => {
        await end('ROLLBACK');
      },
    };
  };

  return {
    kind: 'pglite',
    query: (text, values = [], options = {}) => withSession((s) => s.query(text, values, options)),
    withSession,
    begin,
    dumpDataDir: () => lock.runExclusive(async () => await db.dumpDataDir('none')),
    close: async () => {
      if (!db.closed) await db.close();
    },
  };
};
