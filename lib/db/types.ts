/** A value that needs a Data API type hint to reach PostgreSQL with the right type. */
export interface TypedValue {
  readonly hint: 'TIMESTAMP' | 'JSON' | 'DECIMAL' | 'UUID' | 'DATE';
  readonly value: string;
}

/** A statement parameter. Arrays are not allowed (the Data API rejects them): pass {@link json} and expand in SQL. */
export type SqlValue = string | number | boolean | null | TypedValue;

export type SqlParams = Readonly<Record<string, SqlValue>>;

export type Row = Record<string, unknown>;

export interface QueryResult<R extends Row = Row> {
  readonly rows: R[];
  /** Rows inserted, updated or deleted by the statement. */
  readonly rowsUpdated: number;
}

/**
 * The database port the domain talks to. The domain knows SQL and rows, never the Data API:
 * production plugs in {@link DataApiDb}, tests may plug in anything that runs SQL.
 */
export interface Db {
  /** Runs one SQL statement with named parameters (`:name`). */
  query<R extends Row = Row>(sql: string, params?: SqlParams): Promise<QueryResult<R>>;
  /** Runs `work` in one transaction (used by migrations only: requests are one statement each). */
  transaction<T>(work: (tx: Db) => Promise<T>): Promise<T>;
}

/**
 * A JSON parameter (the Data API's JSON type hint): how a list reaches SQL, expanded there.
 *
 * @example
 * ```ts
 * db.query('SELECT * FROM json_to_recordset(:rows) AS r (a int)', { rows: json([{ a: 1 }, { a: 2 }]) });
 * ```
 */
export const json = (value: unknown): TypedValue => ({ hint: 'JSON', value: JSON.stringify(value) });
