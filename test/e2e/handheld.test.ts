import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  DEMO_PASSWORDS,
  handheldsForSuite,
  hasChromium,
  holdRequests,
  notice,
  open,
  scan,
  screenshot,
  signIn,
  voidCurrentScan,
  type DemoUser,
} from './harness.ts';

/**
 * The handheld app in real Chromium against `npm start`, driven as an operator does: a wedge
 * scan is a burst of characters and Enter into whatever has the focus.
 */
/**
 * Waits until the service worker controls the page. Polled with one evaluation each time: a
 * string given to `waitForFunction` is evaluated again on every poll, and the app's
 * Content-Security-Policy (no 'unsafe-eval') refuses that after the first.
 */
const controlledByServiceWorker = (page: Page) =>
  expect.poll(() => page.evaluate('navigator.serviceWorker.controller !== null'), { timeout: 10_000 }).toBe(true);
/**
 * The screen scrolled back to its top, as the operator left it: Playwright's click scrolls a
 * button into view first, and a button of the sticky action bar is scrolled to where it would
 * stand without sticking (the end of the screen), which a finger's tap never does.
 */
const scrolledToTop = (page: Page) => page.evaluate("document.querySelector('main')?.scrollTo(0, 0)");
/** Opens Box and scans a box, waiting for its plan. */
const startBox = async (page: Page, box: string) => {
  await open(page, 'Box');
  await scan(page, box);
  await page.getByTestId('box-no').getByText(box.toUpperCase()).waitFor();
};
/** Scans an item `times` times and waits for the count's answer. */
const count = async (page: Page, item: string, times: number) => {
  for (let i = 0; i < times; i += 1) await scan(page, item);
  await notice(page, 'ok', `${item} +1`);
};

