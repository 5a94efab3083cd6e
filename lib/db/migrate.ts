import { createHash } from 'node:crypto';
import { databaseFunctions, type DatabaseFunction } from './sql-functions/index.ts';
import type { Migration, MigrationStep } from './migration.ts';
import type { Db } from './types.ts';

export type { Migration, MigrationStep } from './migration.ts';

/**
 * The statements of one step, in order: the step itself, or what its query answers. `query` runs
 * that query on the connection the statements will run on (the migrations' transaction here, the
 * benchmark's own client in bench/sql/year.ts).
 *
 * @example
 * ```ts
 * for (const sql of await stepStatements(step, (q) => tx.query(q))) await tx.query(sql);
 * ```
 */
export const stepStatements = async (
  step: MigrationStep,
  query: (sql: string) => Promise<{ rows: readonly { statement: string }[] }>,
): Promise<readonly string[]> =>
  typeof step === 'string' ? [step] : (await query(step.statementsFrom)).rows.map((r) => r.statement);

/** Any constant works; it only has to be the same in every process that migrates this database. */
const MIGRATION_LOCK = 7_340_214_901;

/** The hash under which `cargo.schema_function` keeps a function's text. */
export const functionHash = (fn: DatabaseFunction): string => createHash('sha256').update(fn.sql).digest('hex');

/**
 * Applies each function (lib/db/sql-functions/) whose text is not the one last applied, once the
 * migration it comes after is applied (`migrated`), and records its hash: an unchanged function is
 * left alone.
 */
const applyFunctions = async (
  tx: Db,
  functions: readonly DatabaseFunction[],
  migrated: ReadonlySet<number>,
): Promise<void> => {
  const { rows } = await tx.query<{ name: string; sha256: string }>('SELECT name, sha256 FROM cargo.schema_function');
  const recorded = new Map(rows.map((r) => [r.name, r.sha256]));
  for (const fn of functions) {
    const sha256 = functionHash(fn);
    if (!migrated.has(fn.after) || recorded.get(fn.name) === sha256) continue;
    await tx.query(fn.sql);
    await tx.query(
      `INSERT INTO cargo.schema_function (name, sha256) VALUES (:name, :sha256)
       ON CONFLICT (name) DO UPDATE SET sha256 = EXCLUDED.sha256, applied_at = now()`,
      { name: fn.name, sha256 },
    );
  }
};

/**
 * Applies the pending migrations through the Data API, then every function whose current form
 * (lib/db/sql-functions/) differs from the one last applied, all in one transaction that first takes
 * a transaction-scoped advisory lock: a second process starting at the same moment waits, then
 * finds nothing left to do. A failing migration rolls everything back and throws. Answers the
 * migrations applied.
 *
 * @example
 * ```ts
 * const applied = await migrate(db, migrations); // e.g. [1, 2] on an empty database, [] after
 * ```
 */
export const migrate = async (
  db: Db,
  migrations: readonly Migration[],
  functions: readonly DatabaseFunction[] = databaseFunctions,
): Promise<number[]> =>
  db.transaction(async (tx) => {
    // From FROM, not the select list: pg_advisory_xact_lock returns `void`, a type the Data API refuses to return.
    await tx.query('SELECT true AS locked FROM pg_advisory_xact_lock(:lock)', { lock: MIGRATION_LOCK });
    await tx.query('CREATE SCHEMA IF NOT EXISTS cargo');
    await tx.query(`CREATE TABLE IF NOT EXISTS cargo.schema_migration (
                      id         integer     PRIMARY KEY,
                      name       text        NOT NULL,
                      applied_at timestamptz NOT NULL DEFAULT now()
                    )`);
    await tx.query(`CREATE TABLE IF NOT EXISTS cargo.schema_function (
                      name       text        PRIMARY KEY,
                      sha256     text        NOT NULL,
                      applied_at timestamptz NOT NULL DEFAULT now()
                    )`);
    const { rows } = await tx.query<{ id: number }>('SELECT id FROM cargo.schema_migration');
    const done = new Set(rows.map((r) => r.id));
    const applied: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.id - b.id)) {
      if (done.has(migration.id)) continue;
      for (const step of migration.statements)
        for (const statement of await stepStatements(step, (sql) => tx.query<{ statement: string }>(sql)))
          await tx.query(statement);
      await tx.query('INSERT INTO cargo.schema_migration (id, name) VALUES (:id, :name)', {
        id: migration.id,
        name: migration.name,
      });
      applied.push(migration.id);
      done.add(migration.id);
    }
    await applyFunctions(tx, functions, done);
    return applied;
  });
