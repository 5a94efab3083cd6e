import {
  BeginTransactionCommand,
  CommitTransactionCommand,
  ExecuteStatementCommand,
  RollbackTransactionCommand,
  type RDSDataClient,
} from '@aws-sdk/client-rds-data';
import { decodeRecords } from './decode.ts';
import { databaseUnavailable, isConnectionFailure, isTransient, parseDatabaseError } from './errors.ts';
import { toSqlParameters } from './params.ts';
import { withRetry, type RetryOptions } from './retry.ts';
import type { Db, QueryResult, Row, SqlParams } from './types.ts';

export interface DataApiDbOptions {
  /** The RDS Data API client (the real one, pointed at Aurora or at the local emulator). */
  readonly client: Pick<RDSDataClient, 'send'> & Partial<Pick<RDSDataClient, 'destroy'>>;
  readonly resourceArn: string;
  readonly secretArn: string;
  readonly database: string;
  /** Total time spent retrying transient failures before answering 503. */
  readonly retryBudgetMs: number;
  /**
   * How long one call may take, its retries included, before it is abandoned with 503: a
   * request's calls end before the function's timeout, so that a slow statement (an ERP view
   * taking minutes) is answered in the unified body rather than by API Gateway. Unset: as long
   * as the Data API waits (45 s), for the migrations and ops commands.
   */
  readonly callTimeoutMs?: number;
  readonly retry?: Partial<Pick<RetryOptions, 'sleep' | 'now' | 'random' | 'baseDelayMs' | 'maxDelayMs'>>;
}

/**
 * The {@link Db} port over the RDS Data API: one `ExecuteStatement` per query, results decoded
 * from the column metadata, `DatabaseErrorException` turned into {@link DatabaseError}, and
 * transient failures (Aurora resuming from zero capacity, throttling) retried, then 503.
 *
 * @example
 * ```ts
 * const db = new DataApiDb({ client: new RDSDataClient({}), resourceArn, secretArn, database: 'cargo', retryBudgetMs: 20_000 });
 * const { rows } = await db.query('SELECT now() AS at');
 * ```
 */
export class DataApiDb implements Db {
  constructor(
    private readonly options: DataApiDbOptions,
    private readonly transactionId?: string,
  ) {}

  async query<R extends Row = Row>(sql: string, params: SqlParams = {}): Promise<QueryResult<R>> {
    const command = new ExecuteStatementCommand({
      ...this.target(),
      sql,
      parameters: toSqlParameters(params),
      includeResultMetadata: true,
      ...(this.transactionId === undefined ? {} : { transactionId: this.transactionId }),
    });
    const output = await this.send((abortSignal) => this.options.client.send(command, { abortSignal }));
    return {
      rows: decodeRecords(output.records, output.columnMetadata) as R[],
      rowsUpdated: output.numberOfRecordsUpdated ?? 0,
    };
  }

  async transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
    const { transactionId } = await this.send((abortSignal) =>
      this.options.client.send(new BeginTransactionCommand(this.target()), { abortSignal }),
    );
    if (transactionId === undefined) throw new Error('BeginTransaction returned no transaction id');
    try {
      const result = await work(new DataApiDb(this.options, transactionId));
      await this.options.client.send(new CommitTransactionCommand({ ...this.target(), transactionId }));
      return result;
    } catch (error) {
      await this.options.client
        .send(new RollbackTransactionCommand({ ...this.target(), transactionId }))
        .catch(() => undefined);
      throw error;
    }
  }

  /** Closes the client's connections (local runtime and tests; a Lambda never needs to). */
  destroy(): void {
    this.options.client.destroy?.();
  }

  private target() {
    return {
      resourceArn: this.options.resourceArn,
      secretArn: this.options.secretArn,
      database: this.options.database,
    };
  }

  /**
   * Inside a transaction nothing is retried: a resumed cluster would not know the transaction.
   * A statement refused because the database is missing or unreachable (SQLState 3D000, 08...,
   * 57P01-57P03, 53300) is 503 DATABASE_UNAVAILABLE, as is a Data API that stays unavailable.
   * An abandoned call (`callTimeoutMs`) is a connection failure: whether its statement ran is
   * unknown, and a client retries a write with its Idempotency-Key.
   */
  private async send<T>(call: (abortSignal: AbortSignal | undefined) => Promise<T>): Promise<T> {
    const { callTimeoutMs } = this.options;
    const abortSignal = callTimeoutMs === undefined ? undefined : AbortSignal.timeout(callTimeoutMs);
    const attempt = async () => {
      try {
        return await call(abortSignal);
      } catch (error) {
        if (error instanceof Error && error.name === 'DatabaseErrorException') {
          const failure = parseDatabaseError(error.message, error);
          // Not retried: a missing database does not come back within a request's budget.
          throw failure.isDatabaseUnavailable ? databaseUnavailable(failure) : failure;
        }
        if (isConnectionFailure(error) || abortSignal?.aborted === true) throw databaseUnavailable(error);
        throw error;
      }
    };
    if (this.transactionId !== undefined) return attempt();
    return withRetry(attempt, {
      ...this.options.retry,
      isTransient,
      giveUp: databaseUnavailable,
      budgetMs: this.options.retryBudgetMs,
    });
  }
}
