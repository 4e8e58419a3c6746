// web-test-runner launcher for Gecko: Firefox ESR driven by puppeteer-core over WebDriver BiDi (no
// separate driver, no browser download). It is @web/test-runner-chrome's launcher handed
// puppeteer-core with `browser: 'firefox'`, which is all @web/test-runner-puppeteer does.
//
// emulateMedia: puppeteer's emulateMediaFeatures needs CDP, which Firefox no longer speaks. Firefox
// reads both media features from preferences, live, so the launcher sets those instead, from the
// browser's own (chrome) context, which BiDi reaches when Firefox is started with
// --remote-allow-system-access. The preferences are the browser's, not one page's: fine with one test
// file at a time (concurrency 1), and every test that sets a feature sets it back.
import { chromeLauncher } from '@web/test-runner-chrome';
import * as puppeteerCore from 'puppeteer-core';

/** Media feature → [Firefox preference, value for each emulated setting]; other values: the default. */
const MEDIA_PREFS = {
  'prefers-color-scheme': ['layout.css.prefers-color-scheme.content-override', { dark: 0, light: 1 }],
  'prefers-reduced-motion': ['ui.prefersReducedMotion', { reduce: 1, 'no-preference': 0 }],
};

/**
 * Sets (or, for '' and unknown values, clears) the preferences behind `features`, then waits until
 * the page's media queries say so: a preference set in the parent process reaches the page's content
 * process later (measured: 1 whole-suite run in 5 still read the old scheme right after).
 */
async function emulateMediaFeatures(browser, page, features = []) {
  const statements = (features ?? []).map(({ name, value }) => {
    const entry = MEDIA_PREFS[name];
    if (!entry) throw new Error(`Firefox launcher: cannot emulate the media feature "${name}" (only ${Object.keys(MEDIA_PREFS).join(', ')})`);
    const [pref, values] = entry;
    return value in values
      ? `Services.prefs.setIntPref(${JSON.stringify(pref)}, ${values[value]});`
      : `Services.prefs.clearUserPref(${JSON.stringify(pref)});`;
  });
  if (statements.length === 0) return;
  // `connection` is puppeteer's BiDi connection (public on its BidiBrowser, not in its typings).
  const connection = browser.connection;
  const tree = await connection.send('browsingContext.getTree', { 'moz:scope': 'chrome' });
  const context = tree.result.contexts[0]?.context;
  if (!context) throw new Error('Firefox launcher: no chrome context (is Firefox started with --remote-allow-system-access?)');
  const answer = await connection.send('script.evaluate', {
    expression: `${statements.join(' ')} 'done'`,
    target: { context },
    awaitPromise: false,
  });
  if (answer.result.type === 'exception') throw new Error(`Firefox launcher: ${answer.result.exceptionDetails?.text}`);
  const queries = (features ?? []).filter(({ name, value }) => value in MEDIA_PREFS[name][1]).map(({ name, value }) => `(${name}: ${value})`);
  await page.waitForFunction((qs) => qs.every((q) => matchMedia(q).matches), { timeout: 5000, polling: 20 }, queries);
}

/**
 * @param {{ executablePath: string, concurrency?: number }} options
 */
export function firefoxLauncher({ executablePath, concurrency }) {
  return chromeLauncher({
    puppeteer: puppeteerCore,
    concurrency,
    launchOptions: { browser: 'firefox', executablePath, headless: true, args: ['--remote-allow-system-access'] },
    // A page per test file in its own *window*, not a tab: Firefox hides the tabs behind the
    // selected one (visibilityState "hidden", no focus), which is not how a shopper sees the checkout.
    createPage: async ({ browser, context }) => {
      const page = await context.newPage({ type: 'window' });
      page.emulateMediaFeatures = (features) => emulateMediaFeatures(browser, page, features);
      return page;
    },
  });
}
