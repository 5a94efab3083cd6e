import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { localSigningKey, verifyLocalToken } from './auth.ts';
import { createPgliteBackend } from './data-api/pglite-backend.ts';
import { createPostgresBackend } from './data-api/postgres-backend.ts';
import { startLocalStack } from './stack.ts';

/**
 * `npm start`: the service on http://127.0.0.1:3000 (PORT), its data in DATA_DIR (default .data/)
 * in embedded PGlite, or in the PostgreSQL server named by DATABASE_URL.
 */
const dataDir = resolve(process.env.DATA_DIR ?? '.data');
const port = Number(process.env.PORT ?? 3000);
const databaseUrl = process.env.DATABASE_URL;
mkdirSync(dataDir, { recursive: true });

const backend = databaseUrl === undefined || databaseUrl === ''
  ? await createPgliteBackend({ dataDir: join(dataDir, 'pglite') })
  : await createPostgresBackend({ connectionString: databaseUrl });
const key = localSigningKey(dataDir);
const stack = await startLocalStack({ backend, port, host: process.env.HOST ?? '127.0.0.1', verifyToken: (h) => verifyLocalToken(key, h) });

const where = databaseUrl === undefined || databaseUrl === '' ? `PGlite in ${join(dataDir, 'pglite')}` : 'PostgreSQL (DATABASE_URL)';
process.stdout.write(`Cargo service ready on ${stack.url} (data: ${where}; get a token with: npm run token -- --user alice --groups operator)\n`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await stack.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
