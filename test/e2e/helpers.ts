/**
 * Shared pieces of the end-to-end tests: the demo started in-process on free ports, Chromium through
 * playwright-core, condition waits (never fixed sleeps), QR decoding from the widget's canvas, and
 * screenshots under test-output/screenshots/.
 */
import { mkdirSync } from 'node:fs';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import jsQR from 'jsqr';
import { type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { startDemo, type DemoOptions, type RunningDemo } from '../../demo/app.js';
import type { OrderView } from '../../src/protocol/index.js';
import { launchBrowser } from '../chromium.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SCREENSHOTS = fileURLToPath(new URL('../../test-output/screenshots/', import.meta.url));
export const CONSOLE_PASSWORD = 'e2e-console-password';

/** Generous bound for conditions on a noisy, shared 2-core machine. */
export const WAIT_MS = 30_000;

export { launchBrowser };

export interface TestDemo extends RunningDemo {
  /** Warnings and errors the servers logged. */
  logs: string[];
}

/** The whole demo on free ports, with a fixed console password and a quiet, collecting logger. */
export async function startTestDemo(options: DemoOptions = {}): Promise<TestDemo> {
  const logs: string[] = [];
  const line = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    logs.push(`${level} ${message} ${fields ? JSON.stringify(fields, (_k, v: unknown) => (v instanceof Error ? v.message : v)) : ''}`);
  };
  const demo = await startDemo({
    port: 0,
    sandboxPort: 0,
    consolePassword: CONSOLE_PASSWORD,
    logger: { warn: line('warn'), error: line('error'), info: line('info') },
    ...options,
  });
  return Object.assign(demo, { logs });
}

export interface Shopper {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors. */
  errors: string[];
  /** Content-Security-Policy violations reported by the page. */
  cspViolations: string[];
}

/** A fresh browser context (its own storage and cookies) with a page that records errors and CSP violations; `mobile` emulates a phone. */
export async function newShopper(browser: Browser, options: { width?: number; height?: number; mobile?: boolean } = {}): Promise<Shopper> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1360, height: options.height ?? 1000 },
    // A phone: the meta viewport is honoured, touch events exist, pixels are dense.
    ...(options.mobile ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
    locale: 'en-GB',
    timezoneId: 'Europe/Moscow',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  const cspViolations: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await page.exposeFunction('__reportCsp', (text: string) => cspViolations.push(text));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __reportCsp(text: string): void }).__reportCsp(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return { context, page, errors, cspViolations };
}

