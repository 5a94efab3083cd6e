import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { barcodeToolsRequired, missingBarcodeTools } from '../support/barcode-reader.ts';
import { handheldsForSuite, hasChromium, notice, open, scan, screenshot } from './harness.ts';

/**
 * Printing on the handheld, on a service with a GS1 company prefix: a zongpai registered by SSCC
 * in one tap, a box packed onto it, its label (4 × 6 in) and its packing list (A4) in their print
 * views, each opening the device's print dialog once (window.print, counted here instead).
 */
const PREFIX = '4012345';

/** Counts the print dialogs the app opens, instead of opening them (page scripts as text: this project has no DOM types). */
const countPrints = (page: Page) =>
  page.evaluate('window.prints = 0; window.print = () => { window.prints += 1; }; undefined');
const prints = (page: Page) => page.evaluate('window.prints');

/** The document's `@page` rules, as the print view set them. */
const pageRules = (page: Page) =>
  page.evaluate(
    'document.adoptedStyleSheets.flatMap((sheet) => [...sheet.cssRules]).filter((rule) => rule instanceof CSSPageRule).map((rule) => rule.cssText)',
  );

/** The size of the sheets a print gives (a PDF's MediaBox, in points: 72 to the inch), and their number. */
const printedSheets = async (page: Page) => {
  const pdf = (await page.pdf({ preferCSSPageSize: true, printBackground: true })).toString('latin1');
  const boxes = [...pdf.matchAll(/\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/g)].map(([, w, h]) => [
    Math.round(Number(w)),
    Math.round(Number(h)),
  ]);
  return { size: boxes[0], count: boxes.length };
};

/** The print view as it prints: the page's print styles on a viewport of the paper's size in CSS pixels (96 to the inch). */
const printedLook = async (page: Page, name: string, width: number, height: number): Promise<Buffer> => {
  const viewport = page.viewportSize();
  await page.setViewportSize({ width, height });
  // A handheld's page keeps its zoom across a change of viewport: the paper is seen at 100 %.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setPageScaleFactor', { pageScaleFactor: 1 });
  await page.emulateMedia({ media: 'print' });
  await screenshot(page, name);
  const shot = await page.screenshot();
  await page.emulateMedia({ media: null });
  await cdp.detach();
  if (viewport !== null) await page.setViewportSize(viewport);
  return shot;
};

