import pg from 'pg';
import {
  CommitRolledBackError,
  DATA_API_CALL_TIMEOUT_MS,
  DEADLINE_SLACK_MS,
  signInAs,
  StatementTimeoutError,
} from './backend.ts';
import type { TextResult, QueryOptions, QueryValues, SqlBackend, SqlSession, SqlTransaction } from './backend.ts';
import { isConnectionError } from './errors.ts';

/** Every value stays in PostgreSQL's text format; the emulator decides the Data API shape. */
const RAW_TYPES = { getTypeParser: () => (value: string) => value } as unknown as pg.CustomTypesConfig;

const toResult = (result: pg.QueryArrayResult): TextResult => ({
  fields: result.fields.map((f) => ({
    name: f.name,
    dataTypeID: f.dataTypeID,
    tableID: f.tableID,
    columnID: f.columnID,
    dataTypeModifier: f.dataTypeModifier,
  })),
  rows: result.rows as (string | null)[][],
  command: result.command ?? '',
  rowCount: result.rowCount,
});

/** A checked-out client that remembers whether its connection broke, so it is not reused. */
const checkout = async (pool: pg.Pool) => {
  const client = await pool.connect();
  let broken: Error | undefined;
  // Without a listener, an 'error' on a checked-out client (server gone) would crash the process.
  const onError = (error: Error) => {
    broken = error;
  };
  client.on('error', onError);
  const run = async (text: string, values: QueryValues = []) => {
    try {
      return toResult(await client.query({ text, values: [...values], rowMode: 'array', types: RAW_TYPES }));
    } catch (error) {
      if (isConnectionError(error)) broken = error as Error;
      throw error;
    }
  };
  const session: SqlSession = {
    query: async (text: string, values: QueryValues = [], { deadline }: QueryOptions = {}) => {
      if (deadline === undefined) return run(text, values);
      // The server cancels the statement at the deadline (57014, its changes rolled back); one
      // that waited for a connection until then is not run at all. 0: no limit.
      const remaining = deadline === Infinity ? 0 : Math.ceil(deadline - Date.now());
      if (deadline !== Infinity && remaining <= 0) throw new StatementTimeoutError();
      // The connection's own statement_timeout (a call's 45 s) serves a deadline about as far,
      // cancelling at most DEADLINE_SLACK_MS late: most calls cost no SET and RESET.
      if (remaining > DATA_API_CALL_TIMEOUT_MS - DEADLINE_SLACK_MS && remaining <= DATA_API_CALL_TIMEOUT_MS)
        return run(text, values);
      await run(`SET statement_timeout = ${String(remaining)}`);
      try {
        return await run(text, values);
      } finally {
        // A transaction's next call runs with the connection's own limit again (a failed
        // transaction refuses the RESET, but its ROLLBACK undoes the SET).
        await run('RESET statement_timeout').catch(() => undefined);
      }
    },
  };
  const release = async (): Promise<void> => {
    // A bare BEGIN sent as a statement must not return a connection to the pool mid-transaction.
    if (broken === undefined && client.getTransactionStatus() !== 'I')
      await session.query('ROLLBACK').catch(() => undefined);
    // Nothing a call SETs, creates as TEMP, PREPAREs or LISTENs to, nor any plan it made, reaches
    // the next one: the Data API runs DISCARD ALL before it reuses a connection ("Session
    // management with Amazon RDS Data API", Aurora User Guide). The startup options (UTC, ISO
    // dates) are what RESET ALL returns to.
    if (broken === undefined) await session.query('DISCARD ALL').catch(() => undefined);
    client.off('error', onError);
    client.release(broken);
  };
  return { session, release };
};

/**
 * A backend on a PostgreSQL server through a `pg` pool. Statements outside a transaction
 * take any pooled connection, so parallel calls really run in parallel; a transaction keeps
 * one connection to itself until it ends.
 *
 * @example
 * ```ts
 * const backend = await createPostgresBackend({ connectionString: process.env.DATABASE_URL ?? '' });
 * await backend.query('SELECT 1');
 * await backend.close();
 * ```
 */
export const createPostgresBackend = async (options: {
  connectionString: string;
  maxConnections?: number;
}): Promise<SqlBackend> => {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    // The Data API's connections run in UTC with ISO dates, whatever the server's defaults, and a
    // statement outliving its call is cancelled (the statement_timeout a session returns to).
    options: `-c TimeZone=UTC -c DateStyle=ISO,MDY -c statement_timeout=${DATA_API_CALL_TIMEOUT_MS}`,
  });
  pool.on('error', () => undefined); // an idle client died: the pool drops it and reconnects later
  // A connection ended by the server (pg_terminate_backend, a restart) can answer its last
  // ReadyForQuery and the FATAL 57P01 in one packet: the pool hands the client over in between,
  // before anyone listens for its 'error', and an 'error' without a listener ends the process. So
  // every client listens from its first moment; the failure still reaches the call in flight (its
  // query rejects), and the pool drops a client that is no longer queryable when it is released.
  pool.on('connect', (client) => client.on('error', () => undefined));

  const withSession = async <T>(fn: (s: SqlSession) => Promise<T>, user?: string): Promise<T> => {
    const { session, release } = await checkout(pool);
    try {
      await signInAs(session, user);
      return await fn(session);
    } finally {
      await release();
    }
  };

  const begin = async (user?: string): Promise<SqlTransaction> => {
    const { session, release } = await checkout(pool);
    let open = true;
    const end = async (statement: 'COMMIT' | 'ROLLBACK'): Promise<TextResult> => {
      if (!open) throw new Error('Transaction is closed');
      open = false;
      try {
        return await session.query(statement);
      } finally {
        await release();
      }
    };
    try {
      await signInAs(session, user);
      await session.query('BEGIN');
    } catch (error) {
      await release();
      throw error;
    }
    return {
      query: async (text, values = [], options = {}) => {
        if (!open) throw new Error('Transaction is closed');
        return session.query(text, values, options);
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

  // Fail at start, not at the first request, when the server is unreachable.
  await withSession((s) => s.query('SELECT 1'));

  return {
    kind: 'postgres',
    query: (text, values = [], options = {}) => withSession((s) => s.query(text, values, options)),
    withSession,
    begin,
    close: () => pool.end(),
  };
};
