import { readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The file of {@link serviceTemplate}, written by test/support/service-template.setup.ts. */
    pgliteServiceTemplate: string;
  }
}

const pglitePackage = new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url);
const pgliteVersion = (JSON.parse(await readFile(pglitePackage, 'utf8')) as { version: string }).version;
const TEMPLATE = join(tmpdir(), `cargo-test-pglite-${pgliteVersion}.tar`);

/**
 * A freshly initialised PGlite data directory (initdb's output, nothing of the service's yet),
 * shared by the test processes through a file in the temp directory: loading it takes a
 * fraction of a second where initdb takes seconds. It depends only on PGlite's version.
 */
export const pgliteTemplate = async (): Promise<Blob> => {
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

/**
 * The database as the local service leaves it once started (migrated, the demo ERP loaded),
 * made once per test run from this run's code; a test service started on it migrates nothing.
 */
export const serviceTemplate = async (): Promise<Blob> => new Blob([await readFile(inject('pgliteServiceTemplate'))]);
