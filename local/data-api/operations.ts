import { StatementTimeoutError } from './backend.ts';
import type { TextResult, SqlBackend, SqlSession } from './backend.ts';
import { toFormattedRecords, toRecords } from './fields.ts';
import type { WireValue } from './fields.ts';
import { unsupportedResult } from './errors.ts';
import { columnMetadata } from './metadata.ts';
import type { WireColumnMetadata } from './metadata.ts';
import type { TypeCatalog } from './pg-types.ts';
import type { BatchRequest, ExecuteRequest } from './requests.ts';
import { toPositional } from './sql-params.ts';
import type { TransactionRegistry } from './transactions.ts';

/** What the operations share: the engine, the open transactions, the type cache. */
export interface OperationContext {
  readonly backend: SqlBackend;
  readonly transactions: TransactionRegistry;
  readonly types: TypeCatalog;
  /** How long a call may run before it is answered StatementTimeoutException (45 s on AWS). */
  readonly callTimeoutMs: number;
}

export interface ExecuteResponse {
  numberOfRecordsUpdated: number;
  generatedFields: [];
  records?: WireValue[][];
  columnMetadata?: WireColumnMetadata[];
  formattedRecords?: string;
}

/** Commands whose tag counts changed rows; a SELECT's count is of rows returned, reported as 0. */
const ROW_COUNT_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE', 'COPY']);

/**
 * Runs `fn` in the call's transaction (signed in as whoever began it), or alone on a connection
 * in autocommit mode as `user`.
 */
const inSession = <T>(
  context: OperationContext,
  transactionId: string | undefined,
  user: string | undefined,
  fn: (s: SqlSession) => Promise<T>,
): Promise<T> =>
  transactionId === undefined ? context.backend.withSession(fn, user) : context.transactions.use(transactionId, fn);

const shapeResult = async (
  context: OperationContext,
  session: SqlSession,
  request: ExecuteRequest,
  result: TextResult,
): Promise<ExecuteResponse> => {
  const response: ExecuteResponse = {
    numberOfRecordsUpdated: ROW_COUNT_COMMANDS.has(result.command) ? (result.rowCount ?? 0) : 0,
    generatedFields: [],
  };
  if (result.fields.length === 0) return response;
  const types = await context.types.resolve(
    session,
    result.fields.map((field) => field.dataTypeID),
  );
  const unsupported = types.find((type) => !type.supported);
  if (unsupported !== undefined)
    throw unsupportedResult(unsupported.name.replace(/^_/, '') + (unsupported.kind === 'array' ? '[]' : ''));
  if (request.formatRecordsAs === 'JSON') {
    // AWS: with the JSON format, records and columnMetadata are both absent.
    const labels = result.fields.map((field) => field.name);
    response.formattedRecords = toFormattedRecords(labels, result.rows, types, request.resultSetOptions);
    return response;
  }
  response.records = toRecords(result.rows, types, request.resultSetOptions);
  if (request.includeResultMetadata) response.columnMetadata = await columnMetadata(session, result.fields, types);
  return response;
};

/**
 * ExecuteStatement: one statement, named parameters, in a transaction or autocommitted, as the
 * database user of the call's secret (undefined: the master), cancelled at `deadline` (the
 * call's timeout; `Infinity` when the call asked `continueAfterTimeout`).
 *
 * @example
 * ```ts
 * await executeStatement(context, parseExecute({ resourceArn, secretArn, sql: 'SELECT 1 AS one' }), undefined, Date.now() + 45_000);
 * // { numberOfRecordsUpdated: 0, generatedFields: [], records: [[{ longValue: 1 }]] }
 * ```
 */
export const executeStatement = async (
  context: OperationContext,
  request: ExecuteRequest,
  user: string | undefined,
  deadline: number,
): Promise<ExecuteResponse> => {
  const statement = toPositional(request.sql, request.parameters);
  return inSession(context, request.transactionId, user, async (session) =>
    shapeResult(context, session, request, await session.query(statement.text, statement.values, { deadline })),
  );
};

/**
 * BatchExecuteStatement: the statement once per parameter set (once when there is none),
 * all or nothing: outside a transaction the batch gets one of its own, which is rolled back
 * when the call's `deadline` passes before it commits.
 */
export const batchExecuteStatement = async (
  context: OperationContext,
  request: BatchRequest,
  user: string | undefined,
  deadline: number,
): Promise<{ updateResults: { generatedFields: [] }[] }> => {
  const sets = request.parameterSets.length === 0 ? [[]] : request.parameterSets;
  const statements = sets.map((parameters) => toPositional(request.sql, parameters));
  const runAll = async (session: SqlSession) => {
    for (const statement of statements) await session.query(statement.text, statement.values, { deadline });
  };
  if (request.transactionId !== undefined) await context.transactions.use(request.transactionId, runAll);
  else {
    const tx = await context.backend.begin(user);
    try {
      await runAll(tx);
      if (Date.now() >= deadline) throw new StatementTimeoutError();
    } catch (error) {
      await tx.rollback().catch(() => undefined);
      throw error;
    }
    await tx.commit();
  }
  return { updateResults: request.parameterSets.map(() => ({ generatedFields: [] })) };
};

export const beginTransaction = async (
  context: OperationContext,
  user?: string,
): Promise<{ transactionId: string }> => ({
  transactionId: context.transactions.add(await context.backend.begin(user)),
});

/** Ends a transaction `how`, answering the status the Data API reports for it. */
const endTransaction =
  (how: 'commit' | 'rollback', transactionStatus: string) =>
  async (context: OperationContext, transactionId: string): Promise<{ transactionStatus: string }> => {
    await context.transactions.end(transactionId, how);
    return { transactionStatus };
  };

export const commitTransaction = endTransaction('commit', 'Transaction Committed');

export const rollbackTransaction = endTransaction('rollback', 'Rollback Complete');
