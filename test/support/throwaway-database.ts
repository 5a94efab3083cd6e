import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A database of its own on the TEST_DATABASE_URL server for one test file, so that files running
 * in parallel never see each other's rows; `drop` removes it (forcing out any connection left).
 * `linguistic` gives it a language's collation by default (ICU `en-US`), as Aurora's databases
 * have one (`en_US.UTF-8`), where the test server's default is byte order.
 *
 * @example
 * ```ts
 * const { url, drop } = await throwawayDatabase({ linguistic: true });
 * ```
 */
export const throwawayDatabase = async (
  options: { linguistic?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> => {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl === undefined || adminUrl === '') throw new Error('a throwaway database needs TEST_DATABASE_URL');
  const name = `cargo_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(
    options.linguistic === true
      ? `CREATE DATABASE ${name} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US'`
      : `CREATE DATABASE ${name}`,
  );
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
};

/**
 * Renames a database of the TEST_DATABASE_URL server, ending its connections first (a database
 * in use cannot be renamed): for tests of a service whose database goes missing.
 *
 * @example
 * ```ts
 * await renameDatabase('cargo_t_1a2b', 'cargo_t_1a2b_gone'); // every call now meets SQLState 3D000
 * ```
 */
export const renameDatabase = async (from: string, to: string): Promise<void> => {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt += 1) {
      await admin.query('SELECT pg_terminate_backend(pid, 2000) FROM pg_stat_activity WHERE datname = $1', [from]);
      try {
        await admin.query(`ALTER DATABASE ${from} RENAME TO ${to}`);
        return;
      } catch (error) {
        // 55006: a connection came back in between.
        if ((error as { code?: string }).code !== '55006' || attempt >= 20) throw error;
      }
    }
  } finally {
    await admin.end();
  }
};
