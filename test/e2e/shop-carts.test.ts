/**
 * Each "Buy" on the storefront is a new purchase in a cart of its own (a cart id as order_ref, priced
 * on the server from its product): two tabs that each press "Buy" on the same product have two
 * orders and each keeps its own on screen; a reload, or the same purchase's address opened in
 * another tab, resumes that purchase's order; an older `?buy=<product>` link opens a new cart.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { sandboxCall, storefrontSuite, storeUrl, waitForWidgetState, widgetOrder, type TestDemo } from './helpers.js';

const cartOf = (page: Page) => new URL(page.url()).searchParams.get('cart');

describe('the storefront: one purchase, one cart, one order', () => {
  let demo: TestDemo;
  const shopper = storefrontSuite((d) => (demo = d));
  const orderCount = async () => (await sandboxCall<{ orders: { total: number } }>(demo, '/api/v1/order?size=1')).orders.total;

  async function buyIn(page: Page, ref: string) {
    await page.locator(`[data-buy="${ref}"]`).click();
    await waitForWidgetState(page, 'pay');
    return widgetOrder(page);
  }

  test('two tabs, "Buy" in each: two carts, two orders, each tab keeps its own; reloads and a second tab of one purchase resume it', async () => {
    const { context, page: first } = await shopper();
    const before = await orderCount();
    await first.goto(storeUrl(demo, { method: 'sbp' }));
    const a = await buyIn(first, 'coffee-beans');
    const cartA = cartOf(first);
    assert.match(cartA ?? '', /^cart_[A-Za-z0-9_-]{16}$/, 'the cart is in the address');
    assert.equal(await first.locator('paydesk-checkout').getAttribute('order-ref'), cartA);
    assert.equal(a.amount, '1500.00', "the catalog's price of the cart's product");

    const second = await context.newPage();
    await second.goto(storeUrl(demo, { method: 'sbp' }));
    const b = await buyIn(second, 'coffee-beans');
    const cartB = cartOf(second);
    assert.notEqual(cartB, cartA, 'a second "Buy" is a new cart');
    assert.notEqual(b.id, a.id, 'and a new order');
    assert.equal(b.amount, '1500.00');
    assert.equal(await orderCount(), before + 2);

    // The first tab still shows its own order, and a reload of either resumes its own.
    assert.equal((await widgetOrder(first)).id, a.id);
    await first.reload();
    await waitForWidgetState(first, 'pay');
    assert.equal((await widgetOrder(first)).id, a.id, 'a reload resumes the first purchase');
    assert.equal(cartOf(first), cartA);
    await second.reload();
    await waitForWidgetState(second, 'pay');
    assert.equal((await widgetOrder(second)).id, b.id, 'a reload resumes the second purchase');

    // The first purchase's address in a third tab: the same order, not a new one.
    const third = await context.newPage();
    await third.goto(first.url());
    await waitForWidgetState(third, 'pay');
    assert.equal((await widgetOrder(third)).id, a.id, 'a second tab of the same purchase resumes it');
    assert.equal(await orderCount(), before + 2, 'reloads and the third tab made no order');
  });

  test('an older ?buy=<product> link opens a new cart for it; an unknown cart says so and opens nothing', async () => {
    const { page } = await shopper();
    await page.goto(storeUrl(demo, { buy: 'grinder', method: 'sbp' }));
    await waitForWidgetState(page, 'pay');
    assert.match(cartOf(page) ?? '', /^cart_/);
    assert.equal(new URL(page.url()).searchParams.get('buy'), null);
    assert.equal((await widgetOrder(page)).amount, '7490.50');

    const { page: other } = await shopper();
    await other.goto(`${demo.storefrontUrl}?cart=cart_AAAAAAAAAAAAAAAA&lang=en`);
    await other.locator('#toast').filter({ hasText: /expired or is unknown/ }).waitFor();
    assert.equal(await other.locator('paydesk-checkout').count(), 0);
    assert.equal(cartOf(other), null);
  });
});
