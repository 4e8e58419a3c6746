/** Steps shared by the console's e2e files. */
import type { Page } from 'playwright-core';
import { CONSOLE_PASSWORD, waitUntil, type TestDemo } from './helpers.js';

/** Opens `path` of the console in `page` and logs in (a fresh context gets its own cookie). */
export async function logIn(page: Page, demo: Pick<TestDemo, 'merchantUrl'>, path = '/console', query = 'lang=en&theme=light'): Promise<void> {
  await page.goto(`${demo.merchantUrl}${path}${path.includes('?') ? '&' : '?'}${query}`);
  await page.locator('#password').fill(CONSOLE_PASSWORD);
  await page.locator('#login-form button[type="submit"]').click();
  await page.locator('#dashboard').waitFor();
}

/** Waits until the console shows `list` and no request for it is in flight. */
export async function listSettled(page: Page, list: string): Promise<void> {
  await page.locator(`#list-table[data-list="${list}"]`).waitFor({ state: 'attached' });
  await waitUntil(async () => !(await page.locator('#list-panel').getAttribute('class'))?.includes('loading'), `${list} loaded`);
}

/** The balance card's figures as decimal strings. */
export async function shownBalance(page: Page): Promise<{ available: string; frozen: string; total: string }> {
  const read = async (id: string) => (await page.locator(id).innerText()).replace(/[^\d.]/g, '');
  return { available: await read('#bal-available'), frozen: await read('#bal-frozen'), total: await read('#bal-total') };
}
