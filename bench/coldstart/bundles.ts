import { App, Stack } from 'aws-cdk-lib';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ServiceFunction } from '../../infra/constructs/service-function.ts';
import { loadRoutes } from '../../infra/routes.ts';
import { readSettings } from '../../infra/settings.ts';
import { CargoStack, PROJECT_ROOT } from '../../infra/stack.ts';

const { routeTable } = await loadRoutes();

export type BundleKind = 'function' | 'floor' | 'naive';

/** One deployed (or reference) function package, as CDK's NodejsFunction bundled it. */
export interface Bundle {
  readonly name: string;
  readonly kind: BundleKind;
  /** The handler source, e.g. `functions/box-save.ts` (read from the source map). */
  readonly entry: string;
  /** Absolute path of the bundle's `index.mjs`. */
  readonly file: string;
  readonly bytes: number;
  readonly mapBytes: number;
}

export interface SynthesizedBundles {
  readonly bundles: readonly Bundle[];
  /** Where the list of functions came from: the real stack, or the route table when the stack would not build. */
  readonly source: string;
}

const REFERENCES: readonly { name: string; kind: BundleKind; entry: string }[] = [
  { name: 'floor (client-rds-data only)', kind: 'floor', entry: 'bench/reference/floor.ts' },
  { name: 'naive (floor + Middy, Logger, zod)', kind: 'naive', entry: 'bench/reference/naive.ts' },
];

const cdkContext = (): Record<string, unknown> =>
  (JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context?: Record<string, unknown> })
    .context ?? {};

const functionProps = (entry: string) => ({
  entry,
  projectRoot: PROJECT_ROOT,
  description: entry,
  environment: {},
  logRetentionDays: 1,
  logLevel: 'INFO' as const,
});

/** The handler source of a bundle: the one entry of its source map under functions/ or bench/reference/. */
const entryOf = (mapFile: string): string => {
  const { sources } = JSON.parse(readFileSync(mapFile, 'utf8')) as { sources: string[] };
  const entry = sources
    .map((s) => s.replaceAll('\\', '/'))
    .find((s) => /(^|\/)(functions|bench\/reference)\/[^/]+\.ts$/.test(s));
  return entry === undefined ? '?' : entry.slice(entry.search(/(functions|bench\/reference)\//));
};

/** Every function package of a synthesized stack: its file assets (assets.json) holding an `index.mjs`. */
const assetBundles = (outdir: string, stackName: string): { file: string; entry: string }[] => {
  const manifest = JSON.parse(readFileSync(path.join(outdir, `${stackName}.assets.json`), 'utf8')) as {
    files?: Record<string, { source: { path: string } }>;
  };
  return Object.values(manifest.files ?? {})
    .map((asset) => path.join(outdir, asset.source.path, 'index.mjs'))
    .filter((file) => existsSync(file))
    .map((file) => ({ file, entry: entryOf(`${file}.map`) }));
};

const describe = (file: string, entry: string, kind: BundleKind, name?: string): Bundle => ({
  name: name ?? path.basename(entry, '.ts'),
  kind,
  entry,
  file,
  bytes: statSync(file).size,
  mapBytes: existsSync(`${file}.map`) ? statSync(`${file}.map`).size : 0,
});

/**
 * Synthesizes the service's CDK stack into `outdir` (with cdk.json's context, bundling by the
 * local esbuild exactly as `cdk synth` does) and, beside it, the two reference handlers through
 * the same `ServiceFunction` construct, so every package is built the same way.
 * Falls back to bundling the route table's entries when the stack itself cannot be built.
 *
 * @example
 * ```ts
 * const { bundles } = synthesizeBundles(mkdtempSync(path.join(tmpdir(), 'bench-')));
 * ```
 */
export const synthesizeBundles = (outdir: string): SynthesizedBundles => {
  const app = new App({ outdir, context: cdkContext() });
  const stackName = 'BenchCargoService';
  let source = 'infra/stack.ts (CargoStack, default settings)';
  try {
    new CargoStack(app, stackName, { settings: readSettings(() => undefined, {}) });
  } catch (error) {
    source = `route table + functions/migrate.ts (CargoStack failed: ${(error as Error).message.split('\n')[0]})`;
    const fallback = new Stack(app, stackName);
    const entries = [...new Set([...routeTable('cargo').map((r) => r.entry), 'functions/migrate.ts'])];
    entries.forEach((entry, i) => new ServiceFunction(fallback, `Fn${i}`, functionProps(entry)));
  }
  const references = new Stack(app, 'BenchReferences');
  // The references are Data API functions as the SDK ships: with its whole default credential chain.
  REFERENCES.forEach(
    (r, i) =>
      new ServiceFunction(references, `Reference${i}`, { ...functionProps(r.entry), credentials: 'sdk-default-chain' }),
  );
  app.synth();

  const functions = assetBundles(outdir, stackName)
    .map(({ file, entry }) => describe(file, entry, 'function'))
    .sort((a, b) => a.entry.localeCompare(b.entry));
  const refs = assetBundles(outdir, 'BenchReferences').map(({ file, entry }) => {
    const reference = REFERENCES.find((r) => r.entry === entry);
    return describe(file, entry, reference?.kind ?? 'floor', reference?.name);
  });
  const folders = readdirSync(outdir).filter((d) => d.startsWith('asset.')).length;
  if (functions.length === 0) throw new Error(`no function bundle found in ${outdir} (${folders} asset folders)`);
  return { bundles: [...refs.sort((a, b) => a.kind.localeCompare(b.kind)), ...functions], source };
};
