/**
 * The database port the domain talks to. The domain knows SQL and rows, never the Data API:
 * production plugs in {@link DataApiDb}, tests may plug in anything that runs SQL.
 */

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

export interface Db {
  /** Runs one SQL statement with named parameters (`:name`). */
  query<R extends Row = Row>(sql: string, params?: SqlParams): Promise<QueryResult<R>>;
  /** Runs `work` in one transaction (used by migrations only: requests are one statement each). */
  transaction<T>(work: (tx: Db) => Promise<T>): Promise<T>;
}

/**
 * Parameter helpers that carry their type hint.
 *
 * @example
 * ```ts
 * db.query('INSERT INTO t (at, doc) VALUES (:at, :doc)', { at: timestamp(new Date()), doc: json([1, 2]) });
 * ```
 */
export const json = (value: unknown): TypedValue => ({ hint: 'JSON', value: JSON.stringify(value) });

/** A point in time, sent as UTC without zone as the Data API's TIMESTAMP hint expects. */
export const timestamp = (date: Date): TypedValue => ({ hint: 'TIMESTAMP', value: date.toISOString().replace('T', ' ').replace('Z', '') });

export const decimal = (value: string): TypedValue => ({ hint: 'DECIMAL', value });

export const uuid = (value: string): TypedValue => ({ hint: 'UUID', value });
