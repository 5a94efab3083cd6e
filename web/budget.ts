import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { createLocalSite } from '../infra/local/web.ts';
import { buildWebApp } from './build.ts';

/**
 * `npm run budget:web`: the handheld app's budgets, failing (exit 1) when one is broken:
 * JavaScript and CSS at most 60 KB gzip in total; first render (the sign-in form) under 2 s in
 * Chromium with the CPU throttled 4x and a slow-4G network; the app shell loading offline from
 * the service worker.
 */
const files = buildWebApp();
const gzip = files.filter((f) => /\.(js|css)$/.test(f.path)).reduce((sum, f) => sum + gzipSync(f.body, { level: 9 }).length, 0);
const results: [string, string, boolean][] = [[`JS + CSS gzip ${(gzip / 1024).toFixed(1)} KB`, '≤ 60 KB', gzip <= 60 * 1024]];

const dataDir = mkdtempSync(join(tmpdir(), 'cargo-budget-'));
const site = createLocalSite({ dataDir, key: new Uint8Array(32), files });
const server = createServer((req, res) => {
  if (!site(req, res)) res.writeHead(404).end();
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
try {
  const context = await browser.newContext({ viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  // Lighthouse's slow 4G: 150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up.
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
  const start = Date.now();
  await page.goto(url);
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  const firstRender = Date.now() - start;
  results.push([`first render ${firstRender} ms (4x CPU, slow 4G)`, '< 2000 ms', firstRender < 2000]);
  await page.waitForFunction('navigator.serviceWorker.controller !== null', undefined, { timeout: 10_000 }).catch(() => page.reload());
  await page.waitForFunction('navigator.serviceWorker.controller !== null', undefined, { timeout: 10_000 });
  await context.setOffline(true);
  await page.reload();
  const offline = await page.getByRole('button', { name: 'Sign in' }).waitFor({ timeout: 5000 }).then(() => true, () => false);
  results.push(['app shell loads offline (service worker)', 'yes', offline]);
} finally {
  await browser.close();
  server.close();
  rmSync(dataDir, { recursive: true, force: true });
}

for (const [what, budget, ok] of results) process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${what} (budget ${budget})\n`);
process.exit(results.every(([, , ok]) => ok) ? 0 : 1);
