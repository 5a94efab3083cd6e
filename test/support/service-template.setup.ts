import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { createPgliteBackend } from '../../local/data-api/pglite-backend.ts';
import { startLocalService } from '../../local/stack.ts';
import { pgliteTemplate } from './pglite-template.ts';

/**
 * Global setup of the PGlite integration tests: starts the local service once on a fresh
 * database, as `npm start` does, and keeps that database for every test file to start from.
 * Each file then skips the migrations and the demo plan (a second or two of PGlite each).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const backend = await createPgliteBackend({ loadDataDir: await pgliteTemplate() });
  const stack = await startLocalService({ backend, env: process.env, verifyToken: async () => undefined });
  const dump = await backend.dumpDataDir();
  await stack.close();
  const dir = await mkdtemp(join(tmpdir(), 'cargo-test-service-'));
  const file = join(dir, 'pglite.tar');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteServiceTemplate', file);
  return async () => rm(dir, { recursive: true, force: true });
}
