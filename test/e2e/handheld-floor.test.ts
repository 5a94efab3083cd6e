import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORDS, handheldsForSuite, hasChromium, notice, open, scan, signIn } from './harness.ts';

/**
 * The handheld on a real shift: it knows the location register (offline too) and tells a shelf
 * label from a box label at the scan, speaks to the operator in their words and language, and
 * keeps its main action and the operator's name on a 360 x 640 screen.
 */
/** The next fetch of the location register, answered. */
const registerFetched = (page: Page) =>
  page.waitForResponse((response) => response.url().includes('/v1/cargo/locations?') && response.ok());

/** How many locations the device's copy of the register holds (in IndexedDB). */
const kept = (page: Page) =>
  page.evaluate(`new Promise((resolve) => {
    const open = indexedDB.open('cargo-register');
    open.onsuccess = () => {
      const count = open.result.transaction('locations').objectStore('locations').count();
      count.onsuccess = () => { resolve(count.result); open.result.close(); };
    };
  })`);

const waiting = (page: Page, n: number) => page.locator(`[data-testid=waiting][data-waiting="${n}"]`).waitFor();

describe.skipIf(!hasChromium)('the handheld on the floor', () => {
  const { fresh, signedIn } = handheldsForSuite();

  it('keeps the location register on the device and tells locations from cargo at the scan, also offline', async () => {
    const { page, context } = await signedIn('olga');
    await open(page, 'Locate');
    // Fetched at sign-in, kept on the device: the demo data registers nine locations.
    await expect.poll(() => kept(page), { timeout: 10_000 }).toBe(9);
    await context.setOffline(true);

    // A shelf label: the current location, with its own tone, its kind and zone; no off-shelf switch.
    await scan(page, 'A-01-01');
    await page.locator('[data-testid=notice][data-tone=place]', { hasText: 'Location A-01-01' }).waitFor();
    await page.getByTestId('location-kind').getByText('Shelf').waitFor();
    expect(await page.getByTestId('location-kind').textContent()).toContain('zone');
    expect(await page.getByLabel('Off shelf').count()).toBe(0);
    await scan(page, 'BOX-1003');
    await notice(page, 'ok', 'BOX-1003 at A-01-01');
    await waiting(page, 1);

    // Another shelf label scanned where cargo was expected: never queued, the location switches.
    await scan(page, 'a-01-02');
    await page.locator('[data-testid=notice][data-tone=place]', { hasText: 'Location A-01-02' }).waitFor();
    await waiting(page, 1);

    // No box number at all: refused at the scan, in the operator's words, nothing queued.
    await scan(page, 'HELLO WORLD!!');
    await notice(page, 'error', 'This is not a box number');
    expect(await page.getByTestId('notice').textContent()).not.toMatch(/box_no|A-Z|4-32/);
    // A blocked location: refused at the scan, the current location stays.
    await scan(page, 'QC-HOLD');
    await notice(page, 'error', 'This location is blocked');
    expect(await page.getByTestId('location').textContent()).toContain('A-01-02');
    // A dock: off the shelf by the register.
    await scan(page, 'DOCK-3');
    await page.locator('[data-testid=notice][data-tone=place]', { hasText: 'Location DOCK-3' }).waitFor();
    await page.getByTestId('location-kind').getByText('Dock').waitFor();
    await scan(page, 'BOX-1004');
    await notice(page, 'ok', 'BOX-1004 at DOCK-3');
    await waiting(page, 2);
    expect(await page.getByTestId('waiting').textContent()).toBe('2 scans waiting to upload');

    // On Find a location label is refused at once, offline too.
    await open(page, 'Find');
    await scan(page, 'B-01-01');
    await notice(page, 'error', 'This is a location, not cargo');

    // Back online: both scans stored, none refused, the register fetched again.
    const again = registerFetched(page);
    await context.setOffline(false);
    await page.evaluate('window.dispatchEvent(new Event("online"))');
    await again;
    await open(page, 'Locate');
    await waiting(page, 0);
    expect(await page.getByTestId('refused-scan').count()).toBe(0);
    await open(page, 'Find');
    await scan(page, 'BOX-1004');
    await page.getByTestId('current').getByText('DOCK-3').waitFor();
    await page.getByTestId('current').getByText('Off shelf').waitFor();
  });

  it('fetches the register again every 15 minutes: a location registered after sign-in is known then, not before', async () => {
    // The device's clock is the test's (Playwright's fake timers), installed before the app starts.
    const { page } = await fresh();
    await page.clock.install();
    await page.reload();
    let fetches = 0;
    page.on('request', (request) => {
      if (request.url().includes('/v1/cargo/locations?')) fetches += 1;
    });
    await signIn(page, 'olga', DEMO_PASSWORDS.olga);
    await page.locator('.who', { hasText: 'olga' }).waitFor();
    await expect.poll(() => kept(page), { timeout: 10_000 }).toBe(9);
    expect(fetches).toBe(1);

    // A supervisor registers a new dock on the service after olga signed in.
    const supervisor = await signedIn('sam');
    const samToken = await supervisor.page.evaluate(
      "JSON.parse(localStorage.getItem('cargo.session') ?? '{}').idToken",
    );
    const put = await supervisor.page.request.put(new URL('/v1/cargo/locations/DOCK-9', page.url()).toString(), {
      headers: { authorization: `Bearer ${String(samToken)}` },
      data: { kind: 'DOCK', zone: 'DISPATCH', description: 'Dock door 9' },
    });
    expect(put.status()).toBe(201);

    // 14 minutes on: the copy is the one of sign-in; DOCK-9 is an unregistered location.
    await page.clock.fastForward('14:00');
    await open(page, 'Locate');
    await scan(page, 'DOCK-9');
    await notice(page, 'ok', 'Location DOCK-9');
    await page.getByTestId('location-kind').getByText('Not in the location register').waitFor();
    expect(fetches).toBe(1);
    expect(await kept(page)).toBe(9);

    // 15 minutes after sign-in: fetched again, DOCK-9 is a dock of the register.
    const again = registerFetched(page);
    await page.clock.fastForward('01:01');
    await again;
    await expect.poll(() => kept(page), { timeout: 10_000 }).toBe(10);
    expect(fetches).toBe(2);
    await scan(page, 'DOCK-9');
    await page.locator('[data-testid=notice][data-tone=place]', { hasText: 'Location DOCK-9' }).waitFor();
    await page.getByTestId('location-kind').getByText('Dock').waitFor();
  });

  it('refuses a box or zongpai label scanned where the first location is expected, online by asking, offline from what the device saw', async () => {
    const { page, context } = await signedIn('olga');
    await open(page, 'Locate');
    // Online: a box of the ERP plan the device never saw is asked about, refused, the location left unset.
    await scan(page, 'BOX-1002');
    await notice(page, 'error', 'This is cargo, not a location');
    await page.locator('.scan-label', { hasText: 'Scan a location' }).waitFor();
    expect(await page.getByTestId('location').count()).toBe(0);

    // A box looked up on Box and a zongpai listed on Pallet, then offline: each refused at the scan.
    await open(page, 'Pallet');
    await scan(page, 'PLT-LOC-1');
    await page.getByRole('button', { name: 'Register PLT-LOC-1' }).click();
    await notice(page, 'ok', 'Zongpai PLT-LOC-1 registered');
    await open(page, 'Box');
    await scan(page, 'BOX-1003');
    await page.getByTestId('box-no').getByText('BOX-1003').waitFor();
    await context.setOffline(true);
    await open(page, 'Locate');
    for (const cargo of ['BOX-1003', 'plt-loc-1', 'BOX-1002']) {
      await scan(page, cargo);
      await notice(page, 'error', 'This is cargo, not a location');
      expect(await page.getByTestId('location').count(), cargo).toBe(0);
    }
    // A location that is neither, unregistered: taken; then the box is cargo there.
    await scan(page, 'G-09-09');
    await notice(page, 'ok', 'Location G-09-09');
    await scan(page, 'BOX-1003');
    await notice(page, 'ok', 'BOX-1003 at G-09-09');
    await waiting(page, 1);
    await context.setOffline(false);
    await page.evaluate('window.dispatchEvent(new Event("online"))');
    await waiting(page, 0);
  });

  it('lets go of a location the service refused: the operator is asked for a location, and no later scan is queued there', async () => {
    const { page, context } = await signedIn('olga');
    await open(page, 'Locate');
    // Offline, a box label this device never saw is taken for the location; two boxes are scanned there.
    await context.setOffline(true);
    await scan(page, 'BOX-1005');
    await notice(page, 'ok', 'Location BOX-1005');
    for (const cargo of ['BOX-R-1', 'BOX-R-2']) {
      await scan(page, cargo);
      await notice(page, 'ok', `${cargo} at BOX-1005`);
    }
    await waiting(page, 2);
    // The network comes back while the operator is on another screen: both are refused for the location.
    await open(page, 'Find');
    await context.setOffline(false);
    await page.evaluate('window.dispatchEvent(new Event("online"))');
    // Told as each is refused (the service names the first of a backlog, the other is sent again).
    await notice(page, 'error', /BOX-R-\d at BOX-1005 refused/);
    expect(await page.getByTestId('notice').getAttribute('data-code')).toBe('LOCATION_IS_CARGO');
    expect(await page.getByTestId('notice').textContent()).toContain('Scan the location label');

    // BOX-1005 is no longer the location: a location is asked for, the refused scans stay listed.
    await open(page, 'Locate');
    await page.locator('.scan-label', { hasText: 'Scan a location' }).waitFor();
    expect(await page.getByTestId('location').count()).toBe(0);
    await expect.poll(() => page.getByTestId('refused-scan').count()).toBe(2);
    // The next box scanned is not queued at BOX-1005 (nor taken for a location: it is cargo).
    await scan(page, 'BOX-1004');
    await notice(page, 'error', 'This is cargo, not a location');
    await waiting(page, 0);
    expect(await page.getByTestId('location').count()).toBe(0);
    // A location scanned: the box is located there, and nothing more is refused.
    await scan(page, 'A-01-03');
    await page.locator('[data-testid=notice][data-tone=place]', { hasText: 'Location A-01-03' }).waitFor();
    await scan(page, 'BOX-1004');
    await notice(page, 'ok', 'BOX-1004 at A-01-03');
    await waiting(page, 0);
    expect(await page.getByTestId('refused-scan').count()).toBe(2);
    // Kept across a reload: the location chosen after the refusal stays the current one.
    await page.reload();
    await page.getByTestId('location').getByText('A-01-03').waitFor();
    expect(await page.getByTestId('refused-scan').count()).toBe(2);
  });

  it('answers the last scan: a box kept while the device commits slowly does not cover the refusal of the code scanned after it', async () => {
    const { page, context } = await signedIn('olga');
    // A handheld whose storage is slow: each scan's transaction commits 800 ms late.
    await context.addInitScript(`{
      const listen = IDBTransaction.prototype.addEventListener;
      IDBTransaction.prototype.addEventListener = function (type, listener, options) {
        if (type !== 'complete' || this.mode !== 'readwrite' || !this.objectStoreNames.contains('scans'))
          return listen.call(this, type, listener, options);
        return listen.call(this, type, (event) => setTimeout(() => listener.call(this, event), 800), options);
      };
    }`);
    await page.reload();
    await open(page, 'Locate');
    await scan(page, 'A-01-01');
    // Its own tone once the app has read the register back after the reload, the plain one before: either way the place.
    await page.locator('[data-testid=notice]', { hasText: 'Location A-01-01' }).waitFor();
    const uploaded = page.waitForResponse(
      (response) => response.url().endsWith('/v1/cargo/location') && response.request().method() === 'POST',
    );
    await scan(page, 'BOX-1003');
    await scan(page, 'x');
    await notice(page, 'error', 'This is not a box number');
    // BOX-1003 is kept and uploaded after the refusal was told: the banner still answers the last scan.
    await uploaded;
    const banner = page.getByTestId('notice');
    expect(await banner.getAttribute('data-tone')).toBe('error');
    expect(await banner.textContent()).toContain('This is not a box number');
  });

  it("answers the last scan on Find too: a location label refused at once is not covered by the cargo's late answer before it", async () => {
    const { page, context } = await signedIn('olga');
    // A slow network for the cargo's location: each answer arrives 800 ms late.
    await context.addInitScript(`{
      const send = window.fetch;
      window.fetch = (input, init) => {
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        const late = url.includes('/v1/cargo/location/') ? new Promise((resolve) => setTimeout(resolve, 800)) : Promise.resolve();
        return late.then(() => send(input, init));
      };
    }`);
    await page.reload();
    await open(page, 'Find');
    const answered = page.waitForResponse((response) => response.url().includes('/v1/cargo/location/BOX-1001'));
    await scan(page, 'BOX-1001');
    await scan(page, 'A-01-01');
    await notice(page, 'error', 'This is a location, not cargo');
    await answered;
    // The answer is in: the banner still answers the shelf label scanned last.
    await page.evaluate('new Promise((resolve) => setTimeout(resolve, 200))');
    const banner = page.getByTestId('notice');
    expect(await banner.getAttribute('data-tone')).toBe('error');
    expect(await banner.textContent()).toContain('This is a location, not cargo');
  });

  it("says what happened in the operator's words and language, with the service's message one tap away", async () => {
    const { page } = await signedIn('olga');
    // A box boxed on a zongpai that was never located: no refusal, its zongpai shown.
    await open(page, 'Pallet');
    await scan(page, 'PLT-F-1');
    await page.getByRole('button', { name: 'Register PLT-F-1' }).click();
    await notice(page, 'ok', 'Zongpai PLT-F-1 registered');
    await open(page, 'One scan');
    await scan(page, 'BOX-1005');
    await scan(page, 'PLT-F-1');
    await notice(page, 'ok', 'Box BOX-1005 saved on PLT-F-1');
    await open(page, 'Find');
    await scan(page, 'BOX-1005');
    await page.locator('[data-testid=notice][data-tone=warn]', { hasText: 'Not scanned at a location yet' }).waitFor();
    await page.getByTestId('unplaced-zongpai').getByText('PLT-F-1').waitFor();

    // Cargo never seen: a headline, what to do, and the service's own words behind Details.
    await scan(page, 'BOX-9999');
    await notice(page, 'error', 'Never scanned at a location');
    expect(await page.getByTestId('server-message').isVisible()).toBe(false);
    await page.getByText('Details', { exact: true }).click();
    await page.getByTestId('server-message').getByText('BOX-9999').waitFor();

    // In Chinese: the headline, the date of a scan written as Chinese writes it, a not-boxed box 未装箱.
    await page.getByRole('button', { name: '中文' }).click();
    await scan(page, 'BOX-9999');
    await notice(page, 'error', '从未在库位扫描过');
    await page.getByText('详情', { exact: true }).waitFor();
    await open(page, '定位');
    await scan(page, 'STAGE-2');
    await scan(page, 'BOX-1001');
    await notice(page, 'ok', 'BOX-1001 在 STAGE-2');
    await page.locator('[data-testid=waiting][data-waiting="0"]').waitFor();
    await open(page, '查找');
    await scan(page, 'BOX-1001');
    await page.getByTestId('current').getByText('STAGE-2').waitFor();
    const when = await page.locator('.history li .muted').first().textContent();
    expect(when).toMatch(/\d{4}\/\d{1,2}\/\d{1,2}/);
    expect(when).not.toMatch(/AM|PM/);
    await open(page, '订单');
    await scan(page, 'SO-24001');
    await page.getByTestId('order-boxes').getByText('未装箱').first().waitFor();
    expect(await page.getByTestId('order-boxes').textContent()).not.toContain('开放');
  });

  // Box and One scan tell a box from what cannot be one alike (web/src/register.ts' classifyBoxScan).
  for (const screen of ['One scan', 'Box'] as const)
    it(`refuses on ${screen}, at once and offline too, a scan that is no box number or is a shelf label`, async () => {
      const { page, context } = await signedIn('olga');
      // The register is on the device (the demo's nine locations, and any a test above registered).
      await expect.poll(() => kept(page), { timeout: 10_000 }).toBeGreaterThanOrEqual(9);
      await open(page, screen);
      // Refused on the device: not one of them is asked about.
      const asked: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/v1/box')) asked.push(request.url());
      });
      for (const offline of [false, true]) {
        await context.setOffline(offline);
        for (const [code, refusal, headline] of [
          ['hello world!', 'INVALID_BOX_NO', 'This is not a box number'],
          ['A-01-01', 'CARGO_IS_LOCATION', 'This is a location, not cargo'],
        ] as const) {
          await scan(page, code);
          await notice(page, 'error', headline);
          expect(await page.getByTestId('notice').getAttribute('data-code'), code).toBe(refusal);
          expect(await page.getByTestId('box-no').count(), code).toBe(0);
          expect(await page.locator('.scan-label').textContent(), code).toBe('Scan a box');
        }
      }
      expect(asked).toEqual([]);
      await context.setOffline(false);
      // A box is taken: on One scan to be saved as planned on a zongpai, on Box with its plan.
      await scan(page, '(00)106141411234567897');
      await page.getByTestId('box-no').getByText('106141411234567897').waitFor();
      await page.locator('[data-testid=notice][data-tone=ok]').waitFor();
    });

  it('says what happened and what to do without saying it twice, for a blocked location and for a box label as a location', async () => {
    const { page } = await signedIn('olga');
    // A supervisor blocks B-01-02 after olga signed in: her copy of the register says it is open.
    const supervisor = await signedIn('sam');
    const samToken = await supervisor.page.evaluate(
      "JSON.parse(localStorage.getItem('cargo.session') ?? '{}').idToken",
    );
    const put = await supervisor.page.request.put(new URL('/v1/cargo/locations/B-01-02', page.url()).toString(), {
      headers: { authorization: `Bearer ${String(samToken)}` },
      data: { kind: 'SHELF', zone: 'B', blocked: true },
    });
    expect(put.ok()).toBe(true);
    await open(page, 'Locate');
    await scan(page, 'B-01-02');
    await page.locator('[data-testid=notice][data-tone=place]', { hasText: 'Location B-01-02' }).waitFor();
    await scan(page, 'BOX-1005');
    await notice(page, 'error', 'BOX-1005 at B-01-02 refused');
    const said = async () => (await page.getByTestId('notice').locator('p').allTextContents()).join(' | ');
    const blocked = await said();
    expect(blocked).toContain('This location is blocked');
    expect(blocked.match(/blocked/g)?.length, blocked).toBe(1);
    expect(blocked).toContain('Put the cargo somewhere else');
    // The blocked location is let go: a location is asked for.
    await page.locator('.scan-label', { hasText: 'Scan a location' }).waitFor();
    expect(await page.getByTestId('location').count()).toBe(0);

    // A box label scanned as the location, refused by the service: cargo is said once.
    await scan(page, 'BOX-1001');
    await notice(page, 'error', 'This is cargo, not a location');
    const cargo = await said();
    expect(cargo.match(/not a location/g)?.length, cargo).toBe(1);
    expect(cargo).toContain('Scan the location label');
  });

  it('keeps the main action, one row of tabs and the whole name on a 360 x 640 screen, offline too', async () => {
    const { page, context } = await signedIn('sam');
    await open(page, 'Locate');
    // No empty banner before the first answer.
    expect((await page.getByTestId('notice').boundingBox())?.height ?? 0).toBeLessThan(2);
    // Seven tabs in one row.
    const tops = await page
      .locator('nav.tabs a')
      .evaluateAll((links) => links.map((a) => Math.round(a.getBoundingClientRect().top)));
    expect(tops.length).toBe(7);
    expect(new Set(tops).size).toBe(1);
    await context.setOffline(true);
    await scan(page, 'G-07-07');
    for (let i = 0; i < 6; i += 1) await scan(page, `BOX-F-${i}`);
    await waiting(page, 6);
    await page.getByTestId('offline').waitFor();
    // The action (the location and its switch) on screen above the tabs, however long the screen.
    const action = await page.getByTestId('location').boundingBox();
    const tabs = await page.locator('nav.tabs').boundingBox();
    expect(action !== null && tabs !== null && action.y >= 0 && action.y + action.height <= tabs.y + 1).toBe(true);
    expect(await page.getByLabel('Off shelf').isVisible()).toBe(true);
    // The operator's name whole, not cut.
    expect(await page.locator('.who').textContent()).toBe('sam');
    expect(await page.locator('.who').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    // A code is never broken inside: the location's code is on one line.
    const lines = await page
      .getByTestId('location')
      .locator('.code')
      .evaluate((el) => el.getClientRects().length);
    expect(lines).toBe(1);
    await context.setOffline(false);
  });
});

if (!hasChromium) {
  it.skip('end-to-end tests skipped: no Chromium at /usr/bin/chromium (apt-get install chromium)', () => undefined);
}
