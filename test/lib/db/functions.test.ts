import { loadModule, parsePlPgSQLSync, parseSync } from 'libpg-query';
import { describe, expect, it } from 'vitest';
import { databaseFunctions } from '../../../lib/db/sql-functions/index.ts';
import { migrations } from '../../../lib/db/migrations/index.ts';

await loadModule();

/** The migrations whose statements define the function `name` (qualified). */
const definedBy = (name: string) =>
  migrations
    .filter((m) => m.statements.some((step) => typeof step === 'string' && step.includes(`FUNCTION ${name}(`)))
    .map((m) => m.id);

describe('the functions defined in their current form (lib/db/sql-functions)', () => {
  it.each(databaseFunctions.map((fn) => [fn.name, fn] as const))(
    '%s is one CREATE OR REPLACE FUNCTION that PostgreSQL parses, body and all',
    (name, fn) => {
      expect(fn.sql.startsWith(`CREATE OR REPLACE FUNCTION ${name}(`)).toBe(true);
      const { stmts } = parseSync(fn.sql) as { stmts: { stmt: Record<string, unknown> }[] };
      expect(stmts.map((s) => Object.keys(s.stmt))).toEqual([['CreateFunctionStmt']]);
      expect(() => parsePlPgSQLSync(fn.sql)).not.toThrow();
    },
  );

  it.each(databaseFunctions.map((fn) => [fn.name, fn] as const))(
    '%s is defined here alone, in no migration, and comes after a migration there is',
    (name, fn) => {
      expect(definedBy(name)).toEqual([]);
      expect(migrations.some((m) => m.id === fn.after)).toBe(true);
    },
  );

  it('names each function once', () => {
    const names = databaseFunctions.map((fn) => fn.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
