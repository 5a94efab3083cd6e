import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const files = readdirSync(`${ROOT}functions`).filter((file) => file.endsWith('.ts'));

/** Imports each file in a fresh Node process whose whole environment is `env`; answers what each import did. */
const importEach = (env: Record<string, string>): Record<string, string> => {
  const script = `
    const results = {};
    for (const file of ${JSON.stringify(files)}) {
      try {
        const module = await import('./functions/' + file);
        results[file] = typeof module.handler === 'function' ? 'ok' : 'no handler';
      } catch (error) {
        results[file] = String(error);
      }
    }
    process.stdout.write(JSON.stringify(results));`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
  return JSON.parse(out) as Record<string, string>;
};

describe('functions/*.ts', () => {
  it('imports every handler with an empty environment without throwing', () => {
    const results = importEach({});
    expect(Object.keys(results).sort()).toEqual([...files].sort());
    for (const file of files) expect(results[file], file).toBe('ok');
  }, 120_000);

  it('imports every handler with a bad setting without throwing: the setting is refused at the first invocation', async () => {
    const results = importEach({ QUANTITY_MAX: 'abc', BOX_NO_PATTERN: '(' });
    for (const file of files) expect(results[file], file).toBe('ok');
  }, 120_000);

  it('refuses a bad setting at the first invocation with the ConfigError naming it', async () => {
    const { lambdaHandler } = await import('../../lib/http/route.ts');
    const { spec } = await import('../../functions/zongpai-get.ts');
    const handler = lambdaHandler(spec, { QUANTITY_MAX: 'abc', DB_CLUSTER_ARN: 'arn:c', DB_SECRET_ARN: 'arn:s' });
    await expect(handler({} as never, {} as never)).rejects.toThrow(
      "Invalid configuration: QUANTITY_MAX='abc' is not a whole number",
    );
  });
});
