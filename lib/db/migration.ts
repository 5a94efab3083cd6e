/**
 * A step of a migration: one SQL statement, or a query whose rows (`statement`) are the
 * statements to run, each as a call of its own. The second is for work that depends on what the
 * database holds, such as an index built a partition at a time: the Data API cancels any one
 * statement after 45 seconds, so one statement over every partition of a year's history would
 * fail the deploy where one per partition stays within it.
 */
export type MigrationStep = string | { readonly statementsFrom: string };

/** A numbered schema change: steps run in order, in one transaction, exactly once. */
export interface Migration {
  readonly id: number;
  readonly name: string;
  /** The Data API runs one statement per call. */
  readonly statements: readonly MigrationStep[];
}