describe.skipIf(!hasChromium)('the handheld app', () => {
  const { fresh, signedIn } = handheldsForSuite();

  it('refuses a wrong password and signs the demo operator in', async () => {
    const { page } = await fresh();
    await signIn(page, 'olga', 'not-her-password');
    await notice(page, 'error', 'Wrong user name or password.');
    await screenshot(page, 'sign-in');
    await signIn(page, 'olga', DEMO_PASSWORDS.olga);
    await page.getByText('Scan a box').waitFor();
    expect(await page.locator('.who').textContent()).toBe('olga');
    // Signed in across a reload; signed out forgets the session.
    await page.reload();
    await page.getByText('Scan a box').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.reload();
    await page.getByLabel('User name').waitFor();
  });

  it('registers a pallet and boxes a box by scanning its items, then the zongpai', async () => {
    const { page } = await signedIn('olga');
    await open(page, 'Pallet');
    await scan(page, 'PLT-E2E-1');
    await notice(page, 'warn', 'PLT-E2E-1 is not registered yet');
    await page.getByRole('button', { name: 'Register PLT-E2E-1' }).click();
    await notice(page, 'ok', 'Zongpai PLT-E2E-1 registered');

    await startBox(page, 'box-1001');
    await count(page, 'SKU-CUP-06', 6);
    await page.getByLabel('Qty SKU-TEA-250').fill('24');
    await page.getByLabel('Qty SKU-TEA-250').press('Tab');
    expect(await page.getByLabel('Qty SKU-CUP-06').inputValue()).toBe('6');
    await screenshot(page, 'box');
    await page.getByRole('button', { name: 'Zongpai ›' }).click();
    // Off the Pallet screen an unregistered zongpai is a refusal, saying where to register it.
    await scan(page, 'PLT-NOT-THERE');
    await notice(page, 'error', 'Register the zongpai first (Pallet screen)');
    await scan(page, 'PLT-E2E-1');
    await notice(page, 'ok', 'Box BOX-1001 saved on PLT-E2E-1');
    await page.getByText('Scan a box').waitFor();

    await open(page, 'Pallet');
    await scan(page, 'PLT-E2E-1');
    await page.getByRole('cell', { name: 'BOX-1001' }).waitFor();
    expect(await page.getByRole('row', { name: /BOX-1001/ }).textContent()).toContain('30');
    await page.getByTestId('packing-list').getByText('SKU-CUP-06 × 6').waitFor();
    await screenshot(page, 'pallet');

    // The order's progress: one of its two boxes boxed, its lines planned against boxed.
    await open(page, 'Order');
    await scan(page, 'SO-NOPE');
    await notice(page, 'error', 'The ERP plans no box for this order');
    await scan(page, 'SO-24001');
    await page.getByTestId('order-progress').getByText('1 of 2 boxes boxed').waitFor();
    expect(
      await page
        .getByTestId('order-boxes')
        .getByRole('row', { name: /BOX-1001/ })
        .textContent(),
    ).toContain('PLT-E2E-1');
    expect(
      await page
        .getByTestId('order-totals')
        .getByRole('row', { name: /SKU-TEA-250/ })
        .textContent(),
    ).toContain('7224');
    await screenshot(page, 'order');
  });

  it('boxes a box in one scan, and shows a refused zongpai with what to do', async () => {
    const { page } = await signedIn('olga');
    await open(page, 'One scan');
    await scan(page, 'BOX-1002');
    await scan(page, 'PLT-NOT-THERE');
    await notice(page, 'error', 'Register the zongpai first');
    expect(await page.getByTestId('notice').getAttribute('data-code')).toBe('ZONGPAI_NOT_FOUND');
    // Still on the same box: the zongpai is scanned again.
    await scan(page, 'PLT-E2E-1');
    await notice(page, 'ok', 'Box BOX-1002 saved on PLT-E2E-1');
    await screenshot(page, 'one-scan');
    await scan(page, 'BOX-1002');
    await scan(page, 'PLT-E2E-1');
    await notice(page, 'error', 'a supervisor can edit or undo it');
  });

  it("shows a large order's or pallet's boxes a page at a time, the next page added on request", async () => {
    const { page } = await signedIn('olga');
    // The service pages these boxes by `limit`; a page of one box shows it with the demo data's two.
    const pageOfOne = (url: string) =>
      page.route(url, (route) => route.continue({ url: `${route.request().url()}?limit=1` }));
    await pageOfOne('**/v1/orders/SO-24001');
    await pageOfOne('**/v1/zongpai/PLT-E2E-1/packing-list');
    for (const [screen, code, table] of [
      ['Order', 'SO-24001', 'order-boxes'],
      ['Pallet', 'PLT-E2E-1', 'packing-list'],
    ] as const) {
      const row = (box: string) => page.getByTestId(table).getByRole('row', { name: new RegExp(box) });
      await open(page, screen);
      await scan(page, code);
      await row('BOX-1001').waitFor();
      expect(await row('BOX-1002').count(), screen).toBe(0);
      await page.getByRole('button', { name: 'More boxes (1 of 2 shown)' }).click();
      await row('BOX-1002').waitFor();
      expect(await row('BOX-1001').count(), screen).toBe(1);
      expect(await page.getByRole('button', { name: /More boxes/ }).count(), screen).toBe(0);
    }
  });

  it('keeps location scans made offline across a reload and uploads them once when the network is back', async () => {
    const { page, context } = await signedIn('olga');
    await controlledByServiceWorker(page).catch(async () => {
      await page.reload();
      await controlledByServiceWorker(page);
    });
    await open(page, 'Locate');
    await context.setOffline(true);
    await scan(page, 'A-01-01');
    await scan(page, 'BOX-1003');
    await scan(page, 'BOX-1004');
    // No box number: refused at the scan, offline too, never queued.
    await scan(page, 'x');
    await notice(page, 'error', 'This is not a box number');
    await page.locator('[data-testid=waiting][data-waiting="2"]').waitFor();
    await page.getByTestId('offline').waitFor();
    // Reloaded without a network: the service worker serves the app, IndexedDB still holds the scans.
    await page.reload();
    await page.locator('[data-testid=waiting][data-waiting="2"]').waitFor();
    await screenshot(page, 'locate-offline');
    await context.setOffline(false);
    await page.evaluate('window.dispatchEvent(new Event("online"))');
    await page.locator('[data-testid=waiting][data-waiting="0"]').waitFor({ timeout: 15_000 });
    // The two good scans are stored, nothing refused.
    expect(await page.getByTestId('refused-scan').count()).toBe(0);
    // What is at the location now: the two boxes just uploaded.
    await page.getByRole('button', { name: 'What is here: A-01-01' }).click();
    await notice(page, 'ok', '2 at A-01-01');
    expect(await page.getByTestId('here').locator('b').allTextContents()).toEqual(['BOX-1003', 'BOX-1004']);
    await screenshot(page, 'locate');

    await open(page, 'Find');
    await scan(page, 'BOX-1003');
    await page.getByTestId('current').getByText('A-01-01').waitFor();
    expect(await page.locator('.history li').count()).toBe(1);
    // An operator sees no void button.
    expect(await page.getByRole('button', { name: 'Void' }).count()).toBe(0);
    await screenshot(page, 'find');
  });

  it('lets a supervisor correct a box, undo it and see its history, and close the pallet', async () => {
    const { page } = await signedIn('sam');
    await open(page, 'Supervisor');
    await scan(page, 'BOX-1001');
    await page.locator('[data-testid=box-status][data-status=BOXED]', { hasText: 'Boxed' }).waitFor();
    await page.getByLabel('Qty SKU-CUP-06').fill('5');
    await page.getByRole('button', { name: 'Edit' }).click();
    await notice(page, 'ok', 'Box BOX-1001 changed');
    await page.getByTestId('history').getByText('Edited').waitFor();
    await scrolledToTop(page);
    await screenshot(page, 'supervisor');
    await page.getByRole('button', { name: 'Undo boxing' }).click();
    await page.getByRole('button', { name: 'Tap again to undo' }).click();
    await notice(page, 'ok', 'Box BOX-1001 undone');
    await page.getByTestId('box-status').getByText('Not boxed').waitFor();
    expect(await page.getByTestId('history').locator('li b').allTextContents()).toEqual(['Saved', 'Edited', 'Undone']);

    // The pallet from the list of open zongpais: closed, then reopened to correct a mistake.
    await open(page, 'Pallet');
    await page
      .getByTestId('zongpais')
      .getByRole('button', { name: /PLT-E2E-1/ })
      .click();
    await page.getByTestId('zongpai-no').getByText('PLT-E2E-1').waitFor();
    await page.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Tap again to close' }).click();
    await page.getByTestId('zongpai-status').getByText('Closed').waitFor();
    await page.getByRole('button', { name: 'Reopen' }).click();
    await page.getByRole('button', { name: 'Tap again to reopen' }).click();
    await notice(page, 'ok', 'PLT-E2E-1 reopened');
    await page.getByTestId('zongpai-status').getByText('Open').waitFor();
    // Pictured once Close takes taps again (it ignores them for a second after it changed).
    await expect
      .poll(() => page.getByRole('button', { name: 'Close', exact: true }).isEnabled(), { timeout: 10_000 })
      .toBe(true);
    await scrolledToTop(page);
    await screenshot(page, 'pallet-supervisor');

    // A wrong location scan voided: kept in the history, marked, no longer counted at the location.
    await voidCurrentScan(page, 'BOX-1004', 'A-01-01');
    await page.locator('.history li[data-voided=true]', { hasText: 'Voided by sam' }).waitFor();
    await page.getByTestId('current').getByText('Nowhere: every scan was voided').waitFor();
    await screenshot(page, 'void');
    await open(page, 'Locate');
    await scan(page, 'A-01-01');
    await page.getByRole('button', { name: 'What is here: A-01-01' }).click();
    await notice(page, 'ok', '1 at A-01-01');
    expect(await page.getByTestId('here').locator('b').allTextContents()).toEqual(['BOX-1003']);
  });

  it('hides the supervisor screen from an operator', async () => {
    const { page } = await signedIn('olga');
    await page.getByText('Scan a box').waitFor();
    expect(await page.getByRole('link', { name: 'Supervisor' }).count()).toBe(0);
  });

  it('has the scan field focused the moment a screen appears, so a scan right after a tap on a tab is taken whole', async () => {
    const { page } = await signedIn('olga');
    await page.getByText('Scan a box').waitFor();
    for (const [screen, label] of [
      ['find', 'Find'],
      ['order', 'Order'],
      ['locate', 'Locate'],
      ['oneScan', 'One scan'],
      ['pallet', 'Pallet'],
      ['box', 'Box'],
    ] as const) {
      // What has the focus when the screen's section is first in the page: a wedge's first key
      // arrives there if the scanner fires at that moment.
      const focused = await page.evaluate(`new Promise((resolve) => {
        const seen = new MutationObserver(() => {
          if (document.querySelector('section[aria-label="${label}"]') === null) return;
          seen.disconnect();
          resolve(document.activeElement?.className ?? 'nothing');
        });
        seen.observe(document.body, { childList: true, subtree: true });
        location.hash = '#/${screen}';
      })`);
      expect(focused, label).toBe('scan-input');
    }
    await open(page, 'Find');
    await scan(page, 'BOX-9999');
    await notice(page, 'error', 'never scanned at a location');
  });

  it('speaks Chinese on a Chinese device: its own words and the service messages', async () => {
    const { page } = await signedIn('olga', { locale: 'zh-CN' });
    await open(page, '查找');
    await scan(page, 'BOX-9999');
    await notice(page, 'error', '从未在库位扫描过');
    const text = await page.getByTestId('notice').textContent();
    expect(text).toMatch(/\p{Script=Han}/u);
    await screenshot(page, 'chinese');
    await page.getByRole('button', { name: 'English' }).click();
    await scan(page, 'BOX-9999');
    await notice(page, 'error', 'never scanned at a location');
  });

  it('keeps a wedge scan out of the focused quantity field or toggle, and lets a person type a quantity', async () => {
    const { page } = await signedIn('olga');
    await startBox(page, 'BOX-1003');
    await count(page, 'SKU-RICE-5K', 2);
    // A person types a quantity at human speed: it goes into the field.
    const rice = page.getByLabel('Qty SKU-RICE-5K');
    await rice.fill('');
    await rice.click();
    await page.keyboard.type('12', { delay: 100 });
    // The wedge's burst and Enter, with the quantity field focused, reach the scan, even on a
    // handheld busy when the burst's first key arrives (here for 150 ms): the keys after it wait,
    // but keep the times the wedge sent them at.
    await page.evaluate(`{
      const busy = () => {
        document.removeEventListener('keydown', busy, true);
        const until = performance.now() + 150;
        while (performance.now() < until);
      };
      document.addEventListener('keydown', busy, true);
    }`);
    await scan(page, 'SKU-OIL-1L');
    await notice(page, 'ok', 'SKU-OIL-1L +1');
    expect(await page.getByLabel('Qty SKU-OIL-1L').inputValue()).toBe('1');
    expect(await rice.inputValue()).toBe('12');
    await scan(page, 'SKU-OIL-1L');
    await notice(page, 'ok', 'SKU-OIL-1L +1');
    expect(await page.getByLabel('Qty SKU-OIL-1L').inputValue()).toBe('2');
    expect(await rice.inputValue()).toBe('12');
    await page.getByRole('button', { name: 'Next box' }).click();

    // A tapped toggle keeps its state; the scan after it is recorded.
    await open(page, 'Locate');
    await scan(page, 'G-07-07');
    await notice(page, 'ok', 'Location G-07-07');
    const offShelf = page.getByLabel('Off shelf');
    await offShelf.click();
    await scan(page, 'BOX-1003');
    await notice(page, 'ok', 'BOX-1003 at G-07-07');
    expect(await offShelf.isChecked()).toBe(true);

    await open(page, 'Pallet');
    await page.getByLabel('Open only').click();
    await scan(page, 'PLT-E2E-1');
    await page.getByTestId('zongpai-no').getByText('PLT-E2E-1').waitFor();
  });

  it('refuses, with the error tone, a scan made while a One scan save waits for the service', async () => {
    const { page } = await signedIn('olga');
    const simpleSave = await holdRequests(page, '**/v1/box/simple');
    await open(page, 'One scan');
    await scan(page, 'BOX-1005');
    await scan(page, 'PLT-E2E-1');
    await page.getByRole('status').getByText('Saving…').waitFor();
    await scan(page, 'BOX-1004');
    await notice(page, 'error', 'BOX-1004 not taken');
    expect(await page.getByTestId('notice').getAttribute('data-code')).toBe('BUSY');
    simpleSave.release();
    await notice(page, 'ok', 'Box BOX-1005 saved on PLT-E2E-1');
    await page.getByText('Scan a box').waitFor();

    // The Box screen the same: the scan made during the save is refused, the save goes on.
    const save = await holdRequests(page, '**/v1/box');
    await startBox(page, 'BOX-1004');
    for (let i = 0; i < 4; i += 1) await scan(page, 'SKU-LAMP-01');
    await page.getByRole('button', { name: 'Zongpai ›' }).click();
    await scan(page, 'PLT-E2E-1');
    await page.getByRole('status').getByText('Saving…').waitFor();
    await scan(page, 'BOX-1003');
    await notice(page, 'error', 'BOX-1003 not taken');
    save.release();
    await notice(page, 'ok', 'Box BOX-1004 saved on PLT-E2E-1');
    await page.getByText('Scan a box').waitFor();
  });

  it("takes a supervisor's wedge scan while the move field has the focus", async () => {
    const { page } = await signedIn('sam');
    await open(page, 'Supervisor');
    await scan(page, 'BOX-1002');
    await page.getByTestId('box-status').getByText('Boxed').waitFor();
    await page.getByLabel('Move to zongpai').fill('');
    await page.getByLabel('Move to zongpai').click();
    await page.keyboard.type('PLT-0002', { delay: 100 });
    expect(await page.getByLabel('Move to zongpai').inputValue()).toBe('PLT-0002');
    await scan(page, 'BOX-1005');
    await page.getByTestId('box-no').getByText('BOX-1005').waitFor();
  });

  it('uploads offline location scans only for the operator who made them, after a warning at sign-out', async () => {
    const { page, context } = await signedIn('olga');
    await open(page, 'Locate');
    await scan(page, 'E-05-05');
    await context.setOffline(true);
    await scan(page, 'BOX-1004');
    await page.locator('[data-testid=waiting][data-waiting="1"]').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await notice(page, 'warn', '1 scan not uploaded yet');
    await page.getByRole('button', { name: 'Tap again to sign out' }).click();
    await page.getByLabel('User name').waitFor();
    await context.setOffline(false);

    // Sam signs in on the same handheld: olga's scan waits for her.
    const signInAtLocate = async (user: DemoUser, othersWaiting: number) => {
      await signIn(page, user, DEMO_PASSWORDS[user]);
      await open(page, 'Locate');
      await page.locator(`[data-testid=waiting][data-waiting="0"][data-others="${othersWaiting}"]`).waitFor();
    };
    await signInAtLocate('sam', 1);
    await open(page, 'Find');
    await scan(page, 'BOX-1004');
    await page.getByTestId('current').getByText('Nowhere: every scan was voided').waitFor();
    expect(await page.locator('.history li', { hasText: 'E-05-05' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await signInAtLocate('olga', 0);
    await open(page, 'Find');
    await scan(page, 'BOX-1004');
    await page.getByTestId('current').getByText('E-05-05').waitFor();
    await page.locator('.history li', { hasText: 'E-05-05' }).getByText('by olga').waitFor();
  });

  it('answers a Locate scan the service refuses with the error tone and its reason, and refuses a bad location at once', async () => {
    const { page } = await signedIn('olga');
    await open(page, 'Locate');
    await scan(page, 'B-02-01');
    await notice(page, 'ok', 'Location B-02-01');
    // No box number: refused at the scan, in the operator's words.
    await scan(page, 'bad code!');
    await notice(page, 'error', 'This is not a box number');
    expect(await page.getByTestId('notice').getAttribute('data-code')).toBe('INVALID_BOX_NO');
    await page.getByTestId('notice').getByText('BAD CODE! at B-02-01 refused').waitFor();
    // A box label scanned for the location: online, the service is asked and it is refused at once.
    await page.getByTestId('location').click();
    await scan(page, 'BOX-1001');
    await notice(page, 'error', 'This is cargo, not a location');
    expect(await page.getByTestId('location').count()).toBe(0);
    // Offline, one this device never saw is taken for the location; the service refuses the
    // scans made there when they upload, said in the app's words.
    await page.context().setOffline(true);
    await scan(page, 'BOX-1005');
    await notice(page, 'ok', 'Location BOX-1005');
    await scan(page, 'BOX-1003');
    await page.context().setOffline(false);
    await page.evaluate('window.dispatchEvent(new Event("online"))');
    await notice(page, 'error', 'BOX-1003 at BOX-1005 refused');
    expect(await page.getByTestId('notice').getAttribute('data-code')).toBe('LOCATION_IS_CARGO');
    await page.getByTestId('refused-scan').getByText('Scan the location label').waitFor();
    expect(await page.getByTestId('refused-scan').textContent()).toMatch(/not a location/);
    expect(await page.getByTestId('refused-scan').textContent()).not.toContain('records[');
    // Refused as a location, BOX-1005 is no longer the current one.
    await page.getByText('Scan a location').waitFor();
    expect(await page.getByTestId('location').count()).toBe(0);

    // A location code the service refuses: refused as the location, asked for again.
    await scan(page, 'A_01');
    await notice(page, 'error', 'This is not a location code');
    await page.getByTestId('notice').getByText('Scan the location label again.').waitFor();
    expect(await page.getByTestId('notice').getAttribute('data-code')).toBe('INVALID_LOCATION_CODE');
    await page.getByText('Scan a location').waitFor();
  });

  it('does not send a box with nothing counted: it asks for at least one item', async () => {
    const { page } = await signedIn('olga', { locale: 'zh-CN' });
    const saves: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/v1/box')) saves.push(request.url());
    });
    await open(page, '装箱');
    await scan(page, 'BOX-1001');
    await page.getByTestId('box-no').getByText('BOX-1001').waitFor();
    await page.getByRole('button', { name: '总牌 ›' }).click();
    await scan(page, 'PLT-E2E-1');
    await notice(page, 'error', '至少清点一件物料');
    await page.getByText('扫描物料').waitFor();
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('button', { name: 'Zongpai ›' }).click();
    await scan(page, 'PLT-E2E-1');
    await notice(page, 'error', 'Count at least one item');
    await page.getByText('Scan an item').waitFor();
    expect(saves).toEqual([]);
  });

  it('keeps the counted items of a box across a tab switch, and refuses an item scanned before the plan is there', async () => {
    const { page } = await signedIn('olga');
    await startBox(page, 'BOX-1003');
    await count(page, 'SKU-OIL-1L', 2);
    await open(page, 'Find');
    await open(page, 'Box');
    expect(await page.getByLabel('Qty SKU-OIL-1L').inputValue()).toBe('2');
    await page.getByRole('button', { name: 'Next box' }).click();

    // The plan is slow to come: an item scanned meanwhile is not taken for a box.
    const plan = await holdRequests(page, '**/v1/box/info**');
    await scan(page, 'BOX-1001');
    await scan(page, 'SKU-CUP-06');
    await notice(page, 'error', 'SKU-CUP-06 not taken');
    plan.release();
    await page.getByTestId('box-no').getByText('BOX-1001').waitFor();
    await notice(page, 'ok', 'BOX-1001');
    await scan(page, 'SKU-CUP-06');
    await notice(page, 'ok', 'SKU-CUP-06 +1');
    expect(await page.getByLabel('Qty SKU-CUP-06').inputValue()).toBe('1');
  });

  it("shows a box's status and history in the operator's language", async () => {
    const { page } = await signedIn('sam', { locale: 'zh-CN' });
    await open(page, '主管');
    await scan(page, 'BOX-1002');
    await page.getByTestId('box-status').getByText('已装箱').waitFor();
    expect(await page.getByTestId('history').locator('li b').allTextContents()).toEqual(['保存']);
  });

  it('fits the viewport: no loading text left, the tab bar covers nothing', async () => {
    const { page } = await signedIn('sam', { locale: 'zh-CN' });
    await open(page, '装箱');
    await scan(page, 'BOX-1001');
    await page.getByTestId('box-no').getByText('BOX-1001').waitFor();
    expect(await page.locator('.boot').count()).toBe(0);
    expect(await page.evaluate('document.documentElement.scrollHeight')).toBeLessThanOrEqual(640);
    const button = page.getByRole('button', { name: '总牌 ›' });
    await button.scrollIntoViewIfNeeded();
    const box = await button.boundingBox();
    const tabs = await page.locator('nav.tabs').boundingBox();
    // Scrolled into view, it ends where the tab bar begins (within a fraction of a pixel), not under it.
    expect(box !== null && tabs !== null && box.y + box.height <= tabs.y + 1).toBe(true);
  });
});

if (!hasChromium) {
  it.skip('end-to-end tests skipped: no Chromium at /usr/bin/chromium (apt-get install chromium)', () => undefined);
}
