import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { BoxInfo, PackingList } from '../../web/src/api-types.ts';
import { unboxedInfo } from '../../web/test/box-info.ts';
import { DEMO_PASSWORDS, handheldsForSuite, hasChromium, notice, open, scan, signIn } from './harness.ts';

/**
 * The README's walk-through of the handheld, as a new user follows it on a 360 x 640 screen
 * against the demo data: packs BOX-1001 onto PLT-0001, moves the pallet from a shelf (A-01-01)
 * to a dock (DOCK-3), corrects a box as a supervisor and closes the pallet. At every step the
 * screen's main action is wholly on screen without scrolling, and nothing covers it (the tabs,
 * the sticky scan field): the button itself is what a tap at its centre lands on. Then the same
 * with a box of many plan lines, a long packing list and a long box on Supervisor.
 */
const VIEWPORT = { width: 360, height: 640 };

/**
 * Where a control is against the window, and what a tap at its centre would land on, read
 * before anything scrolls it: a click from the test would scroll it into view first.
 */
const PLACE_OF = `
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {
      top: Math.round(r.top),
      bottom: Math.round(r.bottom),
      left: Math.round(r.left),
      right: Math.round(r.right),
      innerHeight: window.innerHeight,
      innerWidth: window.innerWidth,
      pageScrolled: window.scrollY !== 0 || document.documentElement.scrollTop !== 0,
      landsOnIt: hit !== null && (hit === el || el.contains(hit)),
      landsOn: hit === null ? 'nothing' : hit.tagName.toLowerCase() + '.' + String(hit.className) + ' ' + (hit.textContent ?? '').slice(0, 30),
    };`;
/** PLACE_OF as a function of the element (the tests' own TypeScript has no DOM types). */
const placeOfElement = new Function('el', PLACE_OF) as (el: unknown) => {
  top: number;
  bottom: number;
  left: number;
  right: number;
  innerHeight: number;
  innerWidth: number;
  pageScrolled: boolean;
  landsOnIt: boolean;
  landsOn: string;
};
const placeOf = (control: Locator) => control.evaluate(placeOfElement);

/** Fails unless `control` is inside the window and a tap at its centre reaches it. */
const inSight = async (control: Locator, step: string): Promise<void> => {
  await control.waitFor();
  const at = await placeOf(control);
  const inside = at.top >= 0 && at.bottom <= at.innerHeight && at.left >= 0 && at.right <= at.innerWidth;
  expect(inside, `${step}: the main action from ${at.top} to ${at.bottom} in a window of ${at.innerHeight}`).toBe(true);
  expect(at.landsOnIt, `${step}: a tap at the main action's centre lands on ${at.landsOn}`).toBe(true);
  expect(at.pageScrolled, `${step}: the page itself scrolled`).toBe(false);
};

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
/** Waits until the line of `item` shows `n` counted. */
const counted = (page: Page, item: string, n: number) =>
  expect.poll(() => page.getByLabel(`Qty ${item}`).inputValue(), { timeout: 10_000 }).toBe(String(n));
const waiting = (page: Page, n: number) => page.locator(`[data-testid=waiting][data-waiting="${n}"]`).waitFor();

