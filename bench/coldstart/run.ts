import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BenchSettings } from '../support/settings.ts';
import { synthesizeBaseline, type BaselineBundle } from './baseline.ts';
import { synthesizeBundles, type BundleKind } from './bundles.ts';
import { measureImports } from './import-time.ts';
import { weigh, type Weights } from './weights.ts';

export interface BundleFigures {
  readonly name: string;
  readonly kind: BundleKind;
  readonly entry: string;
  readonly bytes: number;
  readonly mapBytes: number;
  /** Median cold import in ms, with NODE_OPTIONS=--enable-source-maps as deployed, and without. */
  readonly importMs: number;
  readonly importPlainMs: number;
  readonly importSamples: readonly number[];
  readonly sizeVsFloor: number;
  readonly importVsFloor: number;
  readonly importVsNaive: number;
  readonly weights: Weights;
  /** Only for the service's functions: within 1.25 × the floor in size and in import time. */
  readonly met?: boolean;
  /** The same bundle of the baseline checkout (BENCH_COLD_BASELINE), timed in turns with this one. */
  readonly baseline?: { readonly bytes: number; readonly importMs: number };
}

export interface ColdStartResult {
  readonly node: string;
  readonly source: string;
  readonly runs: number;
  readonly bundles: readonly BundleFigures[];
  readonly met: boolean;
  /** The checkout the bundles were compared with (BENCH_COLD_BASELINE), and its commit when it is a git checkout. */
  readonly baseline?: { readonly checkout: string; readonly commit?: string };
}

/** The checkout, with the commit it is at when it is a git checkout. */
const describeCheckout = (checkout: string): NonNullable<ColdStartResult['baseline']> => {
  try {
    const commit = execFileSync('git', ['-C', checkout, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    return { checkout, commit };
  } catch {
    return { checkout };
  }
};

/** The cold-start targets: a function may weigh and take to import at most this times the floor. */
export const TARGET_RATIO = 1.25;

/**
 * Bundles the stack's functions and the two references with CDK, weighs them (esbuild
 * metafile) and times their cold import on this Node (the Node 24 of devDependencies).
 *
 * @example
 * ```ts
 * const result = await runColdStart(readBenchSettings());
 * ```
 */
export const runColdStart = async (settings: BenchSettings): Promise<ColdStartResult> => {
  if (!process.version.startsWith('v24.'))
    process.stderr.write(`cold start: running on Node ${process.version}, not 24 (use npm run bench)\n`);
  const outdir = mkdtempSync(path.join(tmpdir(), 'cargo-bench-cdk-'));
  try {
    process.stderr.write('cold start: synthesizing the stack (esbuild bundles every function)...\n');
    const { bundles, source } = synthesizeBundles(outdir);
    let base: readonly BaselineBundle[] = [];
    if (settings.coldBaseline !== undefined) {
      process.stderr.write(`cold start: synthesizing the baseline, ${settings.coldBaseline}...\n`);
      const baseDir = path.join(outdir, 'baseline');
      mkdirSync(baseDir);
      base = synthesizeBaseline(settings.coldBaseline, baseDir);
    }
    // Each of this checkout's bundles (by index) that the baseline has too, with the baseline's.
    const compared = bundles.flatMap((b, i) => base.filter((o) => o.name === b.name).map((o) => ({ i, bundle: o })));
    process.stderr.write(
      `cold start: ${bundles.length} bundles${compared.length > 0 ? ` and ${compared.length} of the baseline` : ''}; timing ${settings.coldRuns} cold imports of each, with and without source maps...\n`,
    );
    // The baseline's bundles in the same turns as this checkout's: a busy moment lands on both.
    const files = [...bundles.map((b) => b.file), ...compared.map((c) => c.bundle.file)];
    const times = measureImports(files, settings.coldRuns);
    const baselines = new Map(
      compared.map((c, k) => [
        c.i,
        { bytes: c.bundle.bytes, importMs: times.medians.deployed[bundles.length + k] ?? Number.NaN },
      ]),
    );
    const deployed = { medians: times.medians.deployed, samples: times.samples.deployed };
    const plain = { medians: times.medians.plain };
    const floor = bundles.findIndex((b) => b.kind === 'floor');
    const naive = bundles.findIndex((b) => b.kind === 'naive');
    const floorBytes = bundles[floor]?.bytes ?? Number.NaN;
    const floorMs = deployed.medians[floor] ?? Number.NaN;
    const naiveMs = deployed.medians[naive] ?? Number.NaN;
    const figures: BundleFigures[] = [];
    for (const [i, bundle] of bundles.entries()) {
      const weights = await weigh(bundle.entry, path.join(outdir, `weigh-${i}`), bundle.file);
      const importMs = deployed.medians[i] ?? Number.NaN;
      const baseline = baselines.get(i);
      const sizeVsFloor = bundle.bytes / floorBytes;
      const importVsFloor = importMs / floorMs;
      figures.push({
        name: bundle.name,
        kind: bundle.kind,
        entry: bundle.entry,
        bytes: bundle.bytes,
        mapBytes: bundle.mapBytes,
        importMs,
        importPlainMs: plain.medians[i] ?? Number.NaN,
        importSamples: deployed.samples[i] ?? [],
        sizeVsFloor,
        importVsFloor,
        importVsNaive: importMs / naiveMs,
        weights,
        ...(bundle.kind === 'function' ? { met: sizeVsFloor <= TARGET_RATIO && importVsFloor <= TARGET_RATIO } : {}),
        ...(baseline === undefined ? {} : { baseline }),
      });
    }
    return {
      node: process.version,
      source,
      runs: settings.coldRuns,
      bundles: figures,
      met: figures.every((f) => f.met !== false),
      ...(settings.coldBaseline === undefined ? {} : { baseline: describeCheckout(settings.coldBaseline) }),
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
};
