import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataApiDb } from '../../../lib/db/data-api.ts';
import { migrate } from '../../../lib/db/migrate.ts';
import { migrations } from '../../../lib/db/migrations/index.ts';
import { ARNS, BACKENDS, startFixture } from './harness.ts';
import type { Fixture } from './harness.ts';

describe.each(BACKENDS)('migrations through the Data API emulator on %s', (kind) => {
  let fx: Fixture;
  let db: DataApiDb;
  beforeAll(async () => {
    fx = await startFixture(kind);
    db = new DataApiDb({ client: fx.client, ...ARNS, retryBudgetMs: 1_000 });
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('applies every migration on the first deploy, selecting only types the Data API can return', async () => {
    expect(await migrate(db, migrations)).toEqual(migrations.map((m) => m.id).sort((a, b) => a - b));
  });

  it('applies nothing on the next deploy', async () => {
    expect(await migrate(db, migrations)).toEqual([]);
  });
});
