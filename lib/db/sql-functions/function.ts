/**
 * A function of the database in its current form, one file each in lib/db/sql-functions/: what it does
 * today is read there, not pieced together from the migrations that defined it before. The migrator
 * applies it after the migrations, and again whenever its text changes (a hash of the text is kept
 * in `cargo.schema_function`, lib/db/migrate.ts). A change is made in its file; a migration that
 * needs the new form as well (a table it reads) raises `after` to its own number.
 */
export interface DatabaseFunction {
  /** Its schema-qualified name, under which `cargo.schema_function` keeps its text's hash. */
  readonly name: string;
  /**
   * The migration this form is applied after: the last migration that defines the function
   * (released migrations stay as they are, so a new database runs them in order and the older
   * forms they define are then replaced by this one), or a later one whose objects this form needs.
   * No migration after it defines the function.
   */
  readonly after: number;
  /** One `CREATE OR REPLACE FUNCTION` statement. */
  readonly sql: string;
}
