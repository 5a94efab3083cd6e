import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { BeginTransactionCommand } from '@aws-sdk/client-rds-data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgliteBackend } from '../../../local/data-api/pglite-backend.ts';
import { createPostgresBackend } from '../../../local/data-api/postgres-backend.ts';
import { renameDatabase } from '../../support/throwaway-database.ts';
import { ARNS, failure, startFixture } from './harness.ts';
import type { Fixture } from './harness.ts';

describe('PGlite backend', () => {
  it('keeps data in dataDir across restarts', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'data-api-'));
    try {
      const first = await createPgliteBackend({ dataDir });
      await first.query('CREATE TABLE kept (n int8)');
      await first.query('INSERT INTO kept VALUES ($1::int8)', ['7']);
      await first.close();
      const second = await createPgliteBackend({ dataDir });
      expect((await second.query('SELECT n FROM kept')).rows).toEqual([['7']]);
      await second.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL backend', () => {
  let fx: Fixture;
  const terminateOthers = async () => {
    const database = (await fx.exec('SELECT current_database()::text')).records?.[0]?.[0]?.stringValue;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [database],
    );
    await admin.end();
  };

  beforeAll(async () => {
    fx = await startFixture('postgres');
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('answers ServiceUnavailableError when a transaction loses its connection, then forgets it', async () => {
    const id = (await fx.client.send(new BeginTransactionCommand(ARNS))).transactionId ?? '';
    await terminateOthers();
    expect((await failure(fx.exec('SELECT 1', [], { transactionId: id }))).name).toBe('ServiceUnavailableError');
    expect((await failure(fx.exec('SELECT 1', [], { transactionId: id }))).name).toBe('TransactionNotFoundException');
  });

  it('recovers from killed connections on the next calls', async () => {
    await terminateOthers();
    await fx.exec('SELECT 1').catch((error: Error) => expect(error.name).toBe('ServiceUnavailableError'));
    expect((await fx.exec('SELECT 1 AS one')).records).toEqual([[{ longValue: 1 }]]);
  });

  it('answers DatabaseErrorException with the FATAL 3D000 while its database is missing, then serves again', async () => {
    const database = String((await fx.exec('SELECT current_database()::text')).records?.[0]?.[0]?.stringValue);
    await renameDatabase(database, `${database}_gone`);
    try {
      const error = await failure(fx.exec('SELECT 1'));
      expect(error.name).toBe('DatabaseErrorException');
      expect(error.$metadata?.httpStatusCode).toBe(400);
      // As PgJDBC prints a server error, with the severity the server sent (the connection was refused).
      expect(error.message).toBe(`FATAL: database "${database}" does not exist; SQLState: 3D000`);
    } finally {
      await renameDatabase(`${database}_gone`, database);
    }
    expect((await fx.exec('SELECT 1 AS one')).records).toEqual([[{ longValue: 1 }]]);
  });

  it('fails to start with an unreachable server', async () => {
    await expect(createPostgresBackend({ connectionString: 'postgres://postgres@127.0.0.1:1/none' })).rejects.toThrow();
  });
});
