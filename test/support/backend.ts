import type { SqlBackend } from '../../infra/local/data-api/backend.ts';
import { createPgliteBackend } from '../../infra/local/data-api/pglite-backend.ts';
import { createPostgresBackend } from '../../infra/local/data-api/postgres-backend.ts';
import { throwawayDatabase } from './throwaway-database.ts';

/**
 * The backend of this test project: in-memory PGlite, or a throwaway database on the server
 * named by TEST_DATABASE_URL (created here, dropped by the returned `drop`).
 */
export const createTestBackend = async (): Promise<{
  backend: SqlBackend;
  kind: 'pglite' | 'postgres';
  drop: () => Promise<void>;
}> => {
  if (process.env.TEST_BACKEND !== 'postgres') {
    const backend = await createPgliteBackend();
    return { backend, kind: 'pglite', drop: async () => undefined };
  }
  const { url, drop } = await throwawayDatabase();
  const backend = await createPostgresBackend({ connectionString: url, maxConnections: 20 });
  return { backend, kind: 'postgres', drop };
};
