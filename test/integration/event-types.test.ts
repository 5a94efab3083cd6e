import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataApiDb } from '../../lib/db/data-api.ts';
import { migrate } from '../../lib/db/migrate.ts';
import { migrations } from '../../lib/db/migrations/index.ts';
import { EVENT_TYPES } from '../../lib/events/write.ts';
import { startMigrationDb } from '../support/data-api-session.ts';

/** The outbox's CHECK is the migrations' own list; the statements announce the SPEC's. */
let db: DataApiDb;
let close: () => Promise<void> = async () => undefined;

beforeAll(async () => {
  ({ db, close } = await startMigrationDb());
  await migrate(db, migrations);
});
afterAll(async () => close());

describe('the event outbox', () => {
  it('admits every event type the write statements announce, and no other', async () => {
    const { rows } = await db.query<{ definition: string }>(
      `SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint
       WHERE conrelid = 'cargo.event'::regclass AND conname = 'event_type_check'`,
    );
    const admitted = [...(rows[0]?.definition ?? '').matchAll(/'([a-z_.]+)'/g)].map((m) => m[1]);
    expect(admitted.sort()).toEqual([...EVENT_TYPES].sort());
  });
});
