/**
 * Validation of request bodies, member by member, with the Data API's own wording: the SDK
 * sends whatever it is given, so the emulator is where a missing `sql` or a misspelt
 * `formatRecordsAs` must fail, as it fails in AWS.
 */

import { badRequest } from './errors.ts';
import { DEFAULT_RESULT_SET_OPTIONS } from './fields.ts';
import type { ResultSetOptions } from './fields.ts';
import type { WireParameter } from './sql-params.ts';

/** A request body as JSON parsed it. */
export type Body = Readonly<Record<string, unknown>>;

const invalid = (member: string, constraint: string) =>
  badRequest(`1 validation error detected: Value at '${member}' failed to satisfy constraint: ${constraint}`);

const requiredString = (body: Body, member: string): string => {
  const value = body[member];
  if (value === undefined || value === null) throw invalid(member, 'Member must not be null');
  if (typeof value !== 'string') throw invalid(member, 'Member must be a string');
  return value;
};

const optionalString = (body: Body, member: string): string | undefined =>
  body[member] === undefined || body[member] === null ? undefined : requiredString(body, member);

/**
 * The longest value the Data API's model admits for a member (ExecuteStatement's API reference:
 * sql 65 536 characters, database 64, transactionId 192): a longer one is refused before anything runs.
 */
const MAX_LENGTH: Readonly<Record<string, number>> = { sql: 65_536, database: 64, transactionId: 192 };

/** `value` once its length is within {@link MAX_LENGTH} for `member`. */
const withinLength = <T extends string | undefined>(member: string, value: T): T => {
  const max = MAX_LENGTH[member];
  if (value !== undefined && max !== undefined && value.length > max)
    throw invalid(member, `Member must have length less than or equal to ${max}`);
  return value;
};

const optionalBoolean = (body: Body, member: string): boolean => {
  const value = body[member];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw invalid(member, 'Member must be a boolean');
  return value;
};

const oneOf = <T extends string>(value: string | undefined, member: string, allowed: readonly T[], fallback: T): T => {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value))
    throw invalid(member, `Member must satisfy enum value set: [${allowed.join(', ')}]`);
  return value as T;
};

const parameterList = (value: unknown, member: string): WireParameter[] => {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((p) => typeof p !== 'object' || p === null))
    throw invalid(member, 'Member must be a list of SqlParameter');
  return value as WireParameter[];
};

/** The cluster, its secret and the database a call names; `database` may be left out (the secret's default). */
export interface RequestTarget {
  readonly resourceArn: string;
  readonly secretArn: string;
  readonly database: string | undefined;
}

const target = (body: Body): RequestTarget => ({
  resourceArn: requiredString(body, 'resourceArn'),
  secretArn: requiredString(body, 'secretArn'),
  database: withinLength('database', optionalString(body, 'database')),
});

const nonEmptySql = (body: Body): string => {
  const sql = withinLength('sql', requiredString(body, 'sql'));
  if (sql.trim() === '') throw badRequest('SQL statement is empty');
  return sql;
};

export interface ExecuteRequest {
  readonly target: RequestTarget;
  readonly sql: string;
  readonly parameters: readonly WireParameter[];
  readonly transactionId: string | undefined;
  readonly includeResultMetadata: boolean;
  readonly formatRecordsAs: 'NONE' | 'JSON';
  readonly resultSetOptions: ResultSetOptions;
  /** Let the statement run on after the call times out (it is cancelled otherwise). */
  readonly continueAfterTimeout: boolean;
}

const resultSetOptions = (value: unknown): ResultSetOptions => {
  if (value === undefined || value === null) return DEFAULT_RESULT_SET_OPTIONS;
  if (typeof value !== 'object') throw invalid('resultSetOptions', 'Member must be a ResultSetOptions');
  const options = value as Body;
  return {
    decimalReturnType: oneOf(
      optionalString(options, 'decimalReturnType'),
      'resultSetOptions.decimalReturnType',
      ['STRING', 'DOUBLE_OR_LONG'],
      'STRING',
    ),
    longReturnType: oneOf(
      optionalString(options, 'longReturnType'),
      'resultSetOptions.longReturnType',
      ['LONG', 'STRING'],
      'LONG',
    ),
  };
};

/** An ExecuteStatement body. */
export const parseExecute = (body: Body): ExecuteRequest => {
  return {
    target: target(body),
    sql: nonEmptySql(body),
    parameters: parameterList(body.parameters, 'parameters'),
    transactionId: withinLength('transactionId', optionalString(body, 'transactionId')),
    includeResultMetadata: optionalBoolean(body, 'includeResultMetadata'),
    formatRecordsAs: oneOf(optionalString(body, 'formatRecordsAs'), 'formatRecordsAs', ['NONE', 'JSON'], 'NONE'),
    resultSetOptions: resultSetOptions(body.resultSetOptions),
    continueAfterTimeout: optionalBoolean(body, 'continueAfterTimeout'),
  };
};

export interface BatchRequest {
  readonly target: RequestTarget;
  readonly sql: string;
  readonly parameterSets: readonly (readonly WireParameter[])[];
  readonly transactionId: string | undefined;
}

/** A BatchExecuteStatement body. */
export const parseBatch = (body: Body): BatchRequest => {
  const sets = body.parameterSets ?? [];
  if (!Array.isArray(sets)) throw invalid('parameterSets', 'Member must be a list of parameter lists');
  return {
    target: target(body),
    sql: nonEmptySql(body),
    parameterSets: sets.map((set, index) => parameterList(set, `parameterSets.${index + 1}`)),
    transactionId: withinLength('transactionId', optionalString(body, 'transactionId')),
  };
};

/** A BeginTransaction body. */
export const parseBegin = (body: Body): { readonly target: RequestTarget } => ({ target: target(body) });

/** A CommitTransaction or RollbackTransaction body: the transaction id. */
export const parseEnd = (body: Body): { readonly target: RequestTarget; readonly transactionId: string } => ({
  target: target(body),
  transactionId: withinLength('transactionId', requiredString(body, 'transactionId')),
});
