import { resolve } from 'node:path';
import { localSigningKey, signLocalToken } from '../../local/auth.ts';
import { commandLine } from '../../local/command-line.ts';
import { loadConfig } from '../../lib/config.ts';
import { runFuzz, type FuzzReport } from './fuzz.ts';

/**
 * `npm run -s fuzz -- --requests N [--base-url URL] [--concurrency C] [--seed S]`
 * Fuzzes a running `npm start` with requests generated from every declared route, and exits 1
 * when any answer is a 5xx, is outside the unified format, or does not come.
 */
const USAGE = `usage: npm run -s fuzz -- [--requests N] [--base-url URL] [--concurrency C] [--seed S]
  --requests N      requests to send (default 10000)
  --base-url URL    the running npm start (default http://127.0.0.1:3000)
  --concurrency C   requests under way at once (default 32)
  --seed S          the generator's seed: the same seed sends the same requests (default 1)
  DATA_DIR          the data folder of that npm start, whose key signs the tokens (default .data)
  SERVICE_PREFIX    its service prefix (default as npm start's)
`;

const { values, fail } = commandLine('fuzz', USAGE, {
  requests: { type: 'string', default: '10000' },
  'base-url': { type: 'string', default: 'http://127.0.0.1:3000' },
  concurrency: { type: 'string', default: '32' },
  seed: { type: 'string', default: '1' },
});
const whole = (name: 'requests' | 'concurrency' | 'seed', min: number): number => {
  const text = values[name];
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min)
    fail(`--${name} '${text}' must be a whole number from ${String(min)}`);
  return value;
};
const baseUrl = values['base-url'].replace(/\/+$/, '');
if (!/^https?:\/\/[^/]+$/.test(baseUrl)) fail(`--base-url '${values['base-url']}' must be an http(s) URL of a host`);

const key = localSigningKey(resolve(process.env.DATA_DIR || '.data'));
const report: FuzzReport = await runFuzz({
  baseUrl,
  requests: whole('requests', 1),
  concurrency: whole('concurrency', 1),
  seed: whole('seed', 0),
  sign: (user, groups) => signLocalToken(key, { user, groups, expiresInSeconds: 6 * 3600 }),
  servicePrefix: loadConfig(process.env).servicePrefix,
});

const out = process.stdout;
out.write(
  `${String(report.requests)} requests in ${report.seconds.toFixed(1)} s (${(report.requests / report.seconds).toFixed(0)}/s)\n`,
);
out.write(
  `status counts: ${Object.entries(report.statuses)
    .map(([s, n]) => `${s}: ${String(n)}`)
    .join(', ')}\n`,
);
out.write(`5xx: ${String(report.serverErrors)}\n`);
out.write(`bodies outside the unified format: ${String(report.nonUnified)}\n`);
const noAnswer = report.statuses.network ?? 0;
if (noAnswer > 0) out.write(`no answer: ${String(noAnswer)}\n`);
for (const finding of report.findings.slice(0, 40))
  out.write(`  ${String(finding.count)} × ${finding.kind}\n      e.g. ${finding.example}\n`);
process.exitCode = report.serverErrors > 0 || report.nonUnified > 0 || noAnswer > 0 ? 1 : 0;
