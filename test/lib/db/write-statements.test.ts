import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../lib/config.ts';
import { compileWrite } from '../../../lib/db/write.ts';
import { writeStatementDocs, writeStatements } from '../../../lib/write-statements.ts';

const sqlDocs = new URL('../../../docs/sql/', import.meta.url);
const docs = writeStatementDocs(loadConfig({}));

describe('the readable write statements in docs/sql', () => {
  it.each(docs)('keeps docs/sql/%s the whole compiled statement (npm run docs)', async (file, text) => {
    expect(await readFile(new URL(file, sqlDocs), 'utf8')).toBe(text);
  });

  it('holds a file for every write statement and no other', async () => {
    expect((await readdir(sqlDocs)).sort()).toEqual(docs.map(([file]) => file).sort());
  });
});

describe('the write statements of the service', () => {
  // Function bundles leave this check out of compileWrite (import.meta.bundled): this is where it runs.
  it.each([{}, { ERP_BOX_VIEW: 'erp_b.box_plan', ITEM_CODE_MAX_LENGTH: '12', QUANTITY_MAX: '7' }])(
    'keep every write behind the idempotency gate (settings %o)',
    (env) => {
      const statements = Object.entries(writeStatements(loadConfig(env)));
      expect(statements.length).toBeGreaterThanOrEqual(8);
      for (const [name, statement] of statements) expect(() => compileWrite(statement), name).not.toThrow();
    },
  );
});

describe('the answer rows of the service’s write statements', () => {
  it.each(Object.entries(writeStatements(loadConfig({}))))('%s declares their schema', (_name, statement) => {
    expect(statement.row).toBeDefined();
  });
});
