import { readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { ExecuteStatementCommand, RDSDataClient } from '@aws-sdk/client-rds-data';
import type { ExecuteStatementCommandOutput, SqlParameter } from '@aws-sdk/client-rds-data';
import type { SqlBackend } from '../../../../infra/local/data-api/backend.ts';
import { createPgliteBackend } from '../../../../infra/local/data-api/pglite-backend.ts';
import { createPostgresBackend } from '../../../../infra/local/data-api/postgres-backend.ts';
import { startDataApiEmulator } from '../../../../infra/local/data-api/server.ts';
import { throwawayDatabase } from '../../../support/throwaway-database.ts';
import type { DataApiEmulator, DataApiEmulatorOptions } from '../../../../infra/local/data-api/server.ts';

/** The engines every emulator test runs on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const BACKENDS: readonly ('pglite' | 'postgres')[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export const ARNS = {
  resourceArn: 'arn:aws:rds:us-east-1:123456789012:cluster:local',
  secretArn: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:local',
  database: 'cargo',
} as const;

export interface Fixture {
  readonly emulator: DataApiEmulator;
  readonly client: RDSDataClient;
  /** ExecuteStatement with the ARNs filled in. */
  exec(sql: string, parameters?: SqlParameter[], extra?: Partial<ConstructorParameters<typeof ExecuteStatementCommand>[0]>): Promise<ExecuteStatementCommandOutput>;
  close(): Promise<void>;
}

const pglitePackage = new URL('../package.json', import.meta.resolve('@electric-sql/pglite'));
const pgliteVersion = (JSON.parse(await readFile(pglitePackage, 'utf8')) as { version: string }).version;
const TEMPLATE = join(tmpdir(), `data-api-emulator-pglite-${pgliteVersion}.tar`);

/**
 * A freshly initialised PGlite data directory, shared by the test processes through a file in
 * the temp directory: loading it takes a fraction of a second where initdb takes seconds.
 */
const pgliteTemplate = async (): Promise<Blob> => {
  try {
    return new Blob([await readFile(TEMPLATE)]);
  } catch {
    const db = await PGlite.create();
    const dump = await db.dumpDataDir('none');
    await db.close();
    const partial = `${TEMPLATE}.${process.pid}`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, TEMPLATE); // atomic: a concurrent reader sees no file or a whole one
    return dump;
  }
};

export const createBackend = async (kind: 'pglite' | 'postgres'): Promise<{ backend: SqlBackend; drop: () => Promise<void> }> => {
  if (kind === 'pglite') return { backend: await createPgliteBackend({ loadDataDir: await pgliteTemplate() }), drop: async () => undefined };
  const database = await throwawayDatabase();
  return { backend: await createPostgresBackend({ connectionString: database.url }), drop: database.drop };
};

export const clientFor = (endpoint: string): RDSDataClient =>
  new RDSDataClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });

/** An emulator on a fresh database of `kind`, and a real RDSDataClient pointed at it. */
export const startFixture = async (kind: 'pglite' | 'postgres', options: Partial<DataApiEmulatorOptions> = {}): Promise<Fixture> => {
  const { backend, drop } = await createBackend(kind);
  const emulator = await startDataApiEmulator({ ...options, backend });
  const client = clientFor(emulator.endpoint);
  return {
    emulator,
    client,
    exec: (sql, parameters, extra = {}) => client.send(new ExecuteStatementCommand({ ...ARNS, sql, parameters, ...extra })),
    close: async () => {
      try {
        client.destroy();
        await emulator.close();
      } finally {
        await drop(); // FORCE: even when closing failed, no throwaway database is left behind
      }
    },
  };
};

/** The error a promise rejects with (fails the test when it resolves). */
export const failure = async (promise: Promise<unknown>): Promise<Error & { $metadata?: { httpStatusCode?: number } }> => {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
};
