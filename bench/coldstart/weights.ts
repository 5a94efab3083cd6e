import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BUNDLING, environmentCredentials } from '../../infra/constructs/service-function.ts';
import { PROJECT_ROOT } from '../../infra/stack.ts';

/** What a bundle is made of, in bytes of minified output. */
export interface Weights {
  /** Output bytes per package (`zod`, `@smithy/core`, ...) or per folder of our own code (`lib/box`). */
  readonly byPackage: Record<string, number>;
  /** Output bytes of the main groups: the AWS SDK, zod, zod-openapi, Powertools, Middy, our code, the rest. */
  readonly byGroup: Record<Group, number>;
  /** The same options rebuilt with esbuild's API gave the very bytes CDK produced. */
  readonly identicalToCdk: boolean;
}

export const GROUPS = ['AWS SDK', 'zod', 'zod-openapi', 'Powertools', 'Middy', 'lib + handler', 'other'] as const;
export type Group = (typeof GROUPS)[number];

const packageOf = (input: string): string => {
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (inModules !== null) return inModules[1] as string;
  const parts = input.split('/');
  return parts[0] === 'lib' && parts.length > 2 ? `lib/${parts[1]}` : (parts[0] as string);
};

const groupOf = (pkg: string): Group => {
  if (/^@aws-sdk\/|^@smithy\/|^@aws\/|^@aws-crypto\//.test(pkg)) return 'AWS SDK';
  if (pkg === 'zod') return 'zod';
  if (pkg === 'zod-openapi') return 'zod-openapi';
  if (pkg.startsWith('@aws-lambda-powertools/')) return 'Powertools';
  if (pkg.startsWith('@middy/')) return 'Middy';
  if (pkg.startsWith('lib') || pkg === 'functions' || pkg === 'bench') return 'lib + handler';
  return 'other';
};

/**
 * Rebuilds an entry with esbuild's API and the options `BUNDLING` gives CDK (as aws-cdk-lib
 * turns them into esbuild arguments: target from the Node.js 24 runtime, platform node, no
 * externals since the SDK is bundled), plus a metafile, and sums the output bytes per package.
 * The rebuilt bytes are compared with CDK's bundle, so the attribution is of the deployed file.
 *
 * @example
 * ```ts
 * const w = await weigh('functions/box-save.ts', '/tmp/out', cdkBundleBytes);
 * w.byGroup.zod; // e.g. 24600
 * ```
 */
export const weigh = async (entry: string, outdir: string, cdkFile: string): Promise<Weights> => {
  const outfile = path.join(outdir, 'index.mjs');
  const result = await build({
    absWorkingDir: PROJECT_ROOT,
    entryPoints: [entry],
    bundle: true,
    outfile,
    platform: 'node',
    target: 'node24',
    format: BUNDLING.format === undefined ? undefined : (BUNDLING.format as 'esm' | 'cjs'),
    minify: BUNDLING.minify === true,
    sourcemap: BUNDLING.sourceMap === true,
    sourcesContent: BUNDLING.sourcesContent !== false,
    mainFields: BUNDLING.mainFields === undefined ? undefined : [...BUNDLING.mainFields],
    banner: BUNDLING.banner === undefined ? undefined : { js: BUNDLING.banner },
    define: BUNDLING.define === undefined ? undefined : { ...BUNDLING.define },
    // BUNDLING.charset is not passed: aws-cdk-lib (2.276) does not hand it to esbuild either; the
    // raw esbuild arguments are.
    ...(BUNDLING.esbuildArgs?.['--charset'] === 'utf8' ? { charset: 'utf8' as const } : {}),
    ...(BUNDLING.esbuildArgs?.['--legal-comments'] === 'none' ? { legalComments: 'none' as const } : {}),
    // The references keep the SDK's whole credential chain; the functions bundle the environment's.
    ...(entry.startsWith('bench/reference/') ? {} : { alias: environmentCredentials(PROJECT_ROOT) }),
    tsconfig: path.join(PROJECT_ROOT, 'tsconfig.json'),
    logLevel: 'warning',
    metafile: true,
  });
  const output = Object.values(result.metafile.outputs).find((o) => o.entryPoint !== undefined);
  if (output === undefined) throw new Error(`no output for ${entry}`);
  const byPackage: Record<string, number> = {};
  const byGroup = Object.fromEntries(GROUPS.map((g) => [g, 0])) as Record<Group, number>;
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const pkg = packageOf(input);
    byPackage[pkg] = (byPackage[pkg] ?? 0) + bytesInOutput;
    byGroup[groupOf(pkg)] += bytesInOutput;
  }
  const identicalToCdk = readFileSync(outfile).equals(readFileSync(cdkFile));
  return { byPackage, byGroup, identicalToCdk };
};
