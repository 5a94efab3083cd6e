import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { unboxedInfo } from '../../web/test/box-info.ts';
import { DEMO_PASSWORDS, handheldsForSuite, hasChromium, holdRequests, notice, open, scan, signIn } from './harness.ts';

/**
 * The handheld's screens as an operator sees them on a shared device and a small screen: each
 * operator starts with their own screen state, the last scan's answer is the one shown, a
 * supervisor moves a box by scanning the new zongpai, and nothing is cut off at 360 x 640.
 */
/** Lets the app run what a just-arrived answer starts (its handlers, its render). */
const settle = (page: Page) => page.evaluate('new Promise((resolve) => setTimeout(resolve, 300))');

/** 32 characters, the longest code the default patterns accept. */
const LONG = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ01';
const LONG_ZONGPAI = `PLT-${LONG}`;
const LONG_LOCATION = `LOC-${LONG}`;
const LONG_BOX = `BOX-${LONG}`;
const LONGEST_ITEM = `SKU-${'0123456789ABCDEF'.repeat(3)}0123456789AB`;

/**
 * What sticks out at the page's width: the page or an element that scrolls sideways, or an
 * element whose box leaves the viewport left or right. Empty when everything fits.
 */
const OVERFLOW = `(() => {
  const width = document.documentElement.clientWidth;
  const name = (el) => el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).trim().replace(/ +/g, '.') : '') + ' ' + (el.textContent ?? '').trim().slice(0, 40);
  const out = [];
  if (document.documentElement.scrollWidth > width) out.push('page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + width);
  for (const el of document.querySelectorAll('body *')) {
    const rect = el.getBoundingClientRect();
    if (rect.width === 0 && rect.height === 0) continue;
    if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) out.push(name(el) + ': scrollWidth ' + el.scrollWidth + ' > ' + el.clientWidth);
    if (rect.left < -0.5 || rect.right > width + 0.5) out.push(name(el) + ': from ' + Math.round(rect.left) + ' to ' + Math.round(rect.right));
  }
  return out;
})()`;

/** Whether an element is wholly in sight: inside the viewport and inside the scrolled <main>. */
const inSight = (selector: string) => `(() => {
  const el = document.querySelector(${JSON.stringify(selector)});
  const main = document.querySelector('main');
  if (el === null || main === null) return 'missing';
  const r = el.getBoundingClientRect();
  const m = main.getBoundingClientRect();
  return r.top >= Math.max(m.top, 0) - 0.5 && r.bottom <= Math.min(m.bottom, innerHeight) + 0.5 && r.left >= -0.5 && r.right <= innerWidth + 0.5
    ? 'in sight'
    : 'out of sight: ' + JSON.stringify({ top: r.top, bottom: r.bottom, mainTop: m.top, mainBottom: m.bottom });
})()`;

