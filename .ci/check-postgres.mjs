// Fails CI when the PostgreSQL server named by TEST_DATABASE_URL does not answer, so that the
// suite can never pass on PGlite alone while claiming to have covered PostgreSQL.
import pg from 'pg';

const url = process.env.TEST_DATABASE_URL;
if (!url) {
  console.error('TEST_DATABASE_URL is not set');
  process.exit(1);
}
const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
try {
  await client.connect();
  const { rows } = await client.query('SHOW server_version');
  await client.end();
  console.log(`PostgreSQL ${rows[0].server_version} reachable at TEST_DATABASE_URL`);
} catch (error) {
  console.error(`PostgreSQL at TEST_DATABASE_URL is unreachable: ${error.message}`);
  process.exit(1);
}
