import pg from 'pg';

/** The URL of database `name` on the server of `adminUrl`. */
export const databaseUrl = (adminUrl: string, name: string): string => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

const withAdmin = async <T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

/**
 * Drops and creates a throwaway database; returns its URL. `name` must be a plain identifier
 * (checked by the settings), since it is placed in DDL.
 *
 * @example
 * ```ts
 * const url = await recreateDatabase('postgres://postgres@127.0.0.1:5432/postgres', 'cargo_bench');
 * ```
 */
export const recreateDatabase = async (adminUrl: string, name: string): Promise<string> => {
  await withAdmin(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  });
  return databaseUrl(adminUrl, name);
};

export const dropDatabase = async (adminUrl: string, name: string): Promise<void> =>
  withAdmin(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

/** The server's version line and the settings that shape latency, for the report. */
export const serverFacts = async (url: string): Promise<Record<string, string>> =>
  withAdmin(url, async (client) => {
    const { rows } = await client.query<{ name: string; setting: string }>(
      `SELECT 'version' AS name, version() AS setting
       UNION ALL SELECT name, current_setting(name) FROM pg_settings
       WHERE name IN ('shared_buffers', 'work_mem', 'synchronous_commit', 'fsync', 'max_connections', 'random_page_cost', 'effective_cache_size', 'jit')`,
    );
    return Object.fromEntries(rows.map((r) => [r.name, r.setting]));
  });
