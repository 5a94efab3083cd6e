import { App, Stack } from 'aws-cdk-lib';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceFunction } from '../../infra/constructs/service-function.ts';
import { PROJECT_ROOT } from '../../infra/stack.ts';

/** One real esbuild run (about a second) on a handler that talks to the Data API. */
describe('bundling a handler with the local esbuild', () => {
  const outdir = mkdtempSync(path.join(tmpdir(), 'cargo-bundle-'));
  let assetDir = '';
  const bundles = {
    /** location-get: a function that only reads. */
    read: '',
    /** location-void: a function that writes. */
    write: '',
    /** zongpai-reopen: imports the zongpai module for its outbox fragment only. */
    reopen: '',
    /** box-label: draws barcodes. */
    label: '',
  };
  type BundleTexts = Partial<Record<keyof typeof bundles, string[]>>;

  beforeAll(() => {
    const app = new App({ outdir });
    const stack = new Stack(app, 'Bundle');
    const entries = {
      LocationGet: 'functions/location-get.ts',
      LocationVoid: 'functions/location-void.ts',
      ZongpaiReopen: 'functions/zongpai-reopen.ts',
      BoxLabel: 'functions/box-label.ts',
    };
    for (const [id, entry] of Object.entries(entries)) {
      new ServiceFunction(stack, id, {
        entry,
        projectRoot: PROJECT_ROOT,
        description: 'bundling test',
        environment: {},
        logRetentionDays: 1,
        logLevel: 'INFO',
      });
    }
    app.synth();
    const assets = readdirSync(outdir)
      .filter((name) => name.startsWith('asset.'))
      .map((name) => path.join(outdir, name));
    const bundleOf = (entry: string) =>
      assets.find((dir) => readFileSync(path.join(dir, 'index.mjs.map'), 'utf8').includes(entry))!;
    assetDir = bundleOf(entries.LocationGet);
    bundles.read = readFileSync(path.join(assetDir, 'index.mjs'), 'utf8');
    bundles.write = readFileSync(path.join(bundleOf(entries.LocationVoid), 'index.mjs'), 'utf8');
    bundles.reopen = readFileSync(path.join(bundleOf(entries.ZongpaiReopen), 'index.mjs'), 'utf8');
    bundles.label = readFileSync(path.join(bundleOf(entries.BoxLabel), 'index.mjs'), 'utf8');
  });

  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it.each<[string, { holds?: BundleTexts; lacks?: BundleTexts }]>([
    [
      // Containers, web identity, credential processes and SSO never apply inside Lambda.
      "signs with the role's credentials from the environment, without the SDK's other credential sources",
      {
        holds: { read: ['AWS_SECRET_ACCESS_KEY'] },
        lacks: {
          read: ['AWS_CONTAINER_CREDENTIALS', 'AWS_WEB_IDENTITY_TOKEN_FILE', 'credential_process', 'sso_start_url'],
        },
      },
    ],
    [
      'leaves the route documentation and the response schemas only it imports out of the bundle',
      { lacks: { read: ['Where a box or zongpai is, and where it was', 'Entries per page.'] } },
    ],
    [
      'leaves the SQL of recording a scan out of a function that only reads locations',
      {
        holds: { read: ['location_current'] },
        lacks: { read: ['INSERT INTO cargo.location_record', "'cargo.located'"] },
      },
    ],
    [
      'lower-cases header names without carrying a table of canonical header spellings',
      { lacks: { read: ['Sec-WebSocket-Accept'] } },
    ],
    [
      'leaves the SQL of voiding a scan out of a function that only reads locations',
      { holds: { write: ['location.voided'] }, lacks: { read: ['location.voided'] } },
    ],
    [
      'builds only the request schemas of its own route, not those of the other location routes',
      { lacks: { read: ['must not be in the future'], write: ['must not be in the future'] } },
    ],
    [
      'leaves the SQL of closing and reading a zongpai out of the function that reopens one',
      {
        holds: { reopen: ['INSERT INTO cargo.zongpai_reopening'] },
        lacks: {
          reopen: [
            "SET status = 'CLOSED'",
            "json_build_object('box_no', b.box_no, 'total_quantity', b.total_quantity)",
          ],
        },
      },
    ],
    [
      // bwip-js draws over a hundred symbologies in 2 MB: a label function carries Code 128 and GS1-128 only.
      'carries the barcode library only in a label function, and of it only the symbologies a label draws',
      {
        holds: { label: ['bwipp.GS1', 'bwipp.code128'] },
        lacks: { read: ['bwipp.'], label: ['bwipp.qrcode', 'bwipp.datamatrix'] },
      },
    ],
    [
      'leaves the check of the idempotency gate, which the tests run over every write statement, out of a writing function',
      { holds: { write: ['cargo.location_record'] }, lacks: { write: ['writes without the idempotency gate'] } },
    ],
  ])('%s', (_rule, { holds = {}, lacks = {} }) => {
    for (const [name, texts] of Object.entries(holds)) {
      for (const text of texts) expect(bundles[name as keyof typeof bundles], name).toContain(text);
    }
    for (const [name, texts] of Object.entries(lacks)) {
      for (const text of texts) expect(bundles[name as keyof typeof bundles], name).not.toContain(text);
    }
  });

  it("ends without a block of the dependencies' legal comments, like the floor reference", () => {
    expect(bundles.read).not.toContain('Bundled license information');
    expect(bundles.read.trimEnd().split('\n').at(-1)).toBe('//# sourceMappingURL=index.mjs.map');
  });

  it('writes one minified ES module with its source map', () => {
    expect(readdirSync(assetDir).sort()).toEqual(['index.mjs', 'index.mjs.map']);
    // Minified code is a few very long lines; the remaining newlines are inside SQL template literals.
    expect(bundles.read.length / bundles.read.split('\n').length).toBeGreaterThan(1000);
  });

  it("bundles the RDS Data client instead of importing the runtime's AWS SDK", () => {
    expect(bundles.read).toContain('RDSDataClient');
    expect(bundles.read).not.toMatch(/from\s*["']@aws-sdk\//);
    expect(bundles.read).not.toMatch(/from\s*["'](?!node:)[^"'./][^"']*["']/);
  });

  it('loads on Node.js 24 and exports handler (CommonJS dependencies get require through createRequire)', () => {
    const script = `const m = await import(${JSON.stringify(path.join(assetDir, 'index.mjs'))}); console.log(typeof m.handler);`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      env: {
        PATH: process.env.PATH,
        AWS_REGION: 'eu-central-1',
        DB_CLUSTER_ARN: 'arn:aws:rds:eu-central-1:123456789012:cluster:test',
        DB_SECRET_ARN: 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:test-AbC123',
      },
      encoding: 'utf8',
    });
    expect(output.trim()).toBe('function');
    expect(existsSync(path.join(assetDir, 'index.mjs.map'))).toBe(true);
  });
});

describe('a function bundled with files beside it', () => {
  const outdir = mkdtempSync(path.join(tmpdir(), 'cargo-bundle-files-'));
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('serves the OpenAPI document written beside its bundle at synth time', async () => {
    const app = new App({ outdir });
    const stack = new Stack(app, 'Bundle');
    const document = JSON.stringify({ openapi: '3.1.0', paths: {} });
    new ServiceFunction(stack, 'OpenApi', {
      entry: 'functions/openapi.ts',
      projectRoot: PROJECT_ROOT,
      description: 'bundling test',
      environment: {},
      logRetentionDays: 1,
      logLevel: 'INFO',
      files: { 'openapi.json': document },
    });
    app.synth();
    const [asset] = readdirSync(outdir).filter((name) => name.startsWith('asset.'));
    const assetDir = path.join(outdir, asset!);
    expect(readFileSync(path.join(assetDir, 'openapi.json'), 'utf8')).toBe(document);
    const run = `const m = await import(${JSON.stringify(path.join(assetDir, 'index.mjs'))}); const r = await m.handler({ httpMethod: 'GET', path: '/v1/openapi.json', headers: {}, requestContext: { requestId: 'r1' } }, { awsRequestId: 'r1', functionName: 'f' }); process.stdout.write(JSON.stringify(r));`;
    const result = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', run], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH },
      }),
    ) as { statusCode: number; body: string };
    expect(result.statusCode).toBe(200);
    expect(result.body).toBe(document);
  });
});
