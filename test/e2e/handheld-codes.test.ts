import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { BoxHistory, OrderProgress, PackingList } from '../../web/src/api-types.ts';
import { DEMO_PASSWORDS, handheldsForSuite, hasChromium, notice, open, scan, signIn } from './harness.ts';

/**
 * Codes, counts and numbers as a 360 x 640 handheld prints them: a box, zongpai or location code
 * is never broken across lines (an 18-digit SSCC and codes of 30 and more characters included),
 * a word in a table is never split, a count takes its plural and a number its language's form.
 */

/** The demo plan's box numbered with an SSCC (order SO-24004). */
const SSCC_BOX = '106141411234567897';
/** A zongpai of 30 characters and a location of 32, as the floor names them. */
const LONG_ZONGPAI = 'PLT-2026-DISPATCH-LANE-0001-XYZ';
const LONG_LOCATION = 'STAGING-LANE-NORTH-EXTRA-LONG-01';

/**
 * On how many lines each occurrence of `text` inside `root` is laid out (a Range over it gives
 * one rectangle per line box it covers). Fails when `text` is not there at all.
 */
const linesOf = async (root: Locator, text: string): Promise<number[]> => {
  const lines = await root.evaluate(
    new Function(
      'root',
      'text',
      `const found = [];
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        for (let at = node.data.indexOf(text); at >= 0; at = node.data.indexOf(text, at + 1)) {
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + text.length);
          const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          found.push(tops.size);
        }
      }
      return found;`,
    ) as (root: unknown, text: string) => number[],
    text,
  );
  expect(lines.length, `${text} is shown`).toBeGreaterThan(0);
  return lines;
};

/** Fails unless every occurrence of each text inside `root` is on one line. */
const wholeOnOneLine = async (root: Locator, texts: readonly string[], where: string): Promise<void> => {
  for (const text of texts)
    expect(await linesOf(root, text), `${where}: ${text}`).toEqual((await linesOf(root, text)).map(() => 1));
};

/** The page itself does not scroll sideways: a table too wide for the screen scrolls inside its own box. */
const pageWidth = (page: Page) => page.evaluate('document.documentElement.scrollWidth');

