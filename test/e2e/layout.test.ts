/**
 * Every demo page on phones (320, 390 and 412 px, touch, dense pixels) and on a desktop, in both
 * themes and both languages: nothing scrolls sideways (the document's scrollWidth is its
 * clientWidth; the server-rendered checkout page too), the header's language and theme switches and the console's "Log out" are on screen
 * and work, the storefront's modal is a full-screen sheet on a phone, and axe finds nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newShopper, sandboxCall, screenshot, startTestDemo, storeUrl, waitForWidgetState, type TestDemo } from './helpers.js';
import { assertSectionsOnAPhone, listSettled, logIn, sectionsOnScreen } from './console-page.js';
import { axeViolations, documentWidths, overflowing } from './page-checks.js';

interface Setting {
  width: number;
  height: number;
  mobile: boolean;
  theme: 'light' | 'dark';
  lang: 'en' | 'ru';
  /** Run axe on every page at this setting. */
  axe: boolean;
}

const SETTINGS: Setting[] = [
  { width: 320, height: 640, mobile: true, theme: 'dark', lang: 'ru', axe: true },
  { width: 390, height: 844, mobile: true, theme: 'light', lang: 'ru', axe: true },
  { width: 412, height: 915, mobile: true, theme: 'dark', lang: 'en', axe: false },
  { width: 1280, height: 900, mobile: false, theme: 'dark', lang: 'en', axe: true },
];

const LISTS = ['orders', 'payouts', 'disputes', 'transactions', 'form-sessions', 'payment-methods'];

