import { CommitRolledBackError, StatementTimeoutError } from './backend.ts';

/**
 * The Data API's exceptions, each with the HTTP status its Smithy model declares, so that the
 * real `RDSDataClient` rebuilds the very exception class (`error.name`) the service will see
 * in AWS. One generic writer turns any of them into a restJson1 error response.
 */
export class DataApiError extends Error {
  constructor(
    /** The `x-amzn-errortype`, e.g. `BadRequestException`. */
    readonly type: string,
    readonly statusCode: number,
    message: string,
    /** Extra members of the error shape, e.g. `dbConnectionId` of StatementTimeoutException. */
    readonly members: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = type;
  }
}

/** 400: an invalid call (missing member, array parameter, several statements, ...). */
export const badRequest = (message: string): DataApiError => new DataApiError('BadRequestException', 400, message);

/** 404: the transaction id is unknown, committed, rolled back or timed out. */
export const transactionNotFound = (transactionId: string): DataApiError =>
  new DataApiError('TransactionNotFoundException', 404, `Transaction ${transactionId} is not found`);

/** 400: Aurora Serverless is resuming from zero capacity; the statement did not run. */
export const databaseResuming = (): DataApiError =>
  new DataApiError(
    'DatabaseResumingException',
    400,
    'The Aurora DB instance local-emulator is resuming after being auto-paused. Please wait a few seconds and try again.',
  );

/** 503: the Data API itself is unavailable; the statement did not run. */
export const serviceUnavailable = (message = 'The service is currently unavailable. Please try again.'): DataApiError =>
  new DataApiError('ServiceUnavailableError', 503, message);

/** 400: the call timed out (the statement may well have run). */
export const statementTimeout = (): DataApiError =>
  new DataApiError('StatementTimeoutException', 400, 'Request timed out', { dbConnectionId: 0 });

/** 500: anything the emulator did not expect. */
export const internalError = (message = 'An internal error occurred'): DataApiError =>
  new DataApiError('InternalServerErrorException', 500, message);

/**
 * 400: the result has a column of a type the Data API cannot return (e.g. `void`, `regtype`,
 * `"char"`, `oid`) or a multidimensional array. AWS: "There was a problem with the result
 * because of one of the following conditions: It contained an unsupported data type. It
 * contained a multidimensional array. The size was too large." (API reference, UnsupportedResultException)
 */
export const unsupportedResult = (typeName: string): DataApiError =>
  new DataApiError('UnsupportedResultException', 400, `The result contains the unsupported data type ${typeName}.`);

/**
 * A second call on a transaction while one runs. AWS (troubleshooting guide, "DatabaseErrorException:
 * Transaction is still running a query"): the Data API answers at once, without queueing the call.
 */
export const transactionBusy = (): DataApiError =>
  new DataApiError('DatabaseErrorException', 400, 'Transaction is still running a query');

/** 403: the caller's identity is not allowed the operation (IAM), as AWS answers an unauthorised call. */
export const accessDenied = (principal: string, action: string, resource: string): DataApiError =>
  new DataApiError(
    'AccessDeniedException',
    403,
    `User: ${principal} is not authorized to perform: ${action} on resource: ${resource} because no identity-based policy allows the ${action} action`,
  );

/** 403: the request is unsigned, or signed with an access key AWS does not know. */
export const unrecognizedClient = (): DataApiError =>
  new DataApiError('UnrecognizedClientException', 403, 'The security token included in the request is invalid.');

/** 403: the SigV4 signature does not match the request. */
export const invalidSignature = (): DataApiError =>
  new DataApiError(
    'InvalidSignatureException',
    403,
    'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.',
  );

/** 404 for a path the Data API does not have (not a modelled exception: the SDK reports it generically). */
export const unknownOperation = (method: string, path: string): DataApiError =>
  new DataApiError('UnknownOperationException', 404, `No operation at ${method} ${path}`);

interface PgErrorLike {
  readonly message: string;
  readonly code: string;
  /** ERROR for a statement's failure; FATAL when the server refused or ended the connection. */
  readonly severity?: string;
  readonly detail?: string;
  readonly hint?: string;
  readonly position?: string;
}

const isPgError = (error: unknown): error is PgErrorLike => {
  const code: unknown = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && 'severity' in (error as object);
};

/**
 * The message PgJDBC (behind the real Data API) builds from a server error (its
 * ServerErrorMessage: the severity the server sent, the message, detail, hint, position), plus
 * the SQLState. A database that does not exist is refused at connection with
 * `FATAL: database "cargo" does not exist` (SQLState 3D000), which the Data API answers as
 * DatabaseErrorException like any other server error.
 *
 * @example
 * ```ts
 * formatDatabaseError({ message: 'duplicate key value violates unique constraint "box_pkey"', code: '23505', detail: 'Key (box_no)=(X) already exists.' });
 * // 'ERROR: duplicate key value violates unique constraint "box_pkey"\n  Detail: Key (box_no)=(X) already exists.; SQLState: 23505'
 * ```
 */
export const formatDatabaseError = (error: PgErrorLike): string => {
  const lines = [`${error.severity || 'ERROR'}: ${error.message}`];
  if (error.detail) lines.push(`  Detail: ${error.detail}`);
  if (error.hint) lines.push(`  Hint: ${error.hint}`);
  if (error.position) lines.push(`  Position: ${error.position}`);
  return `${lines.join('\n')}; SQLState: ${error.code}`;
};

/** SQLStates and socket errors that mean the engine is unreachable rather than the SQL wrong. */
const CONNECTION_STATES = /^(08...|57P0[1-3]|53300)$/;
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
]);

/** True when an error means the connection to the engine is gone (its transaction with it). */
export const isConnectionError = (error: unknown): boolean => {
  if (!(error instanceof Error)) return false;
  const code = String((error as { code?: unknown }).code ?? '');
  return (
    CONNECTION_STATES.test(code) ||
    SOCKET_CODES.has(code) ||
    /Connection terminated|not queryable|connection.*closed|PGlite is closed/i.test(error.message)
  );
};

/**
 * Maps whatever a backend threw to the exception the Data API would answer: SQL errors become
 * DatabaseErrorException, a lost engine ServiceUnavailableError, anything else
 * InternalServerErrorException.
 */
export const toDataApiError = (error: unknown): DataApiError => {
  if (error instanceof DataApiError) return error;
  if (error instanceof CommitRolledBackError) {
    return new DataApiError('DatabaseErrorException', 400, `${error.message}; SQLState: ${error.code}`);
  }
  if (error instanceof StatementTimeoutError) return statementTimeout();
  if (isConnectionError(error)) return serviceUnavailable(`Communications link failure: ${(error as Error).message}`);
  // The server cancelled the statement at the call timeout (statement_timeout): the call timed out.
  if (isPgError(error) && error.code === '57014' && /statement timeout/.test(error.message)) return statementTimeout();
  if (isPgError(error)) return new DataApiError('DatabaseErrorException', 400, formatDatabaseError(error));
  // Unexpected: say so on stderr, since the client only learns "internal error".
  console.error('[data-api emulator] internal error:', error);
  return internalError();
};
