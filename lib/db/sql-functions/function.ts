/**
 * A function of the database in its current form, one file each in lib/db/sql-functions/: what it does
 * today is read there and nowhere else, for no migration defines it. The migrator applies it after
 * the migrations, and again whenever its text changes (a hash of the text is kept in
 * `cargo.schema_function`, lib/db/migrate.ts). A change is made in its file; the migration that
 * needs the new form (a table it reads, a change it brings) raises `after` to its own number. A
 * function a migration creates and no later change touches may stay in that migration.
 */
export interface DatabaseFunction {
  /** Its schema-qualified name, under which `cargo.schema_function` keeps its text's hash. */
  readonly name: string;
  /**
   * The migration this form is applied after: the one that brought its latest change, or a later
   * one whose objects it needs. A migration that only brought a change of a function keeps its
   * number and holds no statement: the form it brought is this one, or an earlier one of it.
   */
  readonly after: number;
  /** One `CREATE OR REPLACE FUNCTION` statement. */
  readonly sql: string;
}
