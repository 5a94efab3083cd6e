import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataApiDb } from '../../lib/db/data-api.ts';
import { migrate } from '../../lib/db/migrate.ts';
import { migrations } from '../../lib/db/migrations/index.ts';
import { startMigrationDb } from '../support/data-api-session.ts';

/**
 * Migration 025 on a deployment that got `cargo.record_scans`, the function that held the scans'
 * checks for a while: the function and its record among the functions are gone, the rest is left.
 */
let db: DataApiDb;
let close: () => Promise<void> = async () => undefined;

beforeAll(async () => {
  ({ db, close } = await startMigrationDb());
});
afterAll(async () => close());

const SIGNATURE = 'cargo.record_scans(json, text, boolean, text[], boolean, text)';

const held = async () =>
  (
    await db.query<{ held: boolean }>('SELECT to_regprocedure(:signature) IS NOT NULL AS held', {
      signature: SIGNATURE,
    })
  ).rows[0]?.held;

const recordedNames = async () =>
  (await db.query<{ name: string }>('SELECT name FROM cargo.schema_function ORDER BY name')).rows.map((r) => r.name);

describe('migration 025: the scans checked by the route statement again', () => {
  it('drops cargo.record_scans and its record, and keeps every other function', async () => {
    await migrate(
      db,
      migrations.filter((m) => m.id < 25),
    );
    const before = await recordedNames();
    // As a deployment that ran it has it: the function (its body aside) and the hash the migrator kept.
    await db.query(`CREATE FUNCTION cargo.record_scans(p_scans json, p_recorded_by text, p_registered_only boolean,
                      p_erp_codes text[], p_proceed boolean, p_idempotency_key text)
                    RETURNS integer LANGUAGE sql AS $$ SELECT 1 $$`);
    await db.query("INSERT INTO cargo.schema_function (name, sha256) VALUES ('cargo.record_scans', 'f00d')");
    expect(await held()).toBe(true);

    expect(await migrate(db, migrations)).toEqual([25]);
    expect(await held()).toBe(false);
    expect(await recordedNames()).toEqual(before);
  });

  it('is applied once: the next deployment finds nothing to do', async () => {
    const before = await recordedNames();
    expect(await migrate(db, migrations)).toEqual([]);
    expect(await held()).toBe(false);
    expect(await recordedNames()).toEqual(before);
  });
});
