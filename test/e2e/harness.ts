import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, onTestFinished } from 'vitest';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { CHROMIUM, launchChromium } from '../../web/chromium.ts';

/**
 * End-to-end harness: the real `npm start` (local/start.ts) on a fresh data folder and a
 * free port, and Debian's Chromium driven by playwright-core, sized as the handheld (360 x 640).
 *
 * The database is fresh too: a new database on the PostgreSQL server of TEST_DATABASE_URL when
 * it is set (as in CI; dropped afterwards), else embedded PGlite in the data folder. PGlite's
 * first start (its initdb in WebAssembly) costs 10-20 s on two busy cores, PostgreSQL's a second
 * or two; E2E_BACKEND=pglite keeps PGlite anyway. The service is used as it starts, with no
 * warm-up calls: `npm start` builds each function in process at its first request, which the
 * tests' own first calls pay (the suite takes about 25 s on two busy cores).
 */
export const hasChromium = existsSync(CHROMIUM);

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * Where each screen's screenshot goes: the README's pictures in docs/screenshots when asked for
 * (`npm run screenshots`), else a folder of the test run's own, so a test run leaves the tree clean.
 */
const SCREENSHOTS =
  process.env.UPDATE_SCREENSHOTS === '1' ? join(ROOT, 'docs/screenshots') : join(tmpdir(), 'cargo-e2e-screenshots');

interface Running {
  readonly url: string;
  readonly browser: Browser;
  stop(): Promise<void>;
}

const serverUrl = process.env.E2E_BACKEND === 'pglite' ? undefined : process.env.TEST_DATABASE_URL || undefined;

