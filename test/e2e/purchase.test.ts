/**
 * A shopper buys a product on the demo storefront: requisites and countdown, the QR code, the
 * sandbox marking the order paid, the success screen and the redirect after 5 s; a reload resumes
 * the same order; the modal display.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  buy,
  decodeQr,
  providerOrder,
  screenshot,
  showShop,
  storeUrl,
  waitForWidgetState,
  waitUntil,
  widgetOrder,
  type TestDemo,
  storefrontSuite,
  openCheckout,
} from './helpers.js';

describe('purchase on the storefront', () => {
  let demo: TestDemo;
  const shopper = storefrontSuite((d) => (demo = d));

  test('the storefront lists the catalog with prices and shows the sandbox bar', async () => {
    const { page, errors, cspViolations } = await shopper();
    await page.goto(storeUrl(demo));
    const cards = page.locator('.product');
    await cards.first().waitFor();
    assert.equal(await cards.count(), demo.products.length);
    await page.locator('.product[data-ref="grinder"] .price').filter({ hasText: '7,490.50' }).waitFor();
    assert.equal(await page.locator('#sandbox-bar').isVisible(), true);
    await screenshot(page, 'storefront', { fullPage: true });
    assert.deepEqual(errors, []);
    assert.deepEqual(cspViolations, []);
  });

  test('a shopper buys with SBP: requisites, countdown, a QR of the payment link, paid, then back to the shop after 5 s', async () => {
    const { page, errors, cspViolations } = await shopper();
    const order = await openCheckout(page, demo, 'coffee-beans', { method: 'sbp' });
    assert.equal(order.amount, '1500.00');
    assert.equal(order.status, 'pending');
    assert.ok(order.requisites, 'the order has requisites');

    // Requisites and countdown on screen.
    const widget = page.locator('#inline-host paydesk-checkout');
    const requisites = widget.locator('[part="requisites"]');
    await requisites.waitFor();
    const digits = order.requisites.holder_account.replace(/\D/g, '').slice(-4);
    assert.match((await requisites.innerText()).replace(/\D/g, ''), new RegExp(digits));
    assert.match(await requisites.innerText(), new RegExp(order.requisites.holder_name));
    const timer = widget.locator('[part="countdown"]');
    assert.equal(await timer.getAttribute('role'), 'timer');
    const [minutes] = (await timer.innerText()).trim().split(':').map(Number);
    assert.ok(minutes !== undefined && minutes >= 0 && minutes <= 30, `countdown shows minutes left, got ${await timer.innerText()}`);

    // The QR on screen is the order's payment link.
    assert.ok(order.payment_link, 'an SBP order has a payment link');
    const qr = widget.locator('[part="qr"] canvas');
    await qr.waitFor();
    assert.equal(await decodeQr(qr), order.payment_link);
    await showShop(page);
    await screenshot(page, 'checkout-sbp-requisites');

    // The sandbox marks the order paid (the storefront's sandbox bar → merchant server → sandbox).
    await page.locator('#sandbox-bar [data-sandbox="complete"]').click();
    await waitForWidgetState(page, 'paid');
    assert.equal((await providerOrder(demo, order.client_order_id)).status, 'Completed');
    await widget.locator('.badge.ok').waitFor();
    await showShop(page);
    await screenshot(page, 'checkout-paid');

    // 5 seconds later the widget sends the shopper to redirect_url.
    await page.waitForURL(/\/thanks\?ref=coffee-beans$/, { timeout: 20_000 });
    await page.locator('#thanks-product').filter({ hasText: 'Ethiopia' }).waitFor();
    await screenshot(page, 'thanks');
    assert.deepEqual(errors, []);
    assert.deepEqual(cspViolations, []);
  });

  test('a reload resumes the same order instead of creating a second one', async () => {
    const { page } = await shopper();
    const first = await openCheckout(page, demo, 'grinder', { method: 'card' });
    assert.equal(first.requisites?.kind, 'card');

    await page.reload();
    await waitForWidgetState(page, 'pay');
    const again = await widgetOrder(page);
    assert.equal(again.id, first.id);
    assert.equal(again.client_order_id, first.client_order_id);
    const found = await demo.sandbox!.fetch(
      new Request(`http://sandbox/api/v1/order/search-by-client-order-id?id=${encodeURIComponent(first.client_order_id)}`, {
        headers: { 'X-API-Key': demo.sandboxApiKey! },
      }),
    );
    assert.equal(((await found.json()) as { orders: { total: number } }).orders.total, 1, 'exactly one order at the provider');
  });

  test('pressing "Buy" again after changing the method starts a new order', async () => {
    const { page } = await shopper();
    const card = await openCheckout(page, demo, 'gift-card', { method: 'card' });
    await page.locator('#method-switch input[value="sbp"]').check({ force: true });
    await waitUntil(async () => (await widgetOrder(page).catch(() => null))?.id !== card.id && (await widgetOrder(page).catch(() => null)), 'a new order');
    await waitForWidgetState(page, 'pay');
    const sbp = await widgetOrder(page);
    assert.notEqual(sbp.id, card.id);
    assert.equal(sbp.requisites?.kind, 'phone');
  });

  test('the bank button: the order goes to the chosen bank and the widget offers its app (dark theme, Russian)', async () => {
    const { page } = await shopper();
    await page.goto(storeUrl(demo, { method: 'bank', bank: 'VTBPay', lang: 'ru', theme: 'dark' }));
    await buy(page, 'coffee-beans'); // the products render once the page has applied its settings
    assert.equal(await page.locator('#bank-select').inputValue(), 'VTBPay');
    await waitForWidgetState(page, 'pay');
    const order = await widgetOrder(page);
    assert.equal(order.bank, 'vtb');
    const widget = page.locator('#inline-host paydesk-checkout');
    assert.equal(await widget.getAttribute('button-name'), 'VTBPay');
    assert.equal(await widget.getAttribute('theme'), 'dark');
    assert.match(await widget.locator('[part="requisites"]').innerText(), /ВТБ/);
    assert.match(await page.locator('#code').innerText(), /button-name="VTBPay"/);
    await showShop(page);
    await screenshot(page, 'checkout-bank-dark-ru');
  });

  test('the shopper picks the method in the widget, and the modal display shows the same checkout', async () => {
    const { page } = await shopper();
    await page.goto(storeUrl(demo, { display: 'modal', lang: 'ru' }));
    await buy(page, 'pour-over-kit');
    const dialog = page.locator('#modal');
    await dialog.waitFor({ state: 'visible' });
    const widget = dialog.locator('paydesk-checkout');
    await waitForWidgetState(page, 'choose', '#modal paydesk-checkout');
    await screenshot(page, 'modal-methods-ru');
    await widget.locator('[part="method"]').first().click();
    await waitForWidgetState(page, 'pay', '#modal paydesk-checkout');
    await widget.locator('[part="requisites"]').waitFor();
    await screenshot(page, 'modal-requisites-ru');

    // The sandbox controls are inside the dialog too (the page behind a modal is inert).
    await dialog.locator('[data-sandbox="complete"]').click();
    await waitForWidgetState(page, 'paid', '#modal paydesk-checkout');
  });
});
