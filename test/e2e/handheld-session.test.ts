import { describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { DEMO_PASSWORDS, handheldsForSuite, hasChromium, notice, open, scan, signIn } from './harness.ts';

/**
 * The handheld through a shift's faults, as the operator sees them: Cognito busy while the token
 * is refreshed, a device clock running fast, a service waking up or failing, no network during a
 * save; and refusals said in words for the floor, never in the API's.
 */
/** What the notice shows (the service's own message stays folded under Details). */
const noticeText = (page: Page) => page.getByTestId('notice').innerText();
/** The service's error body, as a route answers it. */
const refusal = (status: number, error_code: string, message: string, headers: Record<string, string> = {}) => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify({ error_code, message, domain: 'system', request_id: 'req-e2e-42' }),
});
const minute = 60_000;

describe.skipIf(!hasChromium)('the handheld through faults of a shift', () => {
  const { fresh, signedIn } = handheldsForSuite();
  const registerPallet = async (page: Page, zongpai: string) => {
    await open(page, 'Pallet');
    await scan(page, zongpai);
    await page.getByRole('button', { name: `Register ${zongpai}` }).click();
    await notice(page, 'ok', `Zongpai ${zongpai} registered`);
  };
  const oneScan = async (page: Page, box: string, zongpai: string) => {
    await open(page, 'One scan');
    await scan(page, box);
    await page.getByTestId('box-no').getByText(box).waitFor();
    await scan(page, zongpai);
  };

  it('keeps the operator signed in, and sends the still valid token, while Cognito is busy refreshing it', async () => {
    const { page } = await signedIn('olga');
    // The ID token expires within the refresh margin: the next call refreshes it first.
    await page.evaluate(`(() => {
      const session = JSON.parse(localStorage.getItem('cargo.session'));
      localStorage.setItem('cargo.session', JSON.stringify({ ...session, expiresAt: Date.now() + 60000 }));
    })()`);
    let refreshes = 0;
    await page.route('**/cognito-idp/**', (route) => {
      refreshes += 1;
      return route.fulfill({
        status: 400,
        contentType: 'application/x-amz-json-1.1',
        body: JSON.stringify({ __type: 'TooManyRequestsException', message: 'Rate exceeded' }),
      });
    });
    // The location register is fetched again at the reload; its call would refresh the token
    // before this test's Cognito answers are in place. Only the lookup below is watched.
    await page.route(/\/v1\/cargo\/locations\?/, (route) => route.abort());
    await page.reload();
    const lookups: Request[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/cargo/location/')) lookups.push(request);
    });
    await open(page, 'Find');
    await scan(page, 'BOX-1001');
    await notice(page, 'error', 'never been scanned');
    expect(refreshes).toBe(1);
    expect(lookups.map((r) => r.headers().authorization !== undefined)).toEqual([true]);
    expect(await page.evaluate("localStorage.getItem('cargo.session') !== null")).toBe(true);
    expect(await page.getByLabel('User name').count()).toBe(0);
  });

  /** A device whose clock runs 10 minutes ahead of the service's (and, if told, learns nothing of its time at sign-in). */
  const fastDevice = async (options: { registerUnanswered?: boolean } = {}) => {
    const device = await fresh();
    await device.page.clock.install({ time: new Date(Date.now() + 10 * minute) });
    if (options.registerUnanswered === true)
      await device.page.route(/\/v1\/cargo\/locations\?/, (route) => route.abort());
    await device.page.reload();
    await signIn(device.page, 'olga', DEMO_PASSWORDS.olga);
    await device.page.getByText('Scan a box').waitFor();
    return device;
  };
  /** The answers to the app's location uploads: each status, and the scan times the service stored. */
  const uploads = (page: Page) => {
    const answers: { status: number; stored: Promise<string[]> }[] = [];
    page.on('response', (response) => {
      if (response.request().method() !== 'POST' || !response.url().endsWith('/v1/cargo/location')) return;
      const stored = response.ok()
        ? response.json().then((body: { records: { scanned_at: string }[] }) => body.records.map((r) => r.scanned_at))
        : Promise.resolve([]);
      answers.push({ status: response.status(), stored });
    });
    return answers;
  };

  it("stamps Locate scans with the service's time when the device's clock runs fast", async () => {
    const { page } = await fastDevice();
    const sent = uploads(page);
    await open(page, 'Locate');
    const checked = page.waitForResponse((r) => r.url().includes('/v1/cargo/locations/A-09-09/'));
    await scan(page, 'A-09-09');
    await checked;
    await scan(page, 'BOX-1001');
    await page.locator('[data-testid=waiting][data-waiting="0"]').waitFor();
    await expect.poll(() => sent.length).toBe(1);
    expect(sent[0]?.status).toBe(201);
    const [stored] = (await sent[0]?.stored) ?? [];
    expect(Math.abs(Date.parse(stored ?? '') - Date.now())).toBeLessThan(minute);
    expect(await page.getByTestId('refused-scan').count()).toBe(0);
  });

  it("keeps a scan the service finds ahead of its clock, sends it once at the service's time, and says the device's clock is wrong", async () => {
    // Neither the location register at sign-in nor the location check gets an answer: the device has not learnt the service's time yet.
    const { page } = await fastDevice({ registerUnanswered: true });
    const sent = uploads(page);
    // The location check asks whether the code is a box or a zongpai too: unanswered as well.
    const check = ['**/v1/cargo/locations/**', '**/v1/box/info?**', '**/v1/zongpai/*/packing-list?**'];
    for (const url of check) await page.route(url, (route) => route.abort());
    await open(page, 'Locate');
    await scan(page, 'A-09-08');
    await scan(page, 'BOX-1002');
    await notice(page, 'warn', "This device's date and time are wrong");
    expect(await noticeText(page)).toContain('Set the device');
    await page.locator('[data-testid=waiting][data-waiting="0"]').waitFor();
    expect(await page.getByTestId('refused-scan').count()).toBe(0);
    await expect.poll(() => sent.length).toBe(2);
    expect(sent.map((s) => s.status)).toEqual([400, 201]);
    const [stored] = (await sent[1]?.stored) ?? [];
    expect(Math.abs(Date.parse(stored ?? '') - Date.now())).toBeLessThan(minute);
    for (const url of check) await page.unroute(url);
    await open(page, 'Find');
    await scan(page, 'BOX-1002');
    await page.getByTestId('current').getByText('A-09-08').waitFor();
  });

  it('asks for a new scan in a few seconds when the service is waking up, as it does not retry a read', async () => {
    const { page } = await signedIn('olga');
    let lookups = 0;
    await page.route('**/v1/cargo/location/**', (route) => {
      lookups += 1;
      return route.fulfill(
        refusal(503, 'DATABASE_UNAVAILABLE', 'The database is starting or busy; retry after the time in Retry-After', {
          'retry-after': '1',
        }),
      );
    });
    await open(page, 'Find');
    await scan(page, 'BOX-1001');
    await notice(page, 'error', 'scan again (or tap again) in a few seconds');
    const text = await noticeText(page);
    expect(text).not.toContain('retries by itself');
    expect(text).not.toContain('Retry-After');
    expect(lookups).toBe(1);
  });

  it('shows the request id, small and selectable, with an internal error the operator reports', async () => {
    const { page } = await signedIn('olga');
    await page.route('**/v1/cargo/location/**', (route) =>
      route.fulfill(refusal(500, 'INTERNAL_ERROR', 'Something went wrong on our side; the request was not completed')),
    );
    await open(page, 'Find');
    await scan(page, 'BOX-1001');
    await notice(page, 'error', 'report the request id');
    await page.getByTestId('request-id').getByText('req-e2e-42').waitFor();
    expect(
      await page.evaluate(
        "getComputedStyle(document.querySelector('[data-testid=request-id]')).userSelect !== 'none' && document.querySelector('[data-testid=request-id]').closest('small') !== null",
      ),
    ).toBe(true);
  });

  it('says a box is already boxed, on which zongpai, and who can change it, in words for the floor', async () => {
    const { page } = await signedIn('olga');
    await registerPallet(page, 'PLT-S-1');
    await oneScan(page, 'BOX-1002', 'PLT-S-1');
    await notice(page, 'ok', 'Box BOX-1002 saved on PLT-S-1');
    await oneScan(page, 'BOX-1002', 'PLT-S-1');
    await notice(page, 'error', 'BOX-1002 · Already boxed on PLT-S-1');
    const text = await noticeText(page);
    expect(text).toContain('A supervisor can edit or undo it');
    expect(text).not.toMatch(/PATCH|key/);
  });

  it('says how to save again after no network: scan the zongpai again, no jargon', async () => {
    const { page } = await signedIn('olga');
    await registerPallet(page, 'PLT-S-2');
    await page.clock.install();
    await page.route('**/v1/box/simple', (route) => route.abort('internetdisconnected'));
    await oneScan(page, 'BOX-1003', 'PLT-S-2');
    await page.getByText('No answer yet, trying again').waitFor();
    // The app retries for a minute before it says the save did not go out.
    for (let i = 0; i < 20 && (await page.getByText('Not saved').count()) === 0; i += 1) {
      await page.clock.fastForward(5_000);
      await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => resolve(null)))');
    }
    await notice(page, 'error', 'Not saved: no network.');
    const text = await noticeText(page);
    expect(text).toContain('Scan the zongpai again to save it');
    expect(text).not.toMatch(/Save again|key/);
    await page.unroute('**/v1/box/simple');
    await scan(page, 'PLT-S-2');
    await notice(page, 'ok', 'Box BOX-1003 saved on PLT-S-2');
  });

  it('refuses a supervisor edit that leaves nothing in the box before sending it, and points to Undo', async () => {
    const { page } = await signedIn('sam');
    await registerPallet(page, 'PLT-S-3');
    await oneScan(page, 'BOX-1001', 'PLT-S-3');
    await notice(page, 'ok', 'Box BOX-1001 saved on PLT-S-3');
    await open(page, 'Supervisor');
    await scan(page, 'BOX-1001');
    await page.locator('[data-testid=box-status][data-status=BOXED]').waitFor();
    const patches: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH') patches.push(request.url());
    });
    for (const input of await page.getByLabel(/^Qty /).all()) await input.fill('0');
    await page.getByRole('button', { name: 'Edit' }).click();
    await notice(page, 'error', 'Every quantity is 0: not changed');
    expect(await noticeText(page)).toContain('use Undo boxing');
    expect(patches).toEqual([]);
  });
});
