import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { SqlBackend } from '../../infra/local/data-api/backend.ts';
import { createPgliteBackend } from '../../infra/local/data-api/pglite-backend.ts';
import { createPostgresBackend } from '../../infra/local/data-api/postgres-backend.ts';

/**
 * The backend of this test project: in-memory PGlite, or a throwaway database on the server
 * named by TEST_DATABASE_URL (created here, dropped by the returned `drop`).
 */
export const createTestBackend = async (): Promise<{ backend: SqlBackend; kind: 'pglite' | 'postgres'; drop: () => Promise<void> }> => {
  if (process.env.TEST_BACKEND !== 'postgres') {
    const backend = await createPgliteBackend();
    return { backend, kind: 'pglite', drop: async () => undefined };
  }
  const url = process.env.TEST_DATABASE_URL;
  if (url === undefined || url === '') throw new Error('TEST_BACKEND=postgres needs TEST_DATABASE_URL');
  const name = `cargo_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const backend = await createPostgresBackend({ connectionString: target.toString(), maxConnections: 20 });
  return {
    backend,
    kind: 'postgres',
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
};