/** Polls `check` until it returns a truthy value; fails with `message` after `timeoutMs`. */
export async function waitUntil<T>(check: () => T | Promise<T>, message: string, timeoutMs = WAIT_MS): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${message}${last ? ` (last error: ${String(last)})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const WIDGET = 'paydesk-checkout';

/** The widget's current step (`choose`, `searching`, `pay`, `paid`, `expired`, `error`, …). */
export function widgetState(page: Page, selector = WIDGET): Promise<string | null> {
  return page.evaluate((sel) => (document.querySelector(sel) as (Element & { state?: string }) | null)?.state ?? null, selector);
}

/** Waits for the widget to reach `state`. */
export async function waitForWidgetState(page: Page, state: string, selector = WIDGET): Promise<void> {
  let seen: string | null = null;
  await waitUntil(async () => {
    seen = await widgetState(page, selector);
    return seen === state;
  }, `widget state "${state}"`).catch((err: unknown) => {
    // The label above is written before the wait: the state last seen is known only now.
    throw new Error(`${err instanceof Error ? err.message : String(err)} (last seen "${String(seen)}" at ${page.url()})`);
  });
}

/** The order the widget shows. */
export async function widgetOrder(page: Page, selector = WIDGET): Promise<OrderView> {
  const order = await page.evaluate((sel) => (document.querySelector(sel) as (Element & { order?: unknown }) | null)?.order ?? null, selector);
  if (!order) throw new Error('the widget shows no order');
  return order as OrderView;
}

/** Screenshots the element (or the canvas) and decodes the QR code in it. */
export async function decodeQr(locator: Locator): Promise<string> {
  const png = PNG.sync.read(await locator.screenshot());
  const code = jsQR.default(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height);
  if (!code) throw new Error('no QR code could be decoded from the screenshot');
  return code.data;
}

/** Scrolls the storefront so that the products and the checkout panel fill the screen. */
export async function showShop(page: Page): Promise<void> {
  await page.evaluate(() => document.querySelector('.shop-layout')?.scrollIntoView({ block: 'start', behavior: 'instant' }));
}

/** Writes a screenshot to test-output/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean; locator?: Locator } = {}): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = `${SCREENSHOTS}${name}.png`;
  if (options.locator) await options.locator.screenshot({ path });
  else await page.screenshot({ path, fullPage: options.fullPage ?? false });
}

/** A call to the sandbox with the demo terminal's key (provider API or scenario controls). */
export async function sandboxCall<T = Record<string, unknown>>(
  demo: RunningDemo,
  path: string,
  init: { method?: string; body?: unknown; apiKey?: string } = {},
): Promise<T> {
  if (!demo.sandboxUrl || !demo.sandboxApiKey) throw new Error('the demo runs without a sandbox');
  const res = await fetch(`${demo.sandboxUrl}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { 'X-API-Key': init.apiKey ?? demo.sandboxApiKey, 'Content-Type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const body = (await res.json()) as T;
  if (!res.ok) throw new Error(`sandbox ${path}: HTTP ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** The provider's record of an order (through the sandbox's API), by its client order id. */
export async function providerOrder(demo: RunningDemo, clientOrderId: string, apiKey?: string): Promise<Record<string, unknown> & { id: string; status: string }> {
  const body = await sandboxCall<{ orders: { items: Array<Record<string, unknown> & { id: string; status: string }> } }>(
    demo,
    `/api/v1/order/search-by-client-order-id?id=${encodeURIComponent(clientOrderId)}`,
    apiKey ? { apiKey } : {},
  );
  const order = body.orders.items[0];
  if (!order) throw new Error(`the provider has no order ${clientOrderId}`);
  return order;
}

/** The storefront URL with its settings in the query. */
export function storeUrl(
  demo: RunningDemo,
  settings: { buy?: string; mode?: string; method?: string; display?: string; bank?: string; lang?: string; theme?: string } = {},
): string {
  const q = new URLSearchParams({ lang: 'en', theme: 'light', ...settings });
  return `${demo.storefrontUrl}?${q}`;
}

/** Presses "Buy" on a product of the storefront. */
export async function buy(page: Page, ref: string): Promise<void> {
  await page.locator(`[data-buy="${ref}"]`).click();
}

/**
 * A shopper opens the storefront (`settings` as in {@link storeUrl}), presses "Buy" on `ref` and waits
 * for the requisites: the order the widget shows.
 */
export async function openCheckout(page: Page, demo: RunningDemo, ref: string, settings: Parameters<typeof storeUrl>[1] = {}): Promise<OrderView> {
  await page.goto(storeUrl(demo, settings));
  await buy(page, ref);
  await waitForWidgetState(page, 'pay');
  return widgetOrder(page);
}

/**
 * The shared set-up of a storefront e2e file, called inside its `describe`: one demo and one
 * browser for the file (started in `before`, closed in `after` with every shopper's context), and
 * a fresh browser context per shopper (`options` as {@link newShopper}'s, e.g. {@link IPHONE}).
 * `onReady` receives the running demo.
 */
export function storefrontSuite(
  onReady: (demo: TestDemo) => void,
  setup: () => void = () => undefined,
): (options?: Parameters<typeof newShopper>[1]) => Promise<Shopper> {
  let demo: TestDemo | undefined;
  let browser: Browser | undefined;
  const shoppers: Shopper[] = [];
  before(async () => {
    setup();
    [demo, browser] = await Promise.all([startTestDemo(), launchBrowser()]);
    onReady(demo);
  });
  after(async () => {
    for (const s of shoppers) await s.context.close().catch(() => undefined);
    await browser?.close();
    await demo?.close();
  });
  return async (options) => {
    const s = await newShopper(browser!, options);
    shoppers.push(s);
    return s;
  };
}

/** An emulated iPhone (390 × 844 CSS px, touch, dense pixels), for {@link newShopper}. */
export const IPHONE = { width: 390, height: 844, mobile: true } as const;