describe.skipIf(!hasChromium)("the README's walk-through at 360 x 640", () => {
  const { fresh, signedIn } = handheldsForSuite();

  it('packs BOX-1001 onto PLT-0001, moves the pallet from a shelf to a dock and closes it, the main action always in sight', async () => {
    const { page } = await fresh();
    await page.setViewportSize(VIEWPORT);
    await inSight(button(page, 'Sign in'), 'Sign in');
    await signIn(page, 'sam', DEMO_PASSWORDS.sam);
    await page.locator('.who', { hasText: 'sam' }).waitFor();

    // 1. Pallet: scan PLT-0001, tap Register PLT-0001.
    await open(page, 'Pallet');
    await scan(page, 'PLT-0001');
    // Not a refusal: the screen offers to register it, without the error tone or colour.
    await notice(page, 'warn', 'PLT-0001 is not registered yet');
    await page.getByTestId('notice').getByText('Tap Register PLT-0001 to register it.').waitFor();
    await inSight(button(page, 'Register PLT-0001'), 'Register');
    await button(page, 'Register PLT-0001').click();
    await notice(page, 'ok', 'Zongpai PLT-0001 registered');

    // 2. Box: scan BOX-1001, each of its 30 pieces, Zongpai ›, then PLT-0001.
    await open(page, 'Box');
    await scan(page, 'BOX-1001');
    await page.getByTestId('box-no').getByText('BOX-1001').waitFor();
    await inSight(button(page, 'Zongpai ›'), 'the plan shown');
    for (const [item, pieces] of [
      ['SKU-TEA-250', 24],
      ['SKU-CUP-06', 6],
    ] as const) {
      for (let i = 1; i <= pieces; i += 1) {
        await scan(page, item);
        await counted(page, item, i);
        await inSight(button(page, 'Zongpai ›'), `${item} piece ${i}`);
      }
    }
    await button(page, 'Zongpai ›').click();
    await page.locator('.scan-label', { hasText: 'Scan the zongpai' }).waitFor();
    await inSight(page.locator('.scan-input'), 'the zongpai to scan');
    await scan(page, 'PLT-0001');
    await notice(page, 'ok', 'Box BOX-1001 saved on PLT-0001');

    // 3. One scan: BOX-1002, then PLT-0001.
    await open(page, 'One scan');
    await inSight(page.locator('.scan-input'), 'One scan');
    await scan(page, 'BOX-1002');
    await scan(page, 'PLT-0001');
    await notice(page, 'ok', 'Box BOX-1002 saved on PLT-0001');

    // 4. Locate: the pallet on shelf A-01-01, then at DOCK-3; Find shows its box at the dock.
    await open(page, 'Locate');
    for (const place of ['A-01-01', 'DOCK-3']) {
      await scan(page, place);
      await page.locator('[data-testid=notice][data-tone=place]', { hasText: `Location ${place}` }).waitFor();
      await inSight(page.getByTestId('location'), `at ${place}`);
      await scan(page, 'PLT-0001');
      await notice(page, 'ok', `PLT-0001 at ${place}`);
      await waiting(page, 0);
      await inSight(page.getByTestId('location'), `PLT-0001 at ${place}`);
    }
    await open(page, 'Find');
    await scan(page, 'BOX-1001');
    await page.getByTestId('current').getByText('DOCK-3').waitFor();

    // 6. Supervisor: scan a boxed box, correct an item, Edit: what changed is said.
    await open(page, 'Supervisor');
    await scan(page, 'BOX-1002');
    await page.locator('[data-testid=box-status][data-status=BOXED]').waitFor();
    await inSight(button(page, 'Edit'), 'Supervisor, BOX-1002 shown');
    await inSight(button(page, 'Undo boxing'), 'Supervisor, BOX-1002 shown');
    await page.getByLabel('Qty SKU-TEA-250').fill('47');
    await inSight(button(page, 'Edit'), 'Supervisor, a quantity typed');
    await button(page, 'Edit').click();
    await notice(page, 'ok', 'SKU-TEA-250: 48 → 47');
    await inSight(button(page, 'Edit'), 'Supervisor, edited');

    // On Pallet a supervisor closes the zongpai: Close, then Tap again to close.
    await open(page, 'Pallet');
    await page
      .getByTestId('zongpais')
      .getByRole('button', { name: /PLT-0001/ })
      .click();
    await page.getByTestId('zongpai-no').getByText('PLT-0001').waitFor();
    await page
      .getByTestId('packing-list')
      .getByRole('row', { name: /BOX-1002/ })
      .waitFor();
    await inSight(button(page, 'Close'), 'Pallet, PLT-0001 shown');
    await button(page, 'Close').click();
    await inSight(button(page, 'Tap again to close'), 'Pallet, the confirmation');
    await button(page, 'Tap again to close').click();
    await page.getByTestId('zongpai-status').getByText('Closed').waitFor();
    await inSight(button(page, 'Reopen'), 'Pallet, closed');
  });

  it('keeps the main action in sight with a box of 40 plan lines, a long packing list and a long box on Supervisor', async () => {
    const { page } = await signedIn('sam', { viewport: VIEWPORT });
    const items = Array.from({ length: 40 }, (_, i) => ({
      item_code: `SKU-LONG-${String(i + 1).padStart(2, '0')}`,
      item_name: `Item number ${i + 1} of the long box`,
      unit: 'pcs',
      planned_quantity: 2,
      boxed_quantity: 0,
    }));
    const longBox = unboxedInfo({
      box_no: 'BOX-LONG',
      order_no: 'SO-LONG',
      customer_name: 'Shanghai Lianhua International Trading Company Limited',
      items,
    });
    await page.route(/\/v1\/box\/info\?box_no=BOX-LONG$/, (route) => route.fulfill({ json: longBox }));

    await open(page, 'Box');
    await scan(page, 'BOX-LONG');
    await page.getByTestId('box-no').getByText('BOX-LONG').waitFor();
    await inSight(button(page, 'Zongpai ›'), 'the long plan shown');
    // The last line, far below the fold: counted, scrolled to between the scan field and the bar.
    for (const item of ['SKU-LONG-40', 'SKU-LONG-01', 'SKU-LONG-25']) {
      await scan(page, item);
      await counted(page, item, 1);
      await inSight(button(page, 'Zongpai ›'), `the long plan, ${item} scanned`);
      await inSight(page.getByLabel(`Qty ${item}`), `the line of ${item}`);
    }
    await button(page, 'Zongpai ›').click();
    await page.getByTestId('short').waitFor();
    await inSight(button(page, 'Save short ›'), 'the long box, short');

    // A packing list of 40 boxes, as a supervisor sees it.
    const list: PackingList = {
      zongpai_no: 'PLT-0001',
      status: 'OPEN',
      box_count: 40,
      total_quantity: 80,
      boxes: items.map((item, i) => ({
        box_no: `BOX-L${String(i + 1).padStart(3, '0')}`,
        order_no: 'SO-LONG',
        customer_name: 'Nordic Home AB',
        complete: true,
        total_quantity: 2,
        more_items: false,
        items: [{ item_code: item.item_code, item_name: item.item_name, quantity: 2, unit: 'pcs' }],
      })),
      totals: items.map((item) => ({ item_code: item.item_code, item_name: item.item_name, quantity: 2, unit: 'pcs' })),
      next_cursor: null,
      next_totals_cursor: null,
    };
    await page.route(/\/v1\/zongpai\/PLT-0001\/packing-list/, (route) => route.fulfill({ json: list }));
    await open(page, 'Pallet');
    await scan(page, 'PLT-0001');
    await page
      .getByTestId('packing-list')
      .getByRole('row', { name: /BOX-L040/ })
      .waitFor();
    await inSight(page.getByRole('button', { name: /^(Close|Reopen)$/ }), 'the long packing list');

    // A boxed box of 40 lines on Supervisor, with its history.
    await page.route(/\/v1\/box\/info\?box_no=BOX-1001$/, async (route) => {
      const real = (await (await route.fetch()).json()) as BoxInfo;
      await route.fulfill({ json: { ...real, items: [...real.items, ...items] } });
    });
    await open(page, 'Supervisor');
    await scan(page, 'BOX-1001');
    await page.getByLabel('Qty SKU-LONG-40').waitFor();
    await inSight(button(page, 'Edit'), 'Supervisor, the long box');
    await inSight(button(page, 'Undo boxing'), 'Supervisor, the long box');
  });
});

if (!hasChromium) {
  it.skip('end-to-end tests skipped: no Chromium at /usr/bin/chromium (apt-get install chromium)', () => undefined);
}
