/** Steps and checks shared by the console's e2e files (and, the page-side ones, test/engines). */
import assert from 'node:assert/strict';
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

/** The console's section tabs and list title as a phone shows them (CSS px of the viewport). */
export interface SectionsOnScreen {
  /** The height of the row of tabs, and of one tab. */
  navHeight: number;
  tabHeight: number;
  navLeft: number;
  navRight: number;
  /** The current tab (`aria-current="page"`): its text and where it is. */
  current: string;
  currentLeft: number;
  currentRight: number;
  /** The top of the list's title in the document, and the viewport's height. */
  titleTop: number;
  viewportHeight: number;
}

/**
 * Reads {@link SectionsOnScreen} in the console's page. Run in the page (Playwright's or an engine
 * driver's `evaluate`): no closures, no names of this module.
 */
export function sectionsOnScreen(): SectionsOnScreen {
  const nav = document.querySelector('#console-nav')!.getBoundingClientRect();
  const currentTab = document.querySelector<HTMLElement>('#console-nav [aria-current="page"]')!;
  const current = currentTab.getBoundingClientRect();
  const title = document.querySelector('#view-title')!.getBoundingClientRect();
  return {
    navHeight: nav.height,
    tabHeight: document.querySelector('#console-nav a')!.getBoundingClientRect().height,
    navLeft: nav.left,
    navRight: nav.right,
    current: (currentTab.textContent ?? '').trim(),
    currentLeft: current.left,
    currentRight: current.right,
    titleTop: title.top + window.scrollY,
    viewportHeight: window.innerHeight,
  };
}

/**
 * A phone sees the list, not the header: the sections are one row that scrolls sideways, with the
 * current one in view, and the list's title starts in the screen's upper half.
 */
export function assertSectionsOnAPhone(at: SectionsOnScreen, what: string): void {
  assert.ok(at.navHeight < at.tabHeight * 1.6, `${what}: the sections in one row (${Math.round(at.navHeight)} px high for ${Math.round(at.tabHeight)} px tabs)`);
  assert.ok(at.currentLeft >= at.navLeft - 0.5 && at.currentRight <= at.navRight + 0.5, `${what}: "${at.current}" is in the row's view (${Math.round(at.currentLeft)}–${Math.round(at.currentRight)} px of ${Math.round(at.navLeft)}–${Math.round(at.navRight)})`);
  assert.ok(at.titleTop < at.viewportHeight / 2, `${what}: the list's title at ${Math.round(at.titleTop)} px of a ${at.viewportHeight} px screen`);
}
