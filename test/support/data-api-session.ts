import type { SqlBackend } from '../../local/data-api/backend.ts';
import { startDataApiEmulator } from '../../local/data-api/server.ts';
import { loadConfig } from '../../lib/config.ts';
import type { DataApiDb } from '../../lib/db/data-api.ts';
import type { Db } from '../../lib/db/types.ts';
import { createDataApiDb } from '../../lib/db/default.ts';
import { createTestBackend } from './backend.ts';

/** A Data API adapter and what stops it. */
export interface DataApiSession {
  readonly db: DataApiDb;
  readonly close: () => Promise<void>;
}

/**
 * `backend` behind the Data API emulator, reached as the migration function reaches it (the real
 * SDK client, transactions allowed), with the secret `secret`. `close` stops the emulator.
 *
 * @example
 * ```ts
 * const { db, close } = await dataApiSession(await createPostgresBackend({ connectionString }), 'owner');
 * ```
 */
export const dataApiSession = async (backend: SqlBackend, secret = 'master'): Promise<DataApiSession> => {
  const resourceArn = 'arn:aws:rds:local:000000000000:cluster:c';
  const secretArn = `arn:aws:secretsmanager:local:000000000000:secret:${secret}`;
  const emulator = await startDataApiEmulator({
    backend,
    target: { resourceArn, secretArn, database: 'cargo' },
    identities: [
      {
        name: 'Migrate',
        accessKeyId: 'local',
        secretAccessKey: 'local',
        operations: ['ExecuteStatement', 'BeginTransaction', 'CommitTransaction', 'RollbackTransaction'],
      },
    ],
  });
  const db = createDataApiDb(
    loadConfig({ DB_CLUSTER_ARN: resourceArn, DB_SECRET_ARN: secretArn, DATA_API_ENDPOINT: emulator.endpoint }),
    { region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } },
  );
  return {
    db,
    close: async () => {
      db.destroy();
      await emulator.close();
    },
  };
};

/**
 * An empty database of this test project (test/support/backend.ts) in a {@link dataApiSession},
 * for tests that migrate a deployment step by step. `close` also drops the database.
 *
 * @example
 * ```ts
 * const { db, close } = await startMigrationDb();
 * await migrate(db, migrations.filter((m) => m.id < 5));
 * ```
 */
export const startMigrationDb = async (): Promise<DataApiSession> => {
  const test = await createTestBackend();
  const session = await dataApiSession(test.backend);
  return {
    db: session.db,
    close: async () => {
      await session.close();
      await test.drop();
    },
  };
};

/**
 * `db`, with every statement its transactions send written down in `sent`: what a migration
 * sends, one Data API call each.
 */
export const recordingDb = (db: Db, sent: string[]): Db => ({
  query: (sql, params) => db.query(sql, params),
  transaction: (work) =>
    db.transaction((tx) =>
      work({
        query: (sql, params) => {
          sent.push(sql);
          return tx.query(sql, params);
        },
        transaction: () => Promise.reject(new Error('no nested transaction')),
      }),
    ),
});
