/**
 * Chromium through playwright-core for every test that drives a page (node pack tests, e2e, examples):
 * scripts/chromium.mjs finds the browser and gives the flags for this kind of machine.
 */
import { chromium, type Browser } from 'playwright-core';

interface ChromiumModule {
  findChromium(): string | null;
  CHROMIUM_ARGS: string[];
  NO_CHROMIUM_MESSAGE: string;
}

/** A headless Chromium; without one, an error that says how to install it. */
export async function launchBrowser(): Promise<Browser> {
  const chromiumModule = new URL('../scripts/chromium.mjs', import.meta.url).href;
  const { findChromium, CHROMIUM_ARGS, NO_CHROMIUM_MESSAGE } = (await import(chromiumModule)) as ChromiumModule;
  const executablePath = findChromium();
  if (!executablePath) throw new Error(NO_CHROMIUM_MESSAGE);
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}
