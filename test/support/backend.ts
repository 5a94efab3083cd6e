import type { SqlBackend } from '../../local/data-api/backend.ts';
import { createPgliteBackend } from '../../local/data-api/pglite-backend.ts';
import { createPostgresBackend } from '../../local/data-api/postgres-backend.ts';
import { pgliteTemplate, serviceTemplate } from './pglite-template.ts';
import { throwawayDatabase } from './throwaway-database.ts';

/**
 * The backend of this test project: in-memory PGlite, or a throwaway database on the server
 * named by TEST_DATABASE_URL (created here, dropped by the returned `drop`). Empty, but for
 * `serviceDatabase` on PGlite: then it holds what a started local service leaves (migrated, the
 * demo plan loaded; test/support/service-template.setup.ts), which saves each file the migrations.
 * `linguistic` makes the PostgreSQL database's default collation a language's (throwawayDatabase);
 * PGlite's stays byte order.
 */
export const createTestBackend = async (
  options: { serviceDatabase?: boolean; linguistic?: boolean } = {},
): Promise<{
  backend: SqlBackend;
  kind: 'pglite' | 'postgres';
  drop: () => Promise<void>;
}> => {
  if (process.env.TEST_BACKEND !== 'postgres') {
    const backend = await createPgliteBackend({
      loadDataDir: await (options.serviceDatabase === true ? serviceTemplate() : pgliteTemplate()),
    });
    return { backend, kind: 'pglite', drop: async () => undefined };
  }
  const { url, drop } = await throwawayDatabase({ linguistic: options.linguistic === true });
  const backend = await createPostgresBackend({ connectionString: url, maxConnections: 20 });
  return { backend, kind: 'postgres', drop };
};
