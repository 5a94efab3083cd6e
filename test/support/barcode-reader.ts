import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const TOOLS = { 'rsvg-convert': 'librsvg2-bin', zbarimg: 'zbar-tools' } as const;

const onPath = (tool: string) =>
  (process.env.PATH ?? '').split(':').some((dir) => {
    try {
      accessSync(join(dir, tool), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });

/** The tools a barcode is read back with that this machine lacks, with the Debian package of each. */
export const missingBarcodeTools = (): string[] =>
  Object.entries(TOOLS)
    .filter(([tool]) => !onPath(tool))
    .map(([tool, pkg]) => `${tool} (apt-get install ${pkg})`);

/** In CI (CI=true or REQUIRE_E2E=1) reading barcodes back is required: a missing tool fails the tests. */
export const barcodeToolsRequired = () => process.env.CI === 'true' || process.env.REQUIRE_E2E === '1';

/**
 * What a standard decoder reads from an SVG label: rendered to PNG by rsvg-convert at 406 dpi
 * (twice the label printer's dots), decoded by zbarimg. GS1-128 comes back without its FNC1, as
 * `00` + the SSCC; each symbol found is one line.
 */
export const readBarcodes = async (svg: string): Promise<string[]> => {
  const dir = await mkdtemp(join(tmpdir(), 'label-'));
  try {
    await writeFile(join(dir, 'label.svg'), svg);
    await run('rsvg-convert', [
      '--width',
      '1624',
      '--background-color',
      'white',
      '--output',
      join(dir, 'label.png'),
      join(dir, 'label.svg'),
    ]);
    const { stdout } = await run('zbarimg', ['--raw', '--quiet', join(dir, 'label.png')]);
    return stdout.split('\n').filter((line) => line !== '');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};
