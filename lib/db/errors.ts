import { AppError } from '../errors/app-error.ts';

/**
 * A statement that PostgreSQL refused. The Data API reports it as `DatabaseErrorException`
 * with the Postgres message followed by `; SQLState: 23505`; the domain reads `sqlState` and
 * `constraint` to tell, say, a unique violation on one constraint from any other failure.
 */
export class DatabaseError extends Error {
  override readonly name = 'DatabaseError';
  constructor(
    message: string,
    readonly sqlState: string | undefined,
    readonly constraint: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  get isUniqueViolation(): boolean {
    return this.sqlState === '23505';
  }

  /**
   * True when the database, not the statement, failed: it does not exist (3D000: renamed,
   * dropped, not created yet), the connection failed or was ended (class 08; 57P01-57P03: an
   * administrator's or a crash's shutdown, a server starting up), or it has no connection left
   * (53300). The Data API answers these as DatabaseErrorException too; the service answers
   * 503 DATABASE_UNAVAILABLE, never a 500.
   */
  get isDatabaseUnavailable(): boolean {
    return this.sqlState !== undefined && /^(3D000|08...|57P0[1-3]|53300)$/.test(this.sqlState);
  }
}

/**
 * Parses a Data API `DatabaseErrorException` message.
 *
 * @example
 * ```ts
 * parseDatabaseError('ERROR: duplicate key value violates unique constraint "zongpai_pkey"; SQLState: 23505');
 * // DatabaseError { sqlState: '23505', constraint: 'zongpai_pkey' }
 * ```
 */
export const parseDatabaseError = (message: string, cause?: unknown): DatabaseError => {
  const sqlState = /;\s*SQLState:\s*([0-9A-Z]{5})\s*$/.exec(message)?.[1];
  const constraint = /constraint "([^"]+)"/.exec(message)?.[1];
  return new DatabaseError(message, sqlState, constraint, { cause });
};

/** Errors after which the statement certainly did not run, so a retry cannot write twice. */
const TRANSIENT = new Set([
  'DatabaseResumingException',
  'ServiceUnavailableError',
  'ThrottlingException',
  'TooManyRequestsException',
  'DatabaseUnavailableException',
]);

/** Network failures before the request left this process: nothing reached the database. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

const errorCode = (error: Error): unknown => (error as { code?: unknown }).code;

/** True for a failure worth retrying: the statement certainly did not run. */
export const isTransient = (error: unknown): boolean =>
  error instanceof Error && (TRANSIENT.has(error.name) || NOT_SENT.has(String(errorCode(error))));

/**
 * A failure of the connection itself (reset, timed out) leaves unknown whether the statement ran,
 * so it is not retried here; the client sees 503 and retries with its Idempotency-Key.
 */
export const isConnectionFailure = (error: unknown): boolean =>
  error instanceof Error &&
  (['ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'TimeoutError', 'StatementTimeoutException'].includes(
    String(errorCode(error)),
  ) ||
    ['TimeoutError', 'StatementTimeoutException'].includes(error.name));

/**
 * 503 DATABASE_UNAVAILABLE once retries are spent, with the seconds a client should wait
 * (`Retry-After`): a resuming Aurora cluster needs longer than a busy one.
 */
export const databaseUnavailable = (lastError: unknown): AppError =>
  new AppError('DATABASE_UNAVAILABLE', {}, [], {
    cause: lastError,
    headers: {
      'Retry-After': lastError instanceof Error && lastError.name === 'DatabaseResumingException' ? '15' : '5',
    },
  });
