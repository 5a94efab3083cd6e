import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { handheldsForSuite, hasChromium, notice, open, scan } from './harness.ts';

/**
 * A service deployed with its own box and zongpai patterns and without ENFORCE_ERP_PLAN: the
 * app learns both from its config.json, so it refuses at the scan only what this service would
 * refuse (a code outside its patterns, offline too) and counts, with a warning, the pieces
 * beyond the plan that this service takes.
 */
/** How many locations the device's copy of the register holds (in IndexedDB). */
const kept = (page: Page) =>
  page.evaluate(`new Promise((resolve) => {
    const open = indexedDB.open('cargo-register');
    open.onsuccess = () => {
      const count = open.result.transaction('locations').objectStore('locations').count();
      count.onsuccess = () => { resolve(count.result); open.result.close(); };
    };
  })`);

describe.skipIf(!hasChromium)('the handheld on a service with its own patterns and no plan enforcement', () => {
  const { signedIn } = handheldsForSuite({
    env: { BOX_NO_PATTERN: '^BOX-[0-9]{4}$', ZONGPAI_NO_PATTERN: '^PLT-[0-9]{4}$', ENFORCE_ERP_PLAN: 'false' },
  });

  it('checks cargo with the deployment’s patterns at the scan, offline too', async () => {
    const { page, context } = await signedIn('olga');
    await open(page, 'Locate');
    await expect.poll(() => kept(page), { timeout: 10_000 }).toBe(9);
    await context.setOffline(true);
    await scan(page, 'A-01-01');
    await page.locator('[data-testid=notice][data-tone=place]', { hasText: 'Location A-01-01' }).waitFor();
    await scan(page, 'BOX-1003');
    await notice(page, 'ok', 'BOX-1003 at A-01-01');
    await scan(page, 'PLT-0007');
    await notice(page, 'ok', 'PLT-0007 at A-01-01');
    // A box number by the defaults, not by this deployment's patterns: refused, never queued.
    await scan(page, 'CRATE-77');
    await notice(page, 'error', 'This is not a box number');
    await page.locator('[data-testid=waiting][data-waiting="2"]').waitFor();
    await context.setOffline(false);
  });

  it('counts a piece beyond the plan and an item not in it, with a warning, and the service saves them', async () => {
    const { page } = await signedIn('olga');
    await open(page, 'Pallet');
    await scan(page, 'PLT-0001');
    await page.getByRole('button', { name: 'Register PLT-0001' }).click();
    await notice(page, 'ok', 'Zongpai PLT-0001 registered');
    await open(page, 'Box');
    await scan(page, 'BOX-1004');
    await page.getByTestId('box-no').getByText('BOX-1004').waitFor();
    for (let i = 0; i < 4; i += 1) await scan(page, 'SKU-LAMP-01');
    await notice(page, 'ok', 'SKU-LAMP-01 +1');
    await scan(page, 'SKU-LAMP-01');
    await notice(page, 'warn', 'SKU-LAMP-01: more than the 4 planned: counted +1');
    await expect.poll(() => page.getByLabel('Qty SKU-LAMP-01').inputValue(), { timeout: 10_000 }).toBe('5');
    await scan(page, 'SKU-EXTRA');
    await notice(page, 'warn', 'SKU-EXTRA is not in the plan: counted +1');
    await expect.poll(() => page.getByLabel('Qty SKU-EXTRA').inputValue(), { timeout: 10_000 }).toBe('1');
    await page.getByRole('button', { name: 'Zongpai ›' }).click();
    await scan(page, 'PLT-0001');
    await notice(page, 'ok', 'Box BOX-1004 saved on PLT-0001');
    await open(page, 'Pallet');
    await scan(page, 'PLT-0001');
    await page.getByTestId('packing-list').getByText('SKU-LAMP-01 × 5').waitFor();
    await page.getByTestId('packing-list').getByText('SKU-EXTRA × 1').waitFor();
  });
});

if (!hasChromium) {
  it.skip('end-to-end tests skipped: no Chromium at /usr/bin/chromium (apt-get install chromium)', () => undefined);
}
