/**
 * The storefront behaves like a real shop on an emulated iPhone: after "Buy" the checkout's requisites
 * are on screen; switching display, language or theme mid-payment keeps the same order (one order at
 * the sandbox); a Russian/dark purchase ends on a Russian/dark thanks page; "Buy" offline says so in
 * the page's language.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { IPHONE, openCheckout, sandboxCall, storefrontSuite, storeUrl, waitForWidgetState, waitUntil, widgetOrder, type TestDemo } from './helpers.js';

describe('the storefront on a phone', () => {
  let demo: TestDemo;
  const shopper = storefrontSuite((d) => (demo = d));
  const phone = async (): Promise<Page> => (await shopper(IPHONE)).page;
  const orderCount = async () => (await sandboxCall<{ orders: { total: number } }>(demo, '/api/v1/order?size=1')).orders.total;

  test('after "Buy" the checkout scrolls into view once it has content: the requisites are within the viewport', async () => {
    const page = await phone();
    await page.goto(storeUrl(demo, { method: 'sbp' }));
    await page.locator('[data-buy="coffee-beans"]').tap();
    await waitForWidgetState(page, 'pay');
    const requisites = page.locator('#inline-host paydesk-checkout [part="requisites"]');
    await requisites.waitFor();
    // The page may still be finishing a smooth scroll: wait until it settles with the requisites on screen.
    await waitUntil(
      () =>
        requisites.evaluate((node) => {
          const r = node.getBoundingClientRect();
          return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight + 1; // + 1: subpixel layout
        }),
      'the requisites within the viewport',
      5_000,
    );
  });

  test('switching display, language and theme mid-payment keeps the same order (one order at the sandbox)', async () => {
    const page = await phone();
    const before = await orderCount();
    const first = await openCheckout(page, demo, 'grinder', { method: 'sbp' });
    assert.equal(await orderCount(), before + 1);

    await page.locator('input[name="lang"][value="ru"]').evaluate((input) => (input as HTMLInputElement).click()); // the header's switch (folded on a phone)
    await page.locator('input[name="theme"][value="dark"]').evaluate((input) => (input as HTMLInputElement).click()); // the header's switch (folded on a phone)
    await waitUntil(() => page.locator('#inline-host paydesk-checkout').evaluate((w) => (w as HTMLElement & { locale: string }).locale === 'ru'), 'the widget in Russian');
    await waitForWidgetState(page, 'pay', '#inline-host paydesk-checkout');
    assert.equal((await widgetOrder(page, '#inline-host paydesk-checkout')).id, first.id, 'language and theme keep the order');

    // A DOM click (not one at the radio's place on screen, which a folded header may cover), then the radio seen checked.
    await page.locator('input[name="display"][value="modal"]').evaluate((input) => (input as HTMLInputElement).click());
    await waitUntil(() => page.locator('input[name="display"][value="modal"]').evaluate((input) => (input as HTMLInputElement).checked), 'the modal display chosen');
    await waitForWidgetState(page, 'pay', '#modal-host paydesk-checkout');
    assert.equal((await widgetOrder(page, '#modal-host paydesk-checkout')).id, first.id, 'inline → modal keeps the order');
    assert.equal(await page.locator('#modal-host paydesk-checkout').getAttribute('theme'), 'dark');
    assert.equal(await orderCount(), before + 1, 'exactly one order at the sandbox');
  });

  test('"Buy" with no connection says so in the page\'s language, not the browser\'s "Failed to fetch"; back online, "Buy" works', async () => {
    const { context, page } = await shopper(IPHONE);
    await page.goto(storeUrl(demo, { method: 'sbp', lang: 'ru' }));
    await page.locator('[data-buy="coffee-beans"]').waitFor();
    await context.setOffline(true);
    await page.locator('[data-buy="coffee-beans"]').tap();
    const toast = page.locator('#toast');
    await toast.filter({ hasText: 'Нет соединения — попробуйте ещё раз.' }).waitFor();
    assert.doesNotMatch(await toast.innerText(), /fetch/i);
    assert.equal(await page.locator('paydesk-checkout').count(), 0);
    await context.setOffline(false);
    await page.locator('[data-buy="coffee-beans"]').tap();
    await waitForWidgetState(page, 'pay');
  });

  test('a Russian/dark purchase opened by URL ends on a Russian/dark thanks page', async () => {
    const page = await phone();
    await page.goto(storeUrl(demo, { buy: 'coffee-beans', method: 'sbp', lang: 'ru', theme: 'dark' }));
    await waitForWidgetState(page, 'pay');
    await page.locator('#sandbox-bar [data-sandbox="complete"]:enabled').tap();
    await waitForWidgetState(page, 'paid');
    await page.waitForURL(/\/thanks\?/, { timeout: 20_000 });
    await page.locator('#thanks-product').filter({ hasText: /\S/ }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'ru');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    assert.match(await page.locator('#thanks-title').innerText(), /[А-Яа-я]/);
    // "Back to the shop" keeps them too.
    await page.locator('a.btn.primary').tap();
    await page.waitForURL((url) => url.pathname === '/');
    await waitUntil(() => page.evaluate(() => document.documentElement.lang === 'ru' && document.documentElement.dataset.theme === 'dark'), 'the shop in Russian/dark');
  });
});
