import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Bundle } from './bundles.ts';

/** A bundle of the baseline checkout: its name, its index.mjs and that file's size. */
export type BaselineBundle = Pick<Bundle, 'name' | 'file' | 'bytes'>;

/**
 * Synthesizes another checkout's stack (BENCH_COLD_BASELINE) into `outdir` with that checkout's
 * own CDK, esbuild and bench (bench/coldstart/bundles.ts), in a process of its own started in it,
 * so that each bundle is built as that code deployed. Answers its bundles.
 *
 * @example
 * ```ts
 * const before = synthesizeBaseline('/work/before', mkdtempSync(path.join(tmpdir(), 'base-')));
 * ```
 */
export const synthesizeBaseline = (checkout: string, outdir: string): readonly BaselineBundle[] => {
  const root = path.resolve(checkout);
  const node = path.join(root, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(path.join(root, 'bench', 'coldstart', 'bundles.ts')) || !existsSync(node))
    throw new Error(`BENCH_COLD_BASELINE: ${root} is no checkout of the service with its npm install done`);
  const list = path.join(outdir, 'bundles.json');
  const script = `
    const { writeFileSync } = await import('node:fs');
    const { synthesizeBundles } = await import(${JSON.stringify(path.join(root, 'bench', 'coldstart', 'bundles.ts'))});
    const { bundles } = synthesizeBundles(${JSON.stringify(outdir)});
    writeFileSync(${JSON.stringify(list)}, JSON.stringify(bundles.map((b) => ({ name: b.name, file: b.file, bytes: b.bytes }))));`;
  execFileSync(node, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return JSON.parse(readFileSync(list, 'utf8')) as BaselineBundle[];
};
