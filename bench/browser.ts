/**
 * Time from `<paydesk-checkout>` being connected to its requisites being painted, in headless Chromium
 * against the local servers, beside a bare `fetch` of the same `POST /sessions` in the same page. The
 * element comes from dist/cdn/paydesk.js (already loaded: a warm module, as on a shop page). Runs
 * alternate element / fetch, each with a fresh order ref (no stored session to resume).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { median, repeat } from './stats.js';
import { BENCH_PAGE_PATH } from './browser-page.js';

export interface BrowserFigures {
  runs: number;
  chromium: string;
  /** Connected → requisites in the DOM (MutationObserver), median ms. */
  elementInDom: number;
  /** Connected → the frame after the requisites entered the DOM (requestAnimationFrame), median ms. */
  elementPainted: number;
  /** Bare fetch of POST /sessions + JSON parse, median ms. */
  bareFetch: number;
  /** Median over runs of painted / fetch of the same run. */
  ratioPaintedToFetch: number;
}



export async function benchElement(merchantUrl: string, root: string, runs: number): Promise<BrowserFigures> {
  const { findChromium, CHROMIUM_ARGS } = (await import(pathToFileURL(join(root, 'scripts', 'chromium.mjs')).href)) as {
    findChromium(): string | null;
    CHROMIUM_ARGS: string[];
  };
  const executablePath = findChromium();
  if (!executablePath) throw new Error('no Chromium: install chromium or set CHROME_PATH');
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    await page.goto(`${merchantUrl}${BENCH_PAGE_PATH}`);
    await page.waitForFunction(() => (window as unknown as { ready: Promise<boolean> }).ready);
    type Win = { measureElement(ref: string): Promise<{ inDom: number; painted: number }>; measureFetch(ref: string): Promise<number> };
    // One warm-up of each (first connection, first render).
    await page.evaluate(() => (window as unknown as Win).measureElement('bench-warm-el'));
    await page.evaluate(() => (window as unknown as Win).measureFetch('bench-warm-fetch'));
    const results = await repeat(runs, async (i) => {
      const el = await page.evaluate((ref) => (window as unknown as Win).measureElement(ref), `bench-el-${i}`);
      const fetchMs = await page.evaluate((ref) => (window as unknown as Win).measureFetch(ref), `bench-fetch-${i}`);
      return { ...el, fetchMs };
    });
    return {
      runs,
      chromium: browser.version(),
      elementInDom: median(results.map((r) => r.inDom)),
      elementPainted: median(results.map((r) => r.painted)),
      bareFetch: median(results.map((r) => r.fetchMs)),
      ratioPaintedToFetch: median(results.map((r) => r.painted / r.fetchMs)),
    };
  } finally {
    await browser.close();
  }
}
