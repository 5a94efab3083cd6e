import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../lib/config.ts';
import { writeStatementDocs } from '../../../lib/write-statements.ts';

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
