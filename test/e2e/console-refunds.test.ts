/**
 * Refunds in the demo's console (issue 31, point 2), in Chromium: a cart paid by two orders appears
 * in "To refund"; its order's page refunds it — the shopper's phone, the amount, a confirm step — and
 * exactly one payout is made, shown on the order and naming the order in the payouts; with a slow
 * provider, the Refund form confirmed twice (and once more after the first create landed) still
 * makes one payout. PAYDESK_DOCS_SCREENSHOTS=1 copies the screenshots (desktop and phone, light and
 * dark) to docs/console-refunds-due.png and docs/console-refund.png.
 */
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newShopper, ROOT, sandboxCall, SCREENSHOTS, screenshot, startTestDemo, waitUntil, type Shopper, type TestDemo } from './helpers.js';
import { logIn } from './console-page.js';

interface ProviderOrder {
  id: string;
  client_order_id: string;
  order_side: string;
}

describe('refunds in the console', () => {
  let demo: TestDemo;
  let browser: Browser;
  let merchant: Shopper;
  let page: Page;
  let slow = false;
  let creates = 0;
  let held: Array<() => Promise<void>> = [];

  const slowFetch: typeof fetch = async (input, init) => {
    const req = new Request(input, init);
    if (req.method === 'POST' && new URL(req.url).pathname === '/api/v1/order/') {
      const body = await req.clone().text();
      if ((JSON.parse(body) as { order_side?: string }).order_side === 'Sell') {
        creates++;
        if (slow) {
          const late = new Request(req.url, { method: 'POST', headers: req.headers, body });
          held.push(async () => {
            const res = await fetch(late);
            assert.equal(res.status, 201, await res.text());
          });
          const signal = init?.signal ?? req.signal;
          return new Promise<Response>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
        }
      }
    }
    return fetch(req);
  };

  before(async () => {
    [demo, browser] = await Promise.all([startTestDemo({ consoleProvider: { fetch: slowFetch, timeoutMs: 400, lookupWindowMs: 300 } }), launchBrowser()]);
    merchant = await newShopper(browser, { height: 1100 });
    page = merchant.page;
    await logIn(page, demo, '/console/refunds');
  });

  after(async () => {
    await merchant?.context.close().catch(() => undefined);
    await browser?.close();
    await demo?.close();
  });

  /** A cart of the storefront paid by two orders (two browsers on one cart, both paid). */
  async function cartPaidTwice(): Promise<{ cart: string; first: string; second: string }> {
    const res = await fetch(`${demo.merchantUrl}/demo/api/carts`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-paydesk': '1' }, body: JSON.stringify({ product: demo.products[0]!.ref }) });
    assert.equal(res.status, 201, await res.clone().text());
    const { cart } = (await res.json()) as { cart: string };
    const order = async () => {
      const r = await fetch(`${demo.merchantUrl}${demo.endpoint}/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
        body: JSON.stringify({ order_ref: cart, method_type: 'SBP' }),
      });
      assert.equal(r.status, 201, await r.clone().text());
      return ((await r.json()) as { order: { id: string } }).order.id;
    };
    const first = await order();
    const second = await order();
    for (const id of [first, second]) await sandboxCall(demo, `/sandbox/orders/${id}/complete`, { method: 'POST' });
    await demo.reconcile();
    return { cart, first, second };
  }

  const refundSells = async (orderId: string) =>
    (await sandboxCall<{ orders: { items: ProviderOrder[] } }>(demo, '/api/v1/order/?order_side=Sell&size=100')).orders.items.filter((o) => o.client_order_id.startsWith(`refund-${orderId}-`));

  async function fillRefund(account: string): Promise<void> {
    await page.locator('#refund-account').fill(account);
    await page.locator('#refund-continue').click();
    await page.locator('#refund-confirm').waitFor();
  }

  test('a cart paid twice appears in "To refund"; its refund makes exactly one payout, shown on the order and naming it', async () => {
    const { first, second } = await cartPaidTwice();
    await page.goto(`${demo.merchantUrl}/console/refunds?lang=en&theme=light`);
    const orderCells = () => page.locator('.refunds-due tbody td[data-col="order"]').allInnerTexts();
    const row = page.locator('.refunds-due tbody tr', { has: page.locator('td[data-col="order"]', { hasText: second.slice(0, 8) }) });
    await row.waitFor();
    assert.match(await row.innerText(), /Paid twice/);
    assert.ok(!(await orderCells()).some((t) => t.includes(first.slice(0, 8))), 'the fulfilled order is not to refund');
    assert.equal(await page.locator('#console-nav a[data-page="refunds"][aria-current="page"]').count(), 1, 'the nav marks the page');
    await screenshot(page, 'console-refunds-due-desktop-light', { fullPage: true });

    await row.locator('a.btn').click();
    await page.waitForURL((u) => u.pathname === `/console/orders/${second}`);
    await page.locator('#refund-form').waitFor();
    assert.match(await page.locator('.order-head .badges').innerText(), /Paid twice — refund due/);
    assert.match(await page.locator('#refund-left').innerText(), /left to refund/);
    // Bad input is caught on the page before anything is sent.
    await page.locator('#refund-account').fill('12345');
    await page.locator('#refund-continue').click();
    await page.locator('#refund-account-error').filter({ hasText: 'phone number' }).waitFor();
    await fillRefund('+7 999 123-45-67');
    assert.match(await page.locator('#refund-summary').innerText(), /phone, by SBP/);
    // The cost before confirming: the payout method, its fee and the total taken from the balance (the payout form's quote).
    assert.match(await page.locator('#refund-summary').innerText(), /Fee[\s\S]*Taken from the balance/);
    assert.notEqual(await page.locator('#refund-total').innerText(), await page.locator('#refund-fee').innerText());
    await screenshot(page, 'console-refund-confirm-desktop-light', { fullPage: true });
    await page.locator('#refund-submit').click();
    await page.locator('#refunds-table tbody tr').waitFor();
    const sells = await refundSells(second);
    assert.equal(sells.length, 1, 'one payout for the refund');
    await page.locator(`#refunds-table a[href$="/console/orders/${sells[0]!.id}"]`).waitFor();
    assert.match(await page.locator('#refund-left').innerText(), /all of it is refunded/);
    assert.equal(await page.locator('#refund-form').count(), 0, 'nothing left: no form');
    await screenshot(page, 'console-refund-done-desktop-light', { fullPage: true });

    // Gone from "To refund"; the payout names the order.
    await page.goto(`${demo.merchantUrl}/console/refunds?lang=en&theme=light`);
    await page.locator('.refunds-due').waitFor();
    await waitUntil(async () => (await page.locator('.refunds-due[aria-busy]').count()) === 0, 'the list loaded');
    assert.ok(!(await orderCells()).some((t) => t.includes(second.slice(0, 8))), 'refunded: no longer to refund');
    await page.goto(`${demo.merchantUrl}/console/payouts?lang=en&theme=light`);
    await page.locator(`#list-table a[href$="/console/orders/${second}"]`).waitFor();
    // The orders list too: the refund's payout is "Refund of order …", linking to it.
    await page.goto(`${demo.merchantUrl}/console/orders?lang=en&theme=light`);
    await page.locator(`#list-table a[href$="/console/orders/${second}"]`, { hasText: 'Refund of order' }).waitFor();
    assert.deepEqual(merchant.errors, []);
  });

  test('a slow provider: the Refund form confirmed twice, and again once the first create landed, makes one payout', async () => {
    const { second } = await cartPaidTwice();
    await page.goto(`${demo.merchantUrl}/console/orders/${second}?lang=en&theme=light`);
    await page.locator('#refund-form').waitFor();
    await fillRefund('4000 0566 5566 5556');
    slow = true;
    creates = 0;
    const submit = page.locator('#refund-submit');
    await submit.dblclick();
    await page.locator('#refund-error').filter({ hasText: /did not confirm/ }).waitFor();
    assert.equal(creates, 1, 'a double click sent one create');
    await submit.click();
    await page.locator('#refund-error').filter({ hasText: /do not pay it again/ }).waitFor();
    assert.equal(creates, 1, 'the second confirm sent nothing');
    assert.deepEqual(await refundSells(second), []);

    for (const go of held.splice(0)) await go();
    slow = false;
    await submit.click();
    await page.locator('#refunds-table tbody tr').waitFor();
    const sells = await refundSells(second);
    assert.equal(sells.length, 1, 'exactly one payout for the refund');
    assert.equal(creates, 1);
    await page.locator(`#refunds-table a[href$="/console/orders/${sells[0]!.id}"]`).waitFor();
  });

  test('phone and dark: "To refund" and the Refund form fit 390 px, in Russian and English', async () => {
    const { second } = await cartPaidTwice();
    const phone = await newShopper(browser, { width: 390, height: 844, mobile: true });
    try {
      for (const [lang, theme] of [['ru', 'dark'], ['en', 'light']] as const) {
        await logIn(phone.page, demo, '/console/refunds', `lang=${lang}&theme=${theme}`);
        await phone.page.locator('.refunds-due tbody tr', { hasText: second.slice(0, 8) }).waitFor();
        const fits = async () => phone.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
        assert.ok(await fits(), `${lang}/${theme}: "To refund" fits`);
        await screenshot(phone.page, `console-refunds-due-phone-${theme}`, { fullPage: true });
        await phone.page.goto(`${demo.merchantUrl}/console/orders/${second}?lang=${lang}&theme=${theme}`);
        await phone.page.locator('#refund-form').waitFor();
        await phone.page.locator('#refund-account').fill('+7 999 765-43-21');
        await phone.page.locator('#refund-continue').click();
        await phone.page.locator('#refund-confirm').waitFor();
        assert.ok(await fits(), `${lang}/${theme}: the Refund form fits`);
        await phone.page.locator('#order-refunds').scrollIntoViewIfNeeded();
        await screenshot(phone.page, `console-refund-phone-${theme}`);
        if (lang === 'ru') assert.match(await phone.page.locator('#refund-confirm').innerText(), /Подтвердить возврат/);
        await phone.page.context().clearCookies();
      }
      assert.deepEqual(phone.errors, []);
    } finally {
      await phone.context.close();
    }
    await page.goto(`${demo.merchantUrl}/console/refunds?lang=en&theme=dark`);
    await page.locator('.refunds-due tbody tr').first().waitFor();
    await screenshot(page, 'console-refunds-due-desktop-dark', { fullPage: true });
    if (process.env.PAYDESK_DOCS_SCREENSHOTS === '1') {
      copyFileSync(`${SCREENSHOTS}console-refunds-due-desktop-light.png`, `${ROOT}docs/console-refunds-due.png`);
      copyFileSync(`${SCREENSHOTS}console-refund-confirm-desktop-light.png`, `${ROOT}docs/console-refund.png`);
      for (const name of ['console-refunds-due-phone-dark', 'console-refunds-due-desktop-dark', 'console-refund-phone-dark', 'console-refund-phone-light', 'console-refunds-due-phone-light']) {
        copyFileSync(`${SCREENSHOTS}${name}.png`, `${ROOT}docs/${name}.png`);
      }
    }
  });
});
