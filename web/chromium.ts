import { chromium, type Browser } from 'playwright-core';

/**
 * The Chromium the handheld app is measured and tested in: Debian's (`apt-get install chromium`),
 * or the one CHROMIUM_PATH names. Launched headless, with no sandbox (containers and CI) and
 * none of its own GPU work, background downloads or sync, so what it does is the app's.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