describe('the demo pages on phones and a desktop', () => {
  let demo: TestDemo;
  let browser: Browser;

  before(async () => {
    [demo, browser] = await Promise.all([startTestDemo(), launchBrowser()]);
  });

  /** A cart of the storefront paid through the token endpoint and the sandbox (its order number is long: pr_…cart_…). */
  async function paidCart(): Promise<string> {
    const opened = await fetch(`${demo.merchantUrl}/demo/api/carts`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-paydesk': '1' }, body: JSON.stringify({ product: demo.products[0]!.ref }) });
    assert.equal(opened.status, 201, await opened.clone().text());
    const { cart } = (await opened.json()) as { cart: string };
    const made = await fetch(`${demo.merchantUrl}${demo.endpoint}/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
      body: JSON.stringify({ order_ref: cart, method_type: 'SBP' }),
    });
    assert.equal(made.status, 201, await made.clone().text());
    const { order } = (await made.json()) as { order: { id: string } };
    await sandboxCall(demo, `/sandbox/orders/${order.id}/complete`, { method: 'POST' });
    await demo.reconcile();
    return cart;
  }

  after(async () => {
    await browser?.close();
    await demo?.close();
  });

  for (const s of SETTINGS) {
    const name = `${s.width} px, ${s.theme}, ${s.lang}`;
    const shot = (what: string) => `${what}-${s.mobile ? 'phone' : 'desktop'}-${s.theme}`;

    test(`${name}: no page scrolls sideways${s.axe ? ', axe finds nothing' : ''}`, async () => {
      const shopper = await newShopper(browser, { width: s.width, height: s.height, mobile: s.mobile });
      const page = shopper.page;
      const problems: string[] = [];
      const check = async (label: string) => {
        const [scroll, client] = await documentWidths(page);
        if (scroll !== client) problems.push(`${label}: ${scroll} px wide on a ${client} px screen (${(await overflowing(page)).join('; ')})`);
        if (s.axe) for (const v of await axeViolations(page)) problems.push(`${label}: ${v}`);
      };
      try {
        // The storefront, its test values, an inline checkout and the modal (a sheet on phones).
        await page.goto(storeUrl(demo, { lang: s.lang, theme: s.theme, method: 'sbp' }));
        await page.locator('[data-buy]').first().waitFor();
        await check('storefront');
        if (s.width === 390) await screenshot(page, shot('storefront'));
        await page.locator('.test-values summary').click();
        await check('storefront, test values open');
        await page.locator('.test-values summary').click();
        await page.locator('[data-buy="coffee-beans"]').click();
        await waitForWidgetState(page, 'pay');
        await check('storefront, inline checkout');

        await page.goto(storeUrl(demo, { lang: s.lang, theme: s.theme, display: 'modal', method: 'sbp' }));
        await page.locator('[data-buy="pour-over-kit"]').click();
        await waitForWidgetState(page, 'pay', '#modal paydesk-checkout');
        const sheet = await page.locator('#modal').boundingBox();
        assert.ok(sheet);
        if (s.mobile) {
          assert.deepEqual(
            [sheet.x, sheet.y, sheet.width, sheet.height].map(Math.round),
            [0, 0, s.width, s.height],
            'on a phone the checkout modal is a full-screen sheet',
          );
        } else {
          assert.ok(sheet.width < s.width / 2 && sheet.x > 0, 'on a desktop the modal is a centred dialog');
        }
        await check('storefront, checkout modal');
        await screenshot(page, shot('storefront-modal'));
        await page.locator('#modal-close').click();

        // A paid cart: "This purchase is paid: order pr_…cart_…" wraps its long order number, the page keeps to the screen.
        await page.goto(`${storeUrl(demo, { lang: s.lang, theme: s.theme })}&cart=${await paidCart()}`);
        await page.locator('#inline-host [data-cart-paid]').waitFor();
        await check('storefront, a paid cart');
        const paidBox = await page.locator('#inline-host [data-cart-paid]').evaluate((e) => ({ right: e.getBoundingClientRect().right, scroll: e.scrollWidth, client: e.clientWidth, text: e.textContent }));
        if (paidBox.right > s.width || paidBox.scroll > paidBox.client) problems.push(`storefront, a paid cart: "${paidBox.text}" is ${paidBox.scroll} px in a ${paidBox.client} px box ending at ${paidBox.right} px`);
        if (s.width === 390) await screenshot(page, shot('storefront-paid-cart'), { locator: page.locator('#inline-host') });

        // The header's switches are on screen and work.
        const other = s.lang === 'ru' ? 'en' : 'ru';
        const langSwitch = page.locator(`#lang-switch label:has(input[value="${other}"])`);
        await onScreen(page, langSwitch, 'the language switch');
        await langSwitch.click();
        await page.waitForFunction((l) => document.documentElement.lang === l, other);
        const themeSwitch = page.locator(`#theme-switch label:has(input[value="${s.theme === 'dark' ? 'light' : 'dark'}"])`);
        await onScreen(page, themeSwitch, 'the theme switch');
        await themeSwitch.click();
        await page.waitForFunction((t) => document.documentElement.dataset.theme === t, s.theme === 'dark' ? 'light' : 'dark');
        // Back to this run's settings (they are remembered across pages).
        await page.locator(`#lang-switch label:has(input[value="${s.lang}"])`).click();
        await page.locator(`#theme-switch label:has(input[value="${s.theme}"])`).click();

        // The server-rendered checkout page (Display "Server page"), taken over by the element.
        await page.goto(storeUrl(demo, { lang: s.lang, theme: s.theme, display: 'server', method: 'sbp' }));
        await page.locator('[data-buy="grinder"]').click();
        await page.waitForURL(/\/checkout\/cart_/);
        await waitForWidgetState(page, 'pay');
        await check('server-rendered checkout');

        for (const path of ['/thanks?ref=coffee-beans', '/support']) {
          await page.goto(`${demo.merchantUrl}${path}${path.includes('?') ? '&' : '?'}lang=${s.lang}&theme=${s.theme}`);
          await page.locator('h1').waitFor();
          await check(path);
        }

        // The console: login, every list, the payout form and its confirmation.
        await page.goto(`${demo.consoleUrl}?lang=${s.lang}&theme=${s.theme}`);
        await page.locator('#password').waitFor();
        await check('console login');
        await logIn(page, demo, '/console', `lang=${s.lang}&theme=${s.theme}`);
        for (const list of LISTS) {
          await page.locator(`#console-nav a[data-list="${list}"]`).click();
          await listSettled(page, list);
          await page.locator('#list-table tbody tr').first().waitFor();
          await check(`console ${list}`);
          if (s.mobile) assertSectionsOnAPhone(await page.evaluate(sectionsOnScreen), `${name}, ${list}`);
          if (list === 'orders' || list === 'payouts') await screenshot(page, shot(`console-${list}`));
        }
        // On a phone the filters fold under "Filters"; open, they fit too.
        const filters = page.locator('#filters-box');
        assert.equal(await filters.evaluate((d) => (d as HTMLDetailsElement).open), !s.mobile, 'filters folded on a phone only');
        if (s.mobile) {
          await page.locator('#filters-box summary').click();
          await page.locator('#f-method_type').waitFor();
          await check('console filters open');
        }
        await page.locator('#console-nav a[data-list="payouts"]').click();
        await page.locator('#new-payout').click();
        await page.locator('#payout-method option').first().waitFor({ state: 'attached' });
        await page.locator('#payout-amount').fill('1500');
        await page.locator('#payout-destination').fill('4111 1111 1111 1111');
        await page.locator('#payout-quote dl').waitFor();
        await check('console payout form');
        await screenshot(page, shot('console-payout-form'));
        await page.locator('#payout-form button[type="submit"]').click();
        await page.locator('#payout-confirm').waitFor();
        await check('console payout confirmation');
        await screenshot(page, shot('console-payout-confirm'), { fullPage: s.mobile });

        // "Log out" is on screen and works.
        const logout = page.locator('#logout');
        await onScreen(page, logout, '"Log out"');
        await logout.click();
        await page.locator('#login-view').waitFor();

        assert.deepEqual(problems, []);
        assert.deepEqual(shopper.errors, []);
        assert.deepEqual(shopper.cspViolations, []);
      } finally {
        await shopper.context.close();
      }
    });
  }
});

/** Fails unless the element is inside the viewport horizontally (reachable without scrolling sideways). */
async function onScreen(page: Page, locator: ReturnType<Page['locator']>, what: string): Promise<void> {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  const width = page.viewportSize()!.width;
  assert.ok(box && box.x >= 0 && box.x + box.width <= width, `${what} is on screen (${JSON.stringify(box)} in ${width} px)`);
}