/** A new, empty database on the test server, and how to drop it. */
const freshDatabase = async (server: string): Promise<{ url: string; drop: () => Promise<void> }> => {
  const name = `cargo_e2e_${process.pid}_${Date.now().toString(36)}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: server });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
};

const startService = (
  dataDir: string,
  databaseUrl: string | undefined,
  settings: Readonly<Record<string, string>>,
): Promise<{ url: string; child: ChildProcess }> =>
  new Promise((resolve, reject) => {
    const env = { ...process.env, ...settings, DATA_DIR: dataDir, PORT: '0', DATABASE_URL: databaseUrl ?? '' };
    const child = spawn(process.execPath, ['--import', 'tsx', 'local/start.ts'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const ready = /ready on (http:\/\/[\d.:]+)/.exec(out);
      if (ready?.[1] !== undefined) resolve({ url: ready[1], child });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`npm start exited (${String(code)}): ${out}`)));
  });

const startAll = async (settings: Readonly<Record<string, string>>): Promise<Running> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cargo-e2e-'));
  const database = serverUrl === undefined ? undefined : await freshDatabase(serverUrl);
  const [{ url, child }, browser] = await Promise.all([
    startService(dataDir, database?.url, settings),
    launchChromium(),
  ]);
  return {
    url,
    browser,
    stop: async () => {
      await browser.close();
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

/** A fresh handheld: its own storage (session, IndexedDB, service worker), English unless told. */
const handheld = async (running: Running, locale = 'en-US'): Promise<{ context: BrowserContext; page: Page }> => {
  const context = await running.browser.newContext({
    viewport: { width: 360, height: 640 },
    deviceScaleFactor: 1,
    locale,
    hasTouch: true,
    isMobile: true,
  });
  // A step that does not happen fails in 10 s naming what it waited for, not at the test's timeout.
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  await page.goto(running.url);
  return { context, page };
};

/**
 * Holds the app's requests to `url` until `release()`, so that a test acts while the app waits
 * for the service however busy the machine is (a fixed delay would race it). Later requests pass.
 */
export const holdRequests = async (
  page: Page,
  url: string | RegExp,
): Promise<{ release: () => void; answered: () => Promise<unknown> }> => {
  let release = (): void => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  /** Resolves once a held answer has reached the page. */
  const answered = () => page.waitForResponse(url);
  return { release, answered };
};

/** The demo users `npm start` creates: an operator and a supervisor. */
export const DEMO_PASSWORDS = { olga: 'olga-demo-2026', sam: 'sam-demo-2026' };
export type DemoUser = keyof typeof DEMO_PASSWORDS;

/** A fresh handheld with `user` signed in, closed when the test ends. */
const signedInHandheld = async (
  running: Running,
  user: DemoUser,
  options: { locale?: string; viewport?: { width: number; height: number } } = {},
): Promise<{ context: BrowserContext; page: Page }> => {
  const device = await handheld(running, options.locale);
  onTestFinished(() => device.context.close());
  if (options.viewport !== undefined) await device.page.setViewportSize(options.viewport);
  await signIn(device.page, user, DEMO_PASSWORDS[user]);
  await device.page.locator('.who', { hasText: user }).waitFor();
  return device;
};

/** What a test opens handhelds on: the service and Chromium that `handheldsForSuite` starts. */
export interface Handhelds {
  /** A fresh handheld (its own storage), English unless told, closed when the test ends. */
  fresh(locale?: string): Promise<{ context: BrowserContext; page: Page }>;
  /** A fresh handheld with `user` signed in, closed when the test ends. */
  signedIn(
    user: DemoUser,
    options?: { locale?: string; viewport?: { width: number; height: number } },
  ): Promise<{ context: BrowserContext; page: Page }>;
}

/**
 * Starts the service and Chromium before the first test of the describe block it is called in,
 * and stops them after its last. `seed`, when given, runs once they are up, on a handheld of its
 * own (no one signed in) that is closed after it; `timeout` bounds the start and the seed;
 * `env` holds the service's settings (`npm start`'s environment) where a suite needs others.
 */
export const handheldsForSuite = (
  options: { seed?: (page: Page) => Promise<void>; timeout?: number; env?: Readonly<Record<string, string>> } = {},
): Handhelds => {
  let running: Running | undefined;
  const started = (): Running => {
    if (running === undefined) throw new Error('the service is not started yet: open handhelds in a test');
    return running;
  };
  beforeAll(async () => {
    running = await startAll(options.env ?? {});
    if (options.seed === undefined) return;
    const { context, page } = await handheld(running);
    try {
      await options.seed(page);
    } finally {
      await context.close();
    }
  }, options.timeout ?? 60_000);
  afterAll(async () => running?.stop());
  return {
    fresh: async (locale) => {
      const device = await handheld(started(), locale);
      onTestFinished(() => device.context.close());
      return device;
    },
    signedIn: (user, signInOptions) => signedInHandheld(started(), user, signInOptions),
  };
};

/** A supervisor finds `cargo` at `location` and voids that scan, confirming with the second tap. */
export const voidCurrentScan = async (page: Page, cargo: string, location: string): Promise<void> => {
  await open(page, 'Find');
  await scan(page, cargo);
  await page.getByTestId('current').getByText(location).waitFor();
  await page.getByRole('button', { name: 'Void' }).click();
  await page.getByRole('button', { name: 'Tap again to void' }).click();
  await notice(page, 'ok', `Scan of ${cargo} at ${location} voided`);
};

/** Waits for the app's notice of this tone holding this text. */
export const notice = (page: Page, tone: 'ok' | 'warn' | 'error' | 'info', text: string | RegExp): Promise<void> =>
  page.locator(`[data-testid=notice][data-tone=${tone}]`, { hasText: text }).waitFor({ timeout: 10_000 });

/** Opens a screen from the tab bar and waits for it, as an operator looks before scanning. */
export const open = async (page: Page, tab: string): Promise<void> => {
  await page.getByRole('link', { name: tab, exact: true }).click();
  await page.locator(`section[aria-label="${tab}"]`).waitFor();
};

/** The key a wedge sends for one character of a scan, or for Enter, as a US keyboard names it. */
const wedgeKey = (key: string) => {
  if (key === 'Enter') return { key, code: 'Enter', windowsVirtualKeyCode: 13, text: '\r' };
  const upper = key.toUpperCase();
  if (/^[A-Z]$/.test(upper)) return { key, code: `Key${upper}`, windowsVirtualKeyCode: upper.charCodeAt(0), text: key };
  if (/^[0-9]$/.test(key)) return { key, code: `Digit${key}`, windowsVirtualKeyCode: key.charCodeAt(0), text: key };
  if (key === '-') return { key, code: 'Minus', windowsVirtualKeyCode: 189, text: key };
  return { key, code: '', windowsVirtualKeyCode: 0, text: key };
};

/** Milliseconds between a wedge's keys: scanners type a scan's characters 1-20 ms apart. */
const WEDGE_GAP_MS = 5;

/** Each page's DevTools session for its wedge's keys, opened at its first scan and kept with the page. */
const wedgeSessions = new WeakMap<Page, Promise<CDPSession>>();
const wedgeSession = (page: Page): Promise<CDPSession> => {
  const session = wedgeSessions.get(page) ?? page.context().newCDPSession(page);
  wedgeSessions.set(page, session);
  return session;
};

/**
 * A keyboard-wedge scan: the characters in a burst into whatever has the focus, then Enter. Each
 * key event carries the time a wedge would have sent it (CDP's `timestamp`, which becomes the
 * event's `timeStamp`), so the app, which tells a wedge's burst from a person's typing by the
 * gaps between keys, sees a burst however late a busy machine delivers the keys
 * (`page.keyboard.type` stamps each key when it arrives, so a slow arrival reads as typing).
 */
export const scan = async (page: Page, code: string): Promise<void> => {
  const cdp = await wedgeSession(page);
  const start = Date.now();
  for (const [i, char] of [...code, 'Enter'].entries()) {
    const { text, ...key } = wedgeKey(char);
    const at = (start + i * WEDGE_GAP_MS) / 1000;
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', ...key, text, unmodifiedText: text, timestamp: at });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...key, timestamp: at + 0.001 });
  }
};

export const signIn = async (page: Page, user: string, password: string): Promise<void> => {
  await page.getByLabel(/User name|用户名/).fill(user);
  await page.getByLabel(/Password|密码/).fill(password);
  await page.getByRole('button', { name: /Sign in|登录/ }).click();
};

export const screenshot = async (page: Page, name: string): Promise<void> => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // The docs' pictures show the screen at rest: a step's button drawn by the last tap settles for a
  // second (web/src/guard.tsx) and would be pictured greyed out.
  if (process.env.UPDATE_SCREENSHOTS === '1') await page.waitForTimeout(1_100);
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
};
