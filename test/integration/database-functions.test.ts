import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataApiDb } from '../../lib/db/data-api.ts';
import { databaseFunctions, type DatabaseFunction } from '../../lib/db/sql-functions/index.ts';
import { voidCurrent } from '../../lib/db/sql-functions/void-current.ts';
import { functionHash, migrate } from '../../lib/db/migrate.ts';
import { migrations } from '../../lib/db/migrations/index.ts';
import { recordingDb, startMigrationDb } from '../support/data-api-session.ts';

/**
 * The functions defined in their current form (lib/db/sql-functions/): the migrator applies them after
 * the migrations, once, and again only when their text changes.
 */
let db: DataApiDb;
let close: () => Promise<void> = async () => undefined;

beforeAll(async () => {
  ({ db, close } = await startMigrationDb());
});
afterAll(async () => close());

/** The body (between `$fn$`) a function's definition gives it. */
const bodyOf = (fn: DatabaseFunction): string => fn.sql.split('$fn$')[1] ?? '';

/** The body the database holds for the function `name`. */
const heldBody = async (name: string): Promise<string | undefined> =>
  (
    await db.query<{ body: string }>('SELECT p.prosrc AS body FROM pg_proc p WHERE p.oid = CAST(:name AS regproc)', {
      name,
    })
  ).rows[0]?.body;

const recorded = async () =>
  (await db.query<{ name: string; sha256: string }>('SELECT name, sha256 FROM cargo.schema_function ORDER BY name'))
    .rows;

const sentOf = (sent: readonly string[], fn: DatabaseFunction) => sent.filter((sql) => sql === fn.sql).length;

/** A function's definition with a changed body. */
const changed = (fn: DatabaseFunction, note: string): DatabaseFunction => ({
  ...fn,
  sql: fn.sql.replace('BEGIN\n', `BEGIN\n  -- ${note}\n`),
});

describe('the functions in their current form', () => {
  it('end a fresh database migrated from the first migration, each applied once after the migrations', async () => {
    const sent: string[] = [];
    expect(await migrate(recordingDb(db, sent), migrations)).toEqual(migrations.map((m) => m.id));
    for (const fn of databaseFunctions) {
      expect(await heldBody(fn.name), fn.name).toBe(bodyOf(fn));
      expect(sentOf(sent, fn), fn.name).toBe(1);
      // after every migration's statements
      expect(sent.indexOf(fn.sql)).toBeGreaterThan(
        sent.lastIndexOf('INSERT INTO cargo.schema_migration (id, name) VALUES (:id, :name)'),
      );
    }
    expect(await recorded()).toEqual(
      databaseFunctions
        .map((fn) => ({ name: fn.name, sha256: functionHash(fn) }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    );
  });

  it('leaves an unchanged function alone', async () => {
    const sent: string[] = [];
    expect(await migrate(recordingDb(db, sent), migrations)).toEqual([]);
    for (const fn of databaseFunctions) expect(sentOf(sent, fn), fn.name).toBe(0);
    expect(sent.some((sql) => /CREATE (OR REPLACE )?FUNCTION/.test(sql))).toBe(false);
  });

  it('applies a changed function once, and only that one', async () => {
    const edited = changed(voidCurrent, 'a change of its text');
    const functions = databaseFunctions.map((fn) => (fn === voidCurrent ? edited : fn));
    const first: string[] = [];
    expect(await migrate(recordingDb(db, first), migrations, functions)).toEqual([]);
    expect(sentOf(first, edited)).toBe(1);
    for (const fn of databaseFunctions) expect(sentOf(first, fn), fn.name).toBe(0);
    expect(await heldBody(voidCurrent.name)).toBe(bodyOf(edited));
    expect((await recorded()).find((r) => r.name === voidCurrent.name)?.sha256).toBe(functionHash(edited));

    const again: string[] = [];
    await migrate(recordingDb(db, again), migrations, functions);
    expect(sentOf(again, edited)).toBe(0);

    // The current form again, as the next deployment would bring it back.
    const back: string[] = [];
    await migrate(recordingDb(db, back), migrations);
    expect(sentOf(back, voidCurrent)).toBe(1);
    expect(await heldBody(voidCurrent.name)).toBe(bodyOf(voidCurrent));
  });

  it('keeps a changed function unapplied when its statement fails, with everything else of the run', async () => {
    const broken: DatabaseFunction = { ...voidCurrent, sql: voidCurrent.sql.replace('RETURN', 'RETURN RETURN') };
    const functions = databaseFunctions.map((fn) => (fn === voidCurrent ? broken : fn));
    await expect(migrate(db, migrations, functions)).rejects.toThrow();
    expect(await heldBody(voidCurrent.name)).toBe(bodyOf(voidCurrent));
    expect((await recorded()).find((r) => r.name === voidCurrent.name)?.sha256).toBe(functionHash(voidCurrent));
  });
});
