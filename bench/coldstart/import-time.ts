import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { median } from '../support/stats.ts';

/**
 * The environment a function has at import in Lambda, as far as the bundles read it: the
 * database ARNs (the Data API adapter refuses to start without them), the region, the
 * Powertools service name and log level, and the source-map flag the stack sets.
 */
export const LAMBDA_ENV: Readonly<Record<string, string>> = {
  AWS_REGION: 'eu-central-1',
  AWS_DEFAULT_REGION: 'eu-central-1',
  AWS_LAMBDA_FUNCTION_NAME: 'cargo-bench',
  AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024',
  DB_CLUSTER_ARN: 'arn:aws:rds:eu-central-1:123456789012:cluster:cargo',
  DB_SECRET_ARN: 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:cargo-AbC123',
  DB_NAME: 'cargo',
  DB_RETRY_BUDGET_MS: '20000',
  SERVICE_PREFIX: 'cargo',
  ERP_BOX_VIEW: 'erp.v_box_info',
  POWERTOOLS_SERVICE_NAME: 'CargoBoxingService',
  POWERTOOLS_LOG_LEVEL: 'INFO',
};

export type ImportMode = 'deployed' | 'plain';

/** `deployed` adds what the stack sets (NODE_OPTIONS=--enable-source-maps); `plain` leaves it out. */
const envFor = (mode: ImportMode): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  ...LAMBDA_ENV,
  ...(mode === 'deployed' ? { NODE_OPTIONS: '--enable-source-maps' } : {}),
});

/** Times one `import()` of the module in a fresh Node process: nothing else runs in it. */
const importOnce = (file: string, env: NodeJS.ProcessEnv): number => {
  const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); process.stdout.write(String(performance.now() - t));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8' });
  const ms = Number(run.stdout);
  if (run.status !== 0 || !Number.isFinite(ms)) throw new Error(`importing ${file} failed: ${run.stderr}`);
  return ms;
};

/**
 * The cold import time of each file in each mode: `runs` fresh processes per file and mode,
 * taken in turns (file 1 deployed, file 1 plain, file 2 deployed, ..., then again) so that a
 * busy moment of the machine is shared by all instead of landing on one. Returns the samples
 * and the median per mode and file.
 *
 * @example
 * ```ts
 * const times = measureImports(['/tmp/a/index.mjs', '/tmp/b/index.mjs'], 15);
 * times.medians.deployed[0]; // ms
 * ```
 */
export const measureImports = (
  files: readonly string[],
  runs: number,
): { samples: Record<ImportMode, number[][]>; medians: Record<ImportMode, number[]> } => {
  const modes: readonly ImportMode[] = ['deployed', 'plain'];
  const samples = { deployed: files.map(() => [] as number[]), plain: files.map(() => [] as number[]) };
  for (const file of files) importOnce(file, envFor('plain')); // warm the file system cache, not a process
  for (let run = 0; run < runs; run += 1) {
    files.forEach((file, i) => modes.forEach((mode) => samples[mode][i]?.push(importOnce(file, envFor(mode)))));
  }
  return {
    samples,
    medians: { deployed: samples.deployed.map((s) => median(s)), plain: samples.plain.map((s) => median(s)) },
  };
};