describe.skipIf(!hasChromium)('codes, counts and numbers at 360 x 640', () => {
  // PLT-0001 and a 30-character zongpai; BOX-1001 on PLT-0001 at STAGE-2, the SSCC box on the
  // long zongpai at a 32-character location.
  const seed = async (page: Page) => {
    await signIn(page, 'sam', DEMO_PASSWORDS.sam);
    await open(page, 'Pallet');
    for (const zongpai of ['PLT-0001', LONG_ZONGPAI]) {
      await scan(page, zongpai);
      await page.getByRole('button', { name: `Register ${zongpai}` }).click();
      await notice(page, 'ok', `Zongpai ${zongpai} registered`);
    }
    await open(page, 'One scan');
    for (const [box, zongpai] of [
      ['BOX-1001', 'PLT-0001'],
      [SSCC_BOX, LONG_ZONGPAI],
    ] as const) {
      await scan(page, box);
      await page.getByTestId('box-no').getByText(box).waitFor();
      await scan(page, zongpai);
      await notice(page, 'ok', `Box ${box} saved on ${zongpai}`);
    }
    await open(page, 'Locate');
    for (const [location, zongpai] of [
      ['STAGE-2', 'PLT-0001'],
      [LONG_LOCATION, LONG_ZONGPAI],
    ] as const) {
      await scan(page, location);
      await page.locator('[data-testid=notice]', { hasText: `Location ${location}` }).waitFor();
      await scan(page, zongpai);
      await notice(page, 'ok', `${zongpai} at ${location}`);
      await page.locator('[data-testid=waiting][data-waiting="0"]').waitFor();
      await page.getByTestId('location').click();
    }
  };
  const { signedIn } = handheldsForSuite({ seed, timeout: 90_000 });

  it("keeps the codes of an order's boxes whole, and the words beside them, with demo codes and long ones", async () => {
    const { page } = await signedIn('olga');
    await open(page, 'Order');
    const boxes = page.getByTestId('order-boxes');
    await scan(page, 'SO-24001');
    await boxes.getByText('PLT-0001').waitFor();
    await wholeOnOneLine(boxes, ['BOX-1001', 'BOX-1002', 'PLT-0001', 'STAGE-2', 'Complete'], 'SO-24001');

    await scan(page, 'SO-24004');
    await boxes.getByText(SSCC_BOX).waitFor();
    await wholeOnOneLine(boxes, [SSCC_BOX, LONG_ZONGPAI, LONG_LOCATION, 'Complete'], 'SO-24004');
    expect(await pageWidth(page)).toBe(360);
  });

  it('keeps zongpai and box codes whole in the list of zongpais and in a packing list', async () => {
    const { page } = await signedIn('olga');
    await open(page, 'Pallet');
    const zongpais = page.getByTestId('zongpais');
    await zongpais.getByText(LONG_ZONGPAI).waitFor();
    await wholeOnOneLine(zongpais, [LONG_ZONGPAI, 'PLT-0001'], 'the list of zongpais');

    await scan(page, LONG_ZONGPAI);
    await page.getByTestId('packing-list').getByText(SSCC_BOX).waitFor();
    await wholeOnOneLine(page.getByTestId('zongpai-no'), [LONG_ZONGPAI], 'the packing list');
    await wholeOnOneLine(page.getByTestId('packing-list'), [SSCC_BOX], 'the packing list');
    expect(await pageWidth(page)).toBe(360);
  });

  it('keeps the location whole on "What is here" on Find and Locate', async () => {
    const { page } = await signedIn('olga');
    await open(page, 'Find');
    await scan(page, SSCC_BOX);
    await page.getByTestId('current').getByText(LONG_LOCATION).waitFor();
    await wholeOnOneLine(page.getByTestId('location-content'), [LONG_LOCATION], 'Find');

    await open(page, 'Locate');
    await scan(page, LONG_LOCATION);
    await page.getByTestId('location').getByText(LONG_LOCATION).waitFor();
    await wholeOnOneLine(page.getByTestId('location-content'), [LONG_LOCATION], 'Locate');
  });

  it('says "1 of 1 box", and writes percentages as each language writes them', async () => {
    const { page } = await signedIn('olga');
    await open(page, 'Order');
    await scan(page, 'SO-24004');
    await notice(page, 'ok', 'SO-24004 · 1 of 1 box boxed');
    await scan(page, 'SO-24001');
    await notice(page, 'warn', 'SO-24001 · 1 of 2 boxes boxed');
    // BOX-1001's 30 of the order's 78 pieces.
    await page.getByTestId('order-progress').getByText('1 of 2 boxes boxed · 38% packed').waitFor();
    await page.getByRole('button', { name: '中文' }).click();
    await scan(page, 'SO-24001');
    await page.getByTestId('order-progress').getByText('2 箱中已装 1 箱 · 已装 38%').waitFor();
  });

  it("writes plan, boxed and pallet quantities with the language's digit grouping", async () => {
    const { page } = await signedIn('olga', { locale: 'en-US' });
    // An order of the ERP planned in the thousands (the demo plan has no line that large).
    await page.route(/\/v1\/orders\/SO-24003/, async (route) => {
      const real = (await (await route.fetch()).json()) as OrderProgress;
      const [first] = real.totals;
      if (first === undefined) throw new Error('SO-24003 has no lines');
      await route.fulfill({
        json: { ...real, totals: [{ ...first, planned_quantity: 12_000, boxed_quantity: 1_500 }] },
      });
    });
    await open(page, 'Order');
    await scan(page, 'SO-24003');
    const line = page.getByTestId('order-totals').getByRole('row').last();
    await line.getByText('12,000').waitFor();
    await line.getByText('1,500').waitFor();

    // A pallet of thousands: its total, each box's and each item's quantity.
    await page.route(/\/v1\/zongpai\/PLT-0001\/packing-list/, async (route) => {
      const real = (await (await route.fetch()).json()) as PackingList;
      await route.fulfill({
        json: {
          ...real,
          total_quantity: 12_000,
          boxes: real.boxes.map((b) => ({
            ...b,
            total_quantity: 12_000,
            items: b.items.map((i) => ({ ...i, quantity: 6_000 })),
          })),
          totals: real.totals.map((i) => ({ ...i, quantity: 6_000 })),
        },
      });
    });
    await open(page, 'Pallet');
    await scan(page, 'PLT-0001');
    await page.getByTestId('zongpai-total').getByText('12,000').waitFor();
    const box = page.getByTestId('packing-list').getByRole('row', { name: /BOX-1001/ });
    await box.getByText('SKU-TEA-250 × 6,000').waitFor();
    await box.getByText('12,000').waitFor();
    expect(await page.getByTestId('packing-totals').textContent()).toContain('6,000');
  });

  it("writes the quantities a supervisor changed in a box's history with the language's digit grouping", async () => {
    const { page } = await signedIn('sam', { locale: 'en-US' });
    // BOX-1001 saved with thousands of each item, then edited (the demo plan has no line that large).
    await page.route(/\/v1\/box\/BOX-1001\/history/, async (route) => {
      const real = (await (await route.fetch()).json()) as BoxHistory;
      const [saved] = real.events;
      if (saved === undefined) throw new Error('BOX-1001 has no history');
      const withQuantity = (quantity: number) => saved.items.map((i) => ({ ...i, quantity }));
      await route.fulfill({
        json: {
          ...real,
          events: [
            { ...saved, items: withQuantity(12_000) },
            { ...saved, action: 'EDIT', version: saved.version + 1, items: withQuantity(1_500) },
          ],
        },
      });
    });
    await open(page, 'Supervisor');
    await scan(page, 'BOX-1001');
    const change = page.getByTestId('history').locator('.change');
    await change.first().waitFor();
    expect(await change.allTextContents()).toEqual(['SKU-CUP-06: 12,000 → 1,500', 'SKU-TEA-250: 12,000 → 1,500']);
  });
});

if (!hasChromium) {
  it.skip('end-to-end tests skipped: no Chromium at /usr/bin/chromium (apt-get install chromium)', () => undefined);
}
