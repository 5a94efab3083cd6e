import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localSigningKey, verifyLocalToken } from '../../local/auth.ts';
import { runNpm } from './process.ts';

/** `npm run -s token` and npm itself, as a developer types them. */
const dataDir = mkdtempSync(join(tmpdir(), 'cargo-token-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const noStackTrace = (text: string): void => {
  expect(text).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
};

describe('npm run -s token', () => {
  it('prints only a token, signed with the key of DATA_DIR, on standard output', async () => {
    const result = await runNpm(['run', '-s', 'token', '--', '--user', 'alice', '--groups', 'operator,supervisor'], {
      DATA_DIR: dataDir,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    const claims = await verifyLocalToken(localSigningKey(dataDir), `Bearer ${result.stdout.trim()}`);
    expect(claims).toEqual(
      expect.objectContaining({ 'cognito:username': 'alice', 'cognito:groups': 'operator,supervisor' }),
    );
  });

  it('prints its usage for --help, without a stack trace', async () => {
    const result = await runNpm(['run', '-s', 'token', '--', '--help'], { DATA_DIR: dataDir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('usage: npm run -s token -- --user NAME');
    noStackTrace(result.stdout + result.stderr);
  });

  it('names an unknown option and prints its usage, without a stack trace', async () => {
    const result = await runNpm(['run', '-s', 'token', '--', '--usr', 'alice'], { DATA_DIR: dataDir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown option '--usr'");
    expect(result.stderr).toContain('usage: npm run -s token -- --user NAME');
    noStackTrace(result.stderr);
  });
});

describe('npm is not silenced', () => {
  it('says so when a script name is mistyped', async () => {
    const result = await runNpm(['run', 'tokn'], { DATA_DIR: dataDir });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('Missing script: "tokn"');
  });
});
