import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ensureDemoUsers } from '../local/users.ts';
import { createLocalSite } from '../local/web.ts';
import { buildWebApp } from '../web/build.ts';
import { launchChromium } from '../web/chromium.ts';

/**
 * `npm run budget:web`: the handheld app's budgets, failing (exit 1) when one is broken:
 * JavaScript and CSS at most 60 KB gzip in total; first render (the sign-in form) under 2 s in
 * Chromium with the CPU throttled 4x and a slow-4G network; the app shell loading offline from
 * the service worker; from the Enter of a scan to its feedback on screen (the app's
 * `scan-feedback` measure), less the API's own time for that scan (its resource timing), under
 * 100 ms on the same 4x-throttled CPU. Type-checked with the app's DOM types (web/tsconfig.json).
 */
const files = buildWebApp();
const gzip = files
  .filter((f) => /\.(js|css)$/.test(f.path))
  .reduce((sum, f) => sum + gzipSync(f.body, { level: 9 }).length, 0);
const results: [string, string, boolean][] = [
  [`JS + CSS gzip ${(gzip / 1024).toFixed(1)} KB`, '≤ 60 KB', gzip <= 60 * 1024],
];

const dataDir = mkdtempSync(join(tmpdir(), 'cargo-budget-'));
ensureDemoUsers(dataDir);
const site = createLocalSite({ dataDir, key: new Uint8Array(32), files });
// The API of the scan timed: the service's refusal of a cargo never located, answered at once.
const server = createServer((req, res) => {
  if (site(req, res)) return;
  if (req.url?.startsWith('/v1/cargo/location/') === true) {
    res.writeHead(404, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        error_code: 'CARGO_NOT_FOUND',
        message: 'Cargo BOX-1001 was never scanned at a location',
        domain: 'location',
        request_id: 'budget',
      }),
    );
    return;
  }
  res.writeHead(404).end();
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
const browser = await launchChromium();
try {
  const context = await browser.newContext({ viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  // Lighthouse's slow 4G: 150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up.
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
  await page.goto(url);
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  // When the sign-in button was painted, from the start of the navigation (its Element Timing
  // entry, web/src/screens/sign-in.tsx): what the operator sees, without the time Playwright
  // takes on the throttled page to compile its helper and find the button (about 0.5 s).
  const firstRender = Math.round(
    await page.evaluate(
      () =>
        new Promise<number>((resolve) =>
          new PerformanceObserver((list) => {
            const entries = list.getEntries() as (PerformanceEntry & { identifier: string; renderTime: number })[];
            const painted = entries.find((e) => e.identifier === 'sign-in');
            if (painted !== undefined) resolve(painted.renderTime);
          }).observe({ type: 'element', buffered: true }),
        ),
    ),
  );
  results.push([`first render ${firstRender} ms (4x CPU, slow 4G)`, '< 2000 ms', firstRender < 2000]);

  // A wedge scan on Find, still on the 4x-throttled CPU (the network back to full speed: the API's
  // time is taken off anyway). Three scans; the slowest counts.
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await page.getByLabel('User name').fill('olga');
  await page.getByLabel('Password').fill('olga-demo-2026');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('Scan a box').waitFor();
  await page.getByRole('link', { name: 'Find', exact: true }).click();
  await page.locator('section[aria-label="Find"]').waitFor();
  // Playwright's first waitForFunction in the page compiles its own 330 KB helper script there
  // (about 60 ms on the throttled CPU); done here, before the timed scans, so that the harness's
  // work does not land between the feedback on screen and the app's measure of it.
  await page.waitForFunction(() => true);
  let worst = { feedback: 0, api: 0 };
  for (let i = 0; i < 3; i += 1) {
    await page.evaluate(() => {
      performance.clearMeasures('scan-feedback');
      performance.clearResourceTimings();
    });
    await page.keyboard.type('BOX-1001');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => performance.getEntriesByName('scan-feedback').length > 0);
    const timing = await page.evaluate(() => {
      const feedback = performance.getEntriesByName('scan-feedback')[0]?.duration ?? Number.POSITIVE_INFINITY;
      const call = performance.getEntriesByType('resource').find((e) => e.name.includes('/v1/cargo/location/')) as
        PerformanceResourceTiming | undefined;
      return { feedback, api: call === undefined ? 0 : call.responseEnd - call.startTime };
    });
    process.stdout.write(
      `  scan ${i + 1}: feedback ${Math.round(timing.feedback)} ms, API ${Math.round(timing.api)} ms\n`,
    );
    if (timing.feedback - timing.api > worst.feedback - worst.api) worst = timing;
  }
  // The feedback measured is the service's refusal on screen, not some other notice.
  await page.locator('[data-testid=notice][data-tone=error][data-code=CARGO_NOT_FOUND]').waitFor();
  const own = Math.round(worst.feedback - worst.api);
  results.push([
    `scan to feedback ${own} ms beyond the API's ${Math.round(worst.api)} ms (4x CPU)`,
    '< 100 ms',
    own < 100,
  ]);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  // A function, evaluated once: a string predicate is evaluated again on every poll, which the
  // app's Content-Security-Policy (no 'unsafe-eval') refuses after the first.
  const controlled = () => navigator.serviceWorker.controller !== null;
  await page.waitForFunction(controlled, undefined, { timeout: 10_000 }).catch(() => page.reload());
  await page.waitForFunction(controlled, undefined, { timeout: 10_000 });
  await context.setOffline(true);
  await page.reload();
  // Signed in above: the app reloaded offline opens on its first screen.
  const offline = await page
    .getByText('Scan a box')
    .waitFor({ timeout: 5000 })
    .then(
      () => true,
      () => false,
    );
  results.push(['app shell loads offline (service worker)', 'yes', offline]);
} finally {
  await browser.close();
  server.close();
  rmSync(dataDir, { recursive: true, force: true });
}

for (const [what, budget, ok] of results) process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${what} (budget ${budget})\n`);
process.exit(results.every(([, , ok]) => ok) ? 0 : 1);
