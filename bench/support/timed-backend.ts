import type { TextResult, QueryValues, SqlBackend, SqlSession } from '../../local/data-api/backend.ts';

/** One statement the Data API emulator sent to PostgreSQL, as the engine received it. */
export interface TimedStatement {
  /** The SQL with `$n` placeholders and casts, exactly as sent. */
  readonly text: string;
  readonly values: QueryValues;
  /** From sending the statement to its last row, on a connection to the local server. */
  readonly ms: number;
  /**
   * `false` for the emulator's own catalog look-ups (column metadata, type names) that follow
   * a statement on the same connection: not part of the service's work.
   */
  readonly service: boolean;
}

/**
 * Wraps the emulator's backend to time every statement where it meets PostgreSQL: the
 * "server side" time of a request's SQL (the server's work plus a loopback round trip, about
 * 0.05 ms), without the SDK, HTTP and emulator around it.
 *
 * @example
 * ```ts
 * const seen: TimedStatement[] = [];
 * const backend = timedBackend(await createPostgresBackend({ connectionString }), (s) => seen.push(s));
 * ```
 */
export const timedBackend = (
  inner: SqlBackend,
  record: (statement: TimedStatement) => void,
  /** Runs before each service statement, untimed (the SQL bench explains statements here). */
  beforeService?: (text: string, values: QueryValues) => Promise<void>,
): SqlBackend => {
  const timed = (session: SqlSession): SqlSession => {
    let first = true;
    return {
      query: async (text: string, values: QueryValues = []): Promise<TextResult> => {
        const service = first;
        first = false;
        if (service && beforeService !== undefined) await beforeService(text, values);
        const started = performance.now();
        try {
          return await session.query(text, values);
        } finally {
          record({ text, values, ms: performance.now() - started, service });
        }
      },
    };
  };
  return {
    kind: inner.kind,
    query: (text, values) => timed(inner).query(text, values),
    withSession: (fn, user) => inner.withSession((session) => fn(timed(session)), user),
    begin: async (user) => {
      const tx = await inner.begin(user);
      const session = timed(tx);
      return { query: session.query, commit: () => tx.commit(), rollback: () => tx.rollback() };
    },
    close: () => inner.close(),
  };
};
