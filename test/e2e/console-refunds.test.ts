/**
 * Refunds in the demo's console (issue 31, point 2), in Chromium: a cart paid by two orders appears
 * in "To refund"; its order's page refunds it — the shopper's phone, the shopper's bank (refused on
 * screen until chosen; the payout goes by that bank's SBP method, read back from the sandbox), the
 * amount, a confirm step — and exactly one payout is made, shown on the order and naming the order in
 * the payouts; an order that names the shopper's bank preselects it; with a slow
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
import { axeViolations } from './page-checks.js';

interface ProviderOrder {
  id: string;
  client_order_id: string;
  order_side: string;
  method_id: string;
  method_name: string;
  customer_account: string | null;
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

  /** The sandbox's payment method of a type and bank (`nspk_code`). */
  const sandboxMethod = async (type: string, nspk: string) => {
    const { payment_methods } = await sandboxCall<{ payment_methods: Array<{ method_id: string; method_name: string; method_type: string; nspk_code: string | null }> }>(demo, '/api/v1/finance/payment_methods');
    const m = payment_methods.find((x) => x.method_type === type && x.nspk_code === nspk);
    assert.ok(m, `${type} ${nspk} at the sandbox`);
    return m;
  };

  async function fillRefund(account: string, bank?: string): Promise<void> {
    await page.locator('#refund-account').fill(account);
    if (bank) await page.locator('#refund-bank').selectOption({ label: bank });
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
    // A phone without the shopper's bank is refused on screen, before anything is sent.
    await page.locator('#refund-account').fill('+7 999 123-45-67');
    const bank = page.locator('#refund-bank');
    await bank.waitFor();
    assert.deepEqual(await bank.locator('option').allInnerTexts(), ['Choose the bank…', 'Sber', 'T-Bank', 'VTB', 'Alfa-Bank'], 'the banks that pay out by SBP');
    assert.equal(await bank.inputValue(), '', 'nothing preselected: the order does not name the shopper’s bank');
    await page.locator('#refund-continue').click();
    const bankError = page.locator('#refund-bank-error');
    await bankError.filter({ hasText: 'Choose the shopper’s bank' }).waitFor();
    assert.equal(await bank.getAttribute('aria-invalid'), 'true');
    assert.match((await bank.getAttribute('aria-describedby')) ?? '', /refund-bank-error/, 'the message is tied to the select');
    assert.ok(await bank.evaluate((e) => e === document.activeElement), 'focus on the bank to choose');
    assert.ok(await page.locator('#refund-confirm').isHidden(), 'no confirm step without a bank');
    assert.equal(creates, 0, 'nothing sent');
    await screenshot(page, 'console-refund-bank-required-desktop-light', { fullPage: true });
    await fillRefund('+7 999 123-45-67', 'VTB');
    assert.match(await page.locator('#refund-summary').innerText(), /phone, by SBP/);
    assert.equal(await page.locator('#refund-bank-chosen').innerText(), 'VTB', 'the confirm step shows the bank');
    assert.match(await page.locator('#refund-method').innerText(), /СБП — ВТБ/);
    // The cost before confirming: the payout method, its fee and the total taken from the balance (the payout form's quote).
    assert.match(await page.locator('#refund-summary').innerText(), /Fee[\s\S]*Taken from the balance/);
    assert.notEqual(await page.locator('#refund-total').innerText(), await page.locator('#refund-fee').innerText());
    await screenshot(page, 'console-refund-confirm-desktop-light', { fullPage: true });
    await page.locator('#refund-submit').click();
    await page.locator('#refunds-table tbody tr').waitFor();
    const sells = await refundSells(second);
    assert.equal(sells.length, 1, 'one payout for the refund');
    const vtb = await sandboxMethod('SBP', 'bank100000000005');
    assert.deepEqual([sells[0]!.method_id, sells[0]!.method_name, sells[0]!.customer_account], [vtb.method_id, 'СБП — ВТБ', '+79991234567'], 'the payout goes by VTB’s SBP method');
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

  test('an order that names the shopper’s bank (customer_bank vtb) preselects VTB in the Refund form', async () => {
    // An order made at the provider with the shopper's bank (as an order_with_form integration sends it), then paid.
    const made = await sandboxCall<{ id: string; customer_bank: string | null }>(demo, '/api/v1/order/', {
      body: { client_order_id: `refund-bank-${Date.now()}`, order_side: 'Buy', amount: 2500, method_type: 'SBP', customer_bank: 'vtb' },
    });
    assert.equal(made.customer_bank, 'vtb', 'the provider order names the shopper’s bank');
    const id = made.id;
    await sandboxCall(demo, `/sandbox/orders/${id}/complete`, { method: 'POST' });
    await page.goto(`${demo.merchantUrl}/console/orders/${id}?lang=en&theme=dark`);
    await page.locator('#refund-form').waitFor();
    await page.locator('#refund-account').fill('+7 999 222-33-44');
    await waitUntil(async () => (await page.locator('#refund-bank').inputValue()) !== '', 'the bank preselected');
    assert.equal(await page.locator('#refund-bank option:checked').innerText(), 'VTB');
    assert.match(await page.locator('#refund-bank-hint').innerText(), /The order says the shopper paid from VTB/);
    await page.locator('#refund-continue').click();
    await page.locator('#refund-confirm').waitFor();
    assert.equal(await page.locator('#refund-bank-chosen').innerText(), 'VTB');
    await screenshot(page, 'console-refund-bank-preselected-desktop-dark', { fullPage: true });
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

  test('phone and dark: "To refund" and the Refund form (the bank refused, then chosen) fit 320 and 390 px, in Russian and English; axe finds nothing', async () => {
    const { second } = await cartPaidTwice();
    for (const [lang, theme, width] of [['ru', 'dark', 320], ['en', 'light', 390]] as const) {
      const phone = await newShopper(browser, { width, height: 844, mobile: true });
      try {
        await logIn(phone.page, demo, '/console/refunds', `lang=${lang}&theme=${theme}`);
        await phone.page.locator('.refunds-due tbody tr', { hasText: second.slice(0, 8) }).waitFor();
        const fits = async () => phone.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
        assert.ok(await fits(), `${lang}/${theme}: "To refund" fits`);
        await screenshot(phone.page, `console-refunds-due-phone-${theme}`, { fullPage: true });
        await phone.page.goto(`${demo.merchantUrl}/console/orders/${second}?lang=${lang}&theme=${theme}`);
        await phone.page.locator('#refund-form').waitFor();
        await phone.page.locator('#refund-account').fill('+7 999 765-43-21');
        await phone.page.locator('#refund-continue').click();
        await phone.page.locator('#refund-bank-error:not([hidden])').waitFor();
        if (lang === 'ru') assert.equal(await phone.page.locator('#refund-bank-error').innerText(), 'Выберите банк покупателя: возврат придёт по СБП на его телефон в этом банке.');
        assert.ok(await fits(), `${lang}/${theme}, ${width} px: the Refund form with the bank refused fits`);
        const bankBox = await phone.page.locator('#refund-bank').boundingBox();
        assert.ok(bankBox && bankBox.x >= 0 && bankBox.x + bankBox.width <= width, `the bank's select is on screen: ${JSON.stringify(bankBox)}`);
        assert.deepEqual(await axeViolations(phone.page), [], `${lang}/${theme}: the form with its bank error`);
        await phone.page.locator('#order-refunds').scrollIntoViewIfNeeded();
        await screenshot(phone.page, `console-refund-bank-phone-${theme}`);
        await phone.page.locator('#refund-bank').selectOption({ label: lang === 'ru' ? 'ВТБ' : 'VTB' });
        await phone.page.locator('#refund-continue').click();
        await phone.page.locator('#refund-confirm').waitFor();
        assert.equal(await phone.page.locator('#refund-bank-chosen').innerText(), lang === 'ru' ? 'ВТБ' : 'VTB');
        assert.ok(await fits(), `${lang}/${theme}, ${width} px: the Refund form fits`);
        assert.deepEqual(await axeViolations(phone.page), [], `${lang}/${theme}: the confirm step`);
        await phone.page.locator('#order-refunds').scrollIntoViewIfNeeded();
        await screenshot(phone.page, `console-refund-phone-${theme}`);
        if (lang === 'ru') assert.match(await phone.page.locator('#refund-confirm').innerText(), /Банк покупателя\s+ВТБ[\s\S]*Подтвердить возврат/);
        assert.deepEqual(phone.errors, []);
      } finally {
        await phone.context.close();
      }
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