describe.skipIf(!hasChromium)('the handheld screens', () => {
  /** Two cargo at two locations. */
  const LOCATED = [
    ['LOC-A', 'T2-C00'],
    ['LOC-B', 'T2-C01'],
  ] as const;
  // Two zongpais with BOX-1004 and BOX-1005 boxed on the first, and two cargo at two locations.
  const seed = async (page: Page) => {
    await signIn(page, 'sam', DEMO_PASSWORDS.sam);
    await open(page, 'Pallet');
    for (const zongpai of ['PLT-S1', 'PLT-S2']) {
      await scan(page, zongpai);
      await page.getByRole('button', { name: `Register ${zongpai}` }).click();
      await notice(page, 'ok', `Zongpai ${zongpai} registered`);
    }
    await open(page, 'One scan');
    for (const box of ['BOX-1004', 'BOX-1005']) {
      await scan(page, box);
      await scan(page, 'PLT-S1');
      await notice(page, 'ok', `Box ${box} saved on PLT-S1`);
    }
    await open(page, 'Locate');
    for (const [location, cargo] of LOCATED) {
      await scan(page, location);
      await notice(page, 'ok', `Location ${location}`);
      await scan(page, cargo);
      await notice(page, 'ok', `${cargo} at ${location}`);
      await page.locator('[data-testid=waiting][data-waiting="0"]').waitFor();
      await page.getByTestId('location').click();
    }
    // Stored by the service, not only queued on the handheld: the tests find them there.
    await open(page, 'Find');
    for (const [location, cargo] of LOCATED) {
      await scan(page, cargo);
      await page.getByTestId('current').getByText(location).waitFor();
    }
  };
  const { signedIn } = handheldsForSuite({ seed, timeout: 90_000 });

  it("starts the next operator on Locate with their own location and off-shelf setting, and keeps the first one's scans for her", async () => {
    const { page, context } = await signedIn('olga');
    await open(page, 'Locate');
    await scan(page, 'DOCK-OLGA');
    await notice(page, 'ok', 'Location DOCK-OLGA');
    await page.getByLabel('Off shelf').check();
    await context.setOffline(true);
    await scan(page, 'T2-OLGA');
    await page.locator('[data-testid=waiting][data-waiting="1"]').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Tap again to sign out' }).click();
    await page.getByLabel('User name').waitFor();
    await context.setOffline(false);

    // Sam on the same handheld: no location, on shelf; olga's scan waits for her.
    await signIn(page, 'sam', DEMO_PASSWORDS.sam);
    await open(page, 'Locate');
    await page.locator('[data-testid=waiting][data-waiting="0"][data-others="1"]').waitFor();
    await page.getByText('Scan a location').waitFor();
    expect(await page.getByTestId('location').count()).toBe(0);
    expect(await page.getByLabel('Off shelf').isChecked()).toBe(false);
    await scan(page, 'DOCK-SAM');
    await notice(page, 'ok', 'Location DOCK-SAM');
    // His scan is queued before it is sent: the count says 1 until the service has it (held here,
    // as a slow network would), and only then 0, when one tap signs him out.
    const upload = await holdRequests(page, /\/v1\/cargo\/location$/);
    await scan(page, 'T2-SAM');
    await notice(page, 'ok', 'T2-SAM at DOCK-SAM');
    await page.locator('[data-testid=waiting][data-waiting="1"][data-others="1"]').waitFor();
    const answered = upload.answered();
    upload.release();
    await answered;
    await page.locator('[data-testid=waiting][data-waiting="0"][data-others="1"]').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();

    // Olga again: her own location and setting, and her scan uploaded under her name.
    await signIn(page, 'olga', DEMO_PASSWORDS.olga);
    await open(page, 'Locate');
    await page.locator('[data-testid=waiting][data-waiting="0"][data-others="0"]').waitFor();
    await page.getByTestId('location').getByText('DOCK-OLGA').waitFor();
    expect(await page.getByLabel('Off shelf').isChecked()).toBe(true);
    await open(page, 'Find');
    await scan(page, 'T2-OLGA');
    await page.getByTestId('current').getByText('DOCK-OLGA').waitFor();
    await page.locator('.history li', { hasText: 'DOCK-OLGA' }).getByText('by olga').waitFor();
    await scan(page, 'T2-SAM');
    await page.getByTestId('current').getByText('DOCK-SAM').waitFor();
    await page.getByTestId('current').getByText('On shelf').waitFor();
  });

  it.each([
    {
      screen: 'Find',
      first: 'T2-C00',
      second: 'T2-C01',
      url: /\/v1\/cargo\/location\/T2-C00$/,
      shown: ['current', 'LOC-B'],
    },
    {
      screen: 'Order',
      first: 'SO-24001',
      second: 'SO-24003',
      url: /\/v1\/orders\/SO-24001/,
      shown: ['order-no', 'SO-24003'],
    },
    {
      screen: 'Pallet',
      first: 'PLT-S2',
      second: 'PLT-S1',
      url: /\/v1\/zongpai\/PLT-S2\/packing-list/,
      shown: ['zongpai-no', 'PLT-S1'],
    },
    {
      screen: 'Supervisor',
      first: 'BOX-1004',
      second: 'BOX-1005',
      url: /\/v1\/box\/(info\?box_no=BOX-1004|BOX-1004\/history)/,
      shown: ['box-no', 'BOX-1005'],
    },
  ] as const)('shows on $screen the answer to the last scan, never a late one to the scan before', async (t) => {
    const { page } = await signedIn('sam');
    await open(page, t.screen);
    const late = await holdRequests(page, t.url);
    await scan(page, t.first);
    await scan(page, t.second);
    const [testId, text] = t.shown;
    // A busy machine may take a while to answer; if it never does, the notice says what came instead.
    await page
      .getByTestId(testId)
      .getByText(text)
      .waitFor({ timeout: 20_000 })
      .catch(async (cause: unknown) => {
        const shown = await page
          .getByTestId('notice')
          .textContent({ timeout: 1000 })
          .catch(() => 'no notice');
        throw new Error(`${text} was not shown after scanning ${t.second}; the notice: ${shown}`, { cause });
      });
    const answered = late.answered();
    late.release();
    await answered;
    await settle(page);
    expect(await page.getByTestId(testId).textContent()).toContain(text);
    expect(await page.getByTestId(testId).textContent()).not.toContain(t.first);
    expect(await page.getByTestId('notice').textContent()).not.toContain(t.first);
  });

  it('moves a box on Supervisor by scanning the new zongpai, without losing the box', async () => {
    const { page } = await signedIn('sam');
    await open(page, 'Supervisor');
    await scan(page, 'BOX-1004');
    await page.getByTestId('box-no').getByText('BOX-1004').waitFor();
    const move = page.getByLabel('Move to zongpai');
    expect(await move.inputValue()).toBe('PLT-S1');
    await page.getByRole('button', { name: 'Scan the new zongpai' }).click();
    await page.locator('.scan-label', { hasText: 'Scan the new zongpai' }).waitFor();
    await scan(page, 'plt-s2');
    await notice(page, 'ok', 'PLT-S2');
    expect(await move.inputValue()).toBe('PLT-S2');
    expect(await page.getByTestId('box-no').textContent()).toBe('BOX-1004');
    // One scan fills it: the next is a box again.
    await page.locator('.scan-label', { hasText: 'Scan a box' }).waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    await notice(page, 'ok', 'Box BOX-1004 changed');
    await page.getByTestId('history').locator('li', { hasText: 'PLT-S2' }).getByText('Edited').waitFor();

    // Asked for, then not wanted: the step is left and a scan is a box again.
    await page.getByRole('button', { name: 'Scan the new zongpai' }).click();
    await page.getByRole('button', { name: 'Scan the new zongpai' }).click();
    await page.locator('.scan-label', { hasText: 'Scan a box' }).waitFor();
    await scan(page, 'BOX-1005');
    await page.getByTestId('box-no').getByText('BOX-1005').waitFor();
  });

  it('names the keyboard button in the operator language', async () => {
    const { page } = await signedIn('olga');
    await page.getByRole('button', { name: 'Keyboard', exact: true }).waitFor();
    await page.getByRole('button', { name: '中文' }).click();
    await page.getByRole('button', { name: '键盘', exact: true }).waitFor();
  });

  for (const [locale, viewport] of [
    ['en-US', { width: 360, height: 640 }],
    ['zh-CN', { width: 360, height: 640 }],
    ['en-US', { width: 480, height: 800 }],
  ] as const) {
    it(`fits ${viewport.width} x ${viewport.height} (${locale}) with the longest codes: nothing cut off, nothing sideways`, async () => {
      const { page } = await signedIn('sam', { locale, viewport });
      const fits = async (where: string) => expect(await page.evaluate(OVERFLOW), where).toEqual([]);
      const tab = (en: string, zh: string) => (locale === 'zh-CN' ? zh : en);

      // A prompt quoting a 32-character zongpai, and the button to register it.
      await open(page, tab('Pallet', '总牌'));
      await scan(page, LONG_ZONGPAI);
      await notice(page, 'warn', LONG_ZONGPAI);
      await fits('Pallet');

      // A location and a cargo of 32 characters.
      await open(page, tab('Locate', '定位'));
      await scan(page, LONG_LOCATION);
      await scan(page, LONG_BOX);
      await notice(page, 'ok', LONG_BOX);
      await fits('Locate');

      // A box whose items have codes of 32 and 64 characters.
      await page.route(/\/v1\/box\/info/, (route) =>
        route.fulfill({
          json: unboxedInfo({
            box_no: LONG_BOX,
            order_no: `SO-${LONG}`,
            customer_name: 'Shanghai Lianhua International Trading Company Limited',
            items: [
              {
                item_code: LONGEST_ITEM,
                item_name: 'Green tea 250 g',
                unit: 'tin',
                planned_quantity: 24,
                boxed_quantity: 0,
              },
              { item_code: `SKU-${LONG}`, item_name: null, unit: null, planned_quantity: 99999, boxed_quantity: 0 },
            ],
          }),
        }),
      );
      await open(page, tab('Box', '装箱'));
      await scan(page, LONG_BOX);
      await page.getByTestId('box-no').getByText(LONG_BOX).waitFor();
      await scan(page, LONGEST_ITEM);
      await notice(page, 'ok', LONGEST_ITEM);
      await fits('Box');
      for (const input of await page.locator('input.qty').all()) {
        const box = await input.boundingBox();
        expect(box !== null && box.x >= 0 && box.x + box.width <= viewport.width, 'quantity in view').toBe(true);
      }

      // A refusal of two or three lines leaves the scan field's label in sight above the field.
      await page.getByRole('button', { name: tab('Zongpai ›', '总牌 ›') }).click();
      await page.getByRole('button', { name: tab('Save short ›', '按不足保存 ›') }).click();
      await scan(page, 'PLT_1');
      await page.locator('[data-testid=notice][data-code=INVALID_ZONGPAI]').waitFor();
      await fits('Box refused');
      expect(await page.evaluate(inSight('.scan-label')), 'the label').toBe('in sight');
      expect(await page.evaluate(inSight('.scan-input')), 'the field').toBe('in sight');
    });
  }
});

if (!hasChromium) {
  it.skip('end-to-end tests skipped: no Chromium at /usr/bin/chromium (apt-get install chromium)', () => undefined);
}
