/**
 * Which RDS Data API operations each function may call: the one source that both the CDK stack
 * (its IAM policies) and the local runtime (its Data API emulator) read, so that a call the
 * stack would deny is denied on a developer's machine too.
 *
 * A function with a grant may also read the database secret (`secretsmanager:GetSecretValue`),
 * without which the Data API cannot connect; a function with none gets neither.
 */

/** An RDS Data API operation a function may be granted. */
export type DataApiAction = 'ExecuteStatement' | 'BatchExecuteStatement' | 'BeginTransaction' | 'CommitTransaction' | 'RollbackTransaction';

export const DATA_API_ACTIONS: readonly DataApiAction[] = ['ExecuteStatement', 'BatchExecuteStatement', 'BeginTransaction', 'CommitTransaction', 'RollbackTransaction'];

/** A request handler runs exactly one statement per request: nothing else. */
const STATEMENT: readonly DataApiAction[] = ['ExecuteStatement'];
/** The migrations run in one transaction. */
const MIGRATION: readonly DataApiAction[] = ['ExecuteStatement', 'BeginTransaction', 'CommitTransaction', 'RollbackTransaction'];

/** By function id: the route table's ids, plus the migration and key-sweep functions. */
const GRANTS: Readonly<Record<string, readonly DataApiAction[]>> = {
  LocationRecord: STATEMENT,
  LocationGet: STATEMENT,
  BoxInfo: STATEMENT,
  BoxSave: STATEMENT,
  BoxSimpleSave: STATEMENT,
  BoxEdit: STATEMENT,
  BoxUndo: STATEMENT,
  BoxHistory: STATEMENT,
  ZongpaiRegister: STATEMENT,
  ZongpaiGet: STATEMENT,
  ZongpaiClose: STATEMENT,
  // The public API description never touches the database.
  OpenApi: [],
  Migrate: MIGRATION,
  IdempotencySweep: STATEMENT,
};

/**
 * The Data API operations of a function; a function without a declared grant fails loudly.
 *
 * @example
 * ```ts
 * dataApiGrants('BoxSave'); // ['ExecuteStatement']
 * dataApiGrants('OpenApi'); // []
 * ```
 */
export const dataApiGrants = (functionId: string): readonly DataApiAction[] => {
  const grants = GRANTS[functionId];
  if (grants === undefined) throw new Error(`${functionId}: no Data API grant is declared for it in infra/grants.ts`);
  return grants;
};
