/**
 * A paid cart is paid: the shop keeps its own record of the order that paid each cart (demo/carts.ts)
 * and fulfils a cart once. The same cart opened in another browser shows it paid (no new order, no
 * second request for the money); the merchant server refuses to price a paid cart for any create (a
 * replay of an older one included); another paid order of a paid
 * cart (a late payment of an expired order after its renewal was paid) is logged as a double payment
 * to refund, never fulfilled again.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { openCheckout, sandboxCall, storefrontSuite, waitForWidgetState, waitUntil, widgetOrder, type TestDemo } from './helpers.js';

const cartOf = (page: Page) => new URL(page.url()).searchParams.get('cart')!;

describe('a paid cart is paid once', () => {
  let demo: TestDemo;
  const shopper = storefrontSuite((d) => (demo = d));
  const orderCount = async () => (await sandboxCall<{ orders: { total: number } }>(demo, '/api/v1/order?size=1')).orders.total;
  const cartApi = async (cart: string) =>
    (await (await fetch(`${demo.merchantUrl}/demo/api/carts/${cart}`)).json()) as {
      paid: { order_id: string; client_order_id: string; at: string } | null;
      double_payments: string[];
    };
  const fulfilled = (cart: string) => demo.logs.filter((l) => l.includes(`[shop] order ${cart} paid`) && l.includes(': fulfilled'));
  /** A create of the cart's order through the token endpoint, as a browser of the shop sends it. */
  const create = (cart: string, key: string) =>
    fetch(`${demo.merchantUrl}/api/paydesk/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paydesk': '1', 'idempotency-key': key, origin: demo.merchantUrl },
      body: JSON.stringify({ order_ref: cart, method_type: 'SBP' }),
    });

  test('paid on one phone, the same cart opened in another browser shows it paid, creates no order, and a new order for it is refused', async () => {
    const { page: first } = await shopper();
    const order = await openCheckout(first, demo, 'gift-card', { method: 'sbp' });
    const cart = cartOf(first);
    const cartUrl = first.url();
    await sandboxCall(demo, `/sandbox/orders/${order.id}/complete`, { body: {} });
    await waitForWidgetState(first, 'paid');
    await waitUntil(() => fulfilled(cart).length === 1, 'the shop fulfils the cart');
    assert.deepEqual(
      { ...(await cartApi(cart)).paid, at: undefined },
      { order_id: order.id, client_order_id: order.client_order_id, at: undefined },
      'the cart says which order paid it',
    );

    const before = await orderCount();
    const { page: second } = await shopper();
    await second.goto(cartUrl);
    const paid = second.locator('#inline-host [data-cart-paid]');
    await paid.filter({ hasText: order.client_order_id }).waitFor(); // the order number the widget showed
    assert.match(await paid.innerText(), /This purchase is paid/);
    assert.equal(await second.locator('paydesk-checkout').count(), 0, 'no checkout for a paid cart');
    // Changing a payment setting keeps it paid (no checkout is rebuilt for it).
    await second.locator('input[name="method"][value="card"]').check();
    await paid.waitFor();
    assert.equal(await second.locator('paydesk-checkout').count(), 0);

    // The server's backstop: a new create for the paid cart (a fresh Idempotency-Key) is refused.
    const refused = await create(cart, randomUUID());
    assert.equal(refused.status, 404);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'order_not_found');
    assert.equal(await orderCount(), before, 'no new order for the paid cart');
    assert.equal(fulfilled(cart).length, 1);
  });

  test('a paid cart refuses even the replay of an older create; a second order paid for the cart is a double payment, not fulfilled again', async () => {
    const opened = (await (await fetch(`${demo.merchantUrl}/demo/api/carts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
      body: JSON.stringify({ product: 'coffee-beans' }),
    })).json()) as { cart: string };
    const cart = opened.cart;
    // Two browsers opened the cart before it was paid: each its own order.
    const [keyA, keyB] = [randomUUID(), randomUUID()];
    const a = (await (await create(cart, keyA)).json()) as { session: string; order: { id: string } };
    const b = (await (await create(cart, keyB)).json()) as { session: string; order: { id: string } };
    assert.notEqual(a.order.id, b.order.id);

    await sandboxCall(demo, `/sandbox/orders/${a.order.id}/complete`, { body: {} });
    await waitUntil(() => fulfilled(cart).length === 1, 'the shop fulfils the cart');
    // Paid: no create is priced, a replay of an older key neither (its create may have failed or lapsed).
    const replay = await create(cart, keyB);
    assert.equal(replay.status, 404);
    assert.equal(((await replay.json()) as { error: { code: string } }).error.code, 'order_not_found');

    await sandboxCall(demo, `/sandbox/orders/${b.order.id}/complete`, { body: {} });
    const double = (l: string) => l.startsWith('error [shop] double payment') && l.includes(a.order.id) && l.includes(b.order.id);
    await waitUntil(() => demo.logs.some(double), 'the double payment is logged for a refund');
    assert.equal(fulfilled(cart).length, 1, 'the cart is fulfilled once');
    const state = await cartApi(cart);
    assert.equal(state.paid?.order_id, a.order.id);
    assert.deepEqual(state.double_payments, [b.order.id]);
  });

  test('expired, new payment details (order 2), then order 1 is paid late: the cart is fulfilled once; order 2 paid too is flagged for a refund; the page shows the cart paid', async () => {
    const { page } = await shopper();
    const first = await openCheckout(page, demo, 'pour-over-kit', { method: 'sbp' });
    const cart = cartOf(page);
    await sandboxCall(demo, `/sandbox/orders/${first.id}/expire`, { body: {} });
    await waitForWidgetState(page, 'expired');
    await page.locator('paydesk-checkout').getByRole('button', { name: 'Get new payment details' }).click();
    await waitUntil(async () => (await widgetOrder(page).catch(() => null))?.id !== first.id || null, 'order 2');
    await waitForWidgetState(page, 'pay');
    const second = await widgetOrder(page);
    assert.notEqual(second.id, first.id);

    await sandboxCall(demo, `/sandbox/orders/${first.id}/complete`, { body: { late: true } });
    await waitUntil(() => fulfilled(cart).length === 1, 'order 1 paid late fulfils the cart');
    assert.match(fulfilled(cart)[0]!, /paid late: fulfilled/);
    // The page showing order 2's requisites learns that the cart is paid: no more asking for money.
    await page.locator('#inline-host [data-cart-paid]').filter({ hasText: first.client_order_id }).waitFor({ timeout: 30_000 });
    assert.equal(await page.locator('paydesk-checkout').count(), 0);
    await sandboxCall(demo, `/sandbox/orders/${second.id}/complete`, { body: {} });
    const double = (l: string) => l.startsWith('error [shop] double payment') && l.includes(first.id) && l.includes(second.id);
    await waitUntil(() => demo.logs.some(double), 'order 2 is flagged as a double payment');
    assert.equal(fulfilled(cart).length, 1, 'the cart is fulfilled once');
    const state = await cartApi(cart);
    assert.equal(state.paid?.order_id, first.id);
    assert.deepEqual(state.double_payments, [second.id]);

    // A reload shows the shop's record: paid by order 1, no checkout.
    await page.goto(`${demo.storefrontUrl}?cart=${cart}&lang=en`);
    await page.locator('#inline-host [data-cart-paid]').filter({ hasText: first.client_order_id }).waitFor();
    assert.equal(await page.locator('paydesk-checkout').count(), 0);
  });
});
