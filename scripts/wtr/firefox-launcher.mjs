// web-test-runner launcher for Gecko: Firefox ESR driven by puppeteer-core over WebDriver BiDi (no
// separate driver, no browser download). It is @web/test-runner-chrome's launcher handed
// puppeteer-core with `browser: 'firefox'`, which is all @web/test-runner-puppeteer does.
import { chromeLauncher } from '@web/test-runner-chrome';
import * as puppeteerCore from 'puppeteer-core';

/**
 * @param {{ executablePath: string, concurrency?: number }} options
 */
export function firefoxLauncher({ executablePath, concurrency }) {
  return chromeLauncher({
    puppeteer: puppeteerCore,
    concurrency,
    launchOptions: { browser: 'firefox', executablePath, headless: true },
    // A page per test file in its own *window*, not a tab: Firefox hides the tabs behind the
    // selected one (visibilityState "hidden", no focus, timers throttled), which is not how a
    // shopper sees the checkout.
    createPage: ({ context }) => context.newPage({ type: 'window' }),
  });
}
