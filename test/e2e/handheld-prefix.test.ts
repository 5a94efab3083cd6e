import { describe, expect, it } from 'vitest';
import { handheldsForSuite, hasChromium, notice, open, scan, voidCurrentScan } from './harness.ts';

/**
 * A service deployed with another SERVICE_PREFIX: the app learns it from its configuration and
 * calls the location routes under it, so every screen that scans a location works as on the
 * default prefix.
 */
describe.skipIf(!hasChromium)('the handheld on a service whose location routes are under another prefix', () => {
  const { signedIn } = handheldsForSuite({ env: { SERVICE_PREFIX: 'wms' } });

  it('records a scan, lists the location, finds the cargo and voids the scan under that prefix', async () => {
    const { page } = await signedIn('sam');
    const calls: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/v1/')) calls.push(`${request.method()} ${pathname}`);
    });

    await open(page, 'Locate');
    await scan(page, 'DOCK-9');
    // The scan is kept on the device first, then uploaded: the location is listed once it is stored.
    const stored = page.waitForResponse(
      (res) => res.request().method() === 'POST' && new URL(res.url()).pathname === '/v1/wms/location',
    );
    await scan(page, 'BOX-1005');
    await notice(page, 'ok', 'BOX-1005 at DOCK-9');
    expect((await stored).status()).toBe(201);
    await page.getByRole('button', { name: 'What is here: DOCK-9' }).click();
    await notice(page, 'ok', '1 at DOCK-9');
    expect(await page.getByTestId('here').locator('b').allTextContents()).toEqual(['BOX-1005']);

    await voidCurrentScan(page, 'BOX-1005', 'DOCK-9');

    expect(calls).toEqual(
      expect.arrayContaining([
        'POST /v1/wms/location',
        'GET /v1/wms/locations/DOCK-9/cargo',
        'GET /v1/wms/location/BOX-1005',
        expect.stringMatching(/^DELETE \/v1\/wms\/location\/BOX-1005\/records\/\d+$/),
      ]),
    );
    expect(calls.filter((call) => call.includes('/v1/cargo/'))).toEqual([]);
  });
});