const run = promisify(execFile);
/** What zbarimg reads from a picture: each symbol one line (GS1-128 as `00` + the SSCC, without FNC1). */
const decode = async (png: Buffer): Promise<string[]> => {
  const dir = await mkdtemp(join(tmpdir(), 'print-'));
  try {
    await writeFile(join(dir, 'shot.png'), png);
    const { stdout } = await run('zbarimg', ['--raw', '--quiet', join(dir, 'shot.png')]);
    return stdout.split('\n').filter((line) => line !== '');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};
const zbarMissing = missingBarcodeTools().filter((tool) => tool.startsWith('zbarimg'));

describe.skipIf(!hasChromium)('printing on the handheld, with SSCC zongpais', () => {
  const { signedIn } = handheldsForSuite({ env: { GS1_COMPANY_PREFIX: PREFIX } });

  it('registers one SSCC zongpai for a double tap, packs a box onto it and prints its label and packing list', async () => {
    if (zbarMissing.length > 0 && barcodeToolsRequired()) throw new Error(`missing: ${zbarMissing.join(', ')}`);
    const { page } = await signedIn('olga');
    await countPrints(page);
    let registrations = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/v1/zongpai') registrations += 1;
    });

    // One tap (here two in a row) registers the next SSCC: one request, one zongpai.
    await open(page, 'Pallet');
    await page.getByRole('button', { name: 'New SSCC pallet' }).dblclick();
    await notice(page, 'ok', /^Zongpai \d{18} registered$/);
    const sscc = (await page.getByTestId('zongpai-no').textContent()) ?? '';
    expect(sscc).toMatch(new RegExp(`^0${PREFIX}\\d{10}$`));
    expect(registrations).toBe(1);

    // The Box screen: the box's own label while it is counted, then its items and the zongpai.
    await open(page, 'Box');
    await scan(page, 'BOX-1001');
    await page.getByTestId('box-no').getByText('BOX-1001').waitFor();
    await page.getByRole('button', { name: 'Print label' }).click();
    const boxLabel = page.getByTestId('print-view').getByTestId('print-label');
    await boxLabel.waitFor();
    expect(decodeURIComponent((await boxLabel.getAttribute('src')) ?? '')).toContain('>BOX-1001</text>');
    expect(await prints(page)).toBe(1);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByTestId('print-view').waitFor({ state: 'detached' });
    await page.getByLabel('Qty SKU-TEA-250').fill('24');
    await page.getByLabel('Qty SKU-CUP-06').fill('6');
    await page.getByLabel('Qty SKU-CUP-06').press('Tab');
    await page.getByRole('button', { name: 'Zongpai ›' }).click();
    await scan(page, sscc);
    await notice(page, 'ok', `Box BOX-1001 saved on ${sscc}`);

    // The zongpai's label: the service's SVG, its GS1-128 barcode of (00) + the SSCC, on a 4 × 6 in page.
    await open(page, 'Pallet');
    await scan(page, sscc);
    await page.getByTestId('packing-list').getByText('SKU-CUP-06 × 6').waitFor();
    await page.getByRole('button', { name: 'Print label' }).click();
    const label = page.locator('[data-testid=print-view][data-paper=label]').getByTestId('print-label');
    await label.waitFor();
    const svg = decodeURIComponent((await label.getAttribute('src')) ?? '');
    expect(svg).toMatch(/^data:image\/svg\+xml;charset=utf-8,<\?xml/);
    expect(svg).toContain('width="4in" height="6in"');
    expect(svg).toContain(`(00) ${sscc}</text>`);
    expect(svg).toMatch(/<svg x="\d+" y="\d+"[^>]*>\s*<path stroke=/);
    expect(await prints(page)).toBe(2);
    expect(await pageRules(page)).toEqual(['@page { size: 4in 6in; margin: 0px; }']);
    expect(await printedSheets(page)).toEqual({ size: [288, 432], count: 1 });
    const labelShot = await printedLook(page, 'print-label', 384, 576);
    if (zbarMissing.length === 0) expect(await decode(labelShot)).toEqual([`00${sscc}`]);
    else console.log(`the printed label is not read back: missing ${zbarMissing.join(', ')}`);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByTestId('print-view').waitFor({ state: 'detached' });
    expect(await pageRules(page)).toEqual([]);

    // The packing list on A4: the zongpai's barcode at the top, the box with its order, customer and items, the totals.
    await page.getByRole('button', { name: 'Print packing list' }).click();
    const sheet = page.locator('[data-testid=print-view][data-paper=a4]').getByTestId('print-packing-list');
    await sheet.waitFor();
    expect(await sheet.getByTestId('print-zongpai-no').textContent()).toBe(sscc);
    expect(await sheet.locator('figcaption').textContent()).toBe(`(00) ${sscc}`);
    const bars = decodeURIComponent((await sheet.getByTestId('print-barcode').getAttribute('src')) ?? '');
    expect(bars).toMatch(
      /^data:image\/svg\+xml;charset=utf-8,<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*>\s*<path/,
    );
    const rows = (testId: string) =>
      sheet
        .getByTestId(testId)
        .locator('tbody tr')
        .allInnerTexts()
        .then((texts) => texts.map((text) => text.split('\t').map((cell) => cell.trim())));
    expect(await rows('print-boxes')).toEqual([
      ['BOX-1001\nTotal 30', 'SO-24001', 'Shanghai Lianhua Trading', 'SKU-CUP-06', 'Porcelain cup set (6)', '6 set'],
      ['SKU-TEA-250', 'Green tea 250 g', '24 tin'],
    ]);
    expect(await rows('print-totals')).toEqual([
      ['SKU-CUP-06', 'Porcelain cup set (6)', '6 set'],
      ['SKU-TEA-250', 'Green tea 250 g', '24 tin'],
    ]);
    expect(await prints(page)).toBe(3);
    // `A4 portrait` as Chromium writes it back (portrait is A4's own orientation).
    expect(await pageRules(page)).toEqual(['@page { size: a4; margin: 12mm; }']);
    expect(await printedSheets(page)).toEqual({ size: [595, 842], count: 1 });
    const listShot = await printedLook(page, 'print-packing-list', 794, 1123);
    if (zbarMissing.length === 0) expect(await decode(listShot)).toContain(`00${sscc}`);
  });
});
