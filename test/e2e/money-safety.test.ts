/**
 * Money safety as a shopper meets it, in Chromium against the demo: two tabs of one browser and a
 * double click make one order; a shopper whose order expired sends a receipt, the provider accepts
 * the dispute while the order stays cancelled, and the widget ends "paid" (late) — and the shop's
 * onOrderPaid runs once.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { OrderView } from '../../src/protocol/index.js';
import { buy, IPHONE, openCheckout, sandboxCall, screenshot, storeUrl, storefrontSuite, waitForWidgetState, waitUntil, widgetOrder, widgetState, type TestDemo } from './helpers.js';

/** The ids of every order the provider has (the sandbox's newest 100: a test's own are among them). */
async function orderIds(demo: TestDemo): Promise<Set<string>> {
  const list = await sandboxCall<{ orders: { items: Array<{ id: string }> } }>(demo, '/api/v1/order/?size=100&sort_by=created_at&sort=desc');
  return new Set(list.orders.items.map((o) => o.id));
}

/** The orders created since `before` was taken. */
async function newOrders(demo: TestDemo, before: Set<string>): Promise<string[]> {
  return [...(await orderIds(demo))].filter((id) => !before.has(id));
}

describe('money safety in the browser', () => {
  let demo: TestDemo;
  const shopper = storefrontSuite((d) => (demo = d));

  test('two tabs of one browser on one checkout: the second tab shows the first tab\'s order; one provider order', async () => {
    const { context, page } = await shopper();
    const before = await orderIds(demo);
    await page.goto(new URL('/cdn-demo', demo.storefrontUrl).href);
    await waitForWidgetState(page, 'pay', 'paydesk-checkout');
    const first = await widgetOrder(page, 'paydesk-checkout');
    const second = await context.newPage();
    await second.goto(new URL('/cdn-demo', demo.storefrontUrl).href);
    await waitForWidgetState(second, 'pay', 'paydesk-checkout');
    const other = await widgetOrder(second, 'paydesk-checkout');
    assert.equal(other.id, first.id);
    assert.deepEqual(await newOrders(demo, before), [first.id]);
  });

  test('two tabs of a phone on one cart, both choosing: tab 1 pays and says so; tab 2 picks a way and shows the same order being checked, no "I have paid"', async () => {
    const { context, page } = await shopper(IPHONE);
    const before = await orderIds(demo);
    await page.goto(storeUrl(demo));
    await buy(page, 'coffee-beans');
    await waitForWidgetState(page, 'choose');
    const second = await context.newPage();
    await second.goto(page.url());
    await waitForWidgetState(second, 'choose');
    await page.locator('paydesk-checkout [part="method"]').first().click();
    await waitForWidgetState(page, 'pay');
    await page.locator('paydesk-checkout').getByRole('button', { name: /I have paid/i }).click();
    await waitForWidgetState(page, 'confirming');
    await second.locator('paydesk-checkout [part="method"]').first().click();
    await waitForWidgetState(second, 'confirming');
    assert.equal((await widgetOrder(second)).id, (await widgetOrder(page)).id);
    assert.equal(await second.locator('paydesk-checkout').getByRole('button', { name: /I have paid/i }).count(), 0);
    assert.deepEqual(await newOrders(demo, before), [(await widgetOrder(page)).id]);
  });

  test('a reload resumes the order this tab showed: tab 2 starts a new order for the same ref (B), tab 1 reloads to A, its id and requisites (issue 19, point 9)', async () => {
    const { context, page } = await shopper();
    const url = new URL('/cdn-demo', demo.storefrontUrl).href;
    await page.goto(url);
    await waitForWidgetState(page, 'pay', 'paydesk-checkout');
    const a = await widgetOrder(page, 'paydesk-checkout');
    const second = await context.newPage();
    await second.goto(url);
    await waitForWidgetState(second, 'pay', 'paydesk-checkout');
    await second.evaluate(() => {
      const el = document.querySelector('paydesk-checkout') as HTMLElement & { reset(): void; start(): void };
      el.reset();
      el.start();
    });
    const b = await waitUntil(async () => {
      const o = await widgetOrder(second, 'paydesk-checkout').catch(() => null);
      return o && o.id !== a.id ? o : null;
    }, 'tab 2 shows a new order');
    await page.reload();
    await waitForWidgetState(page, 'pay', 'paydesk-checkout');
    const again = await widgetOrder(page, 'paydesk-checkout');
    assert.equal(again.id, a.id, `tab 1 shows its own order, not ${b.id}`);
    assert.deepEqual(again.requisites, a.requisites);
  });

  test('two tabs opened together (both start at once): one provider order', async () => {
    const { context } = await shopper();
    const before = await orderIds(demo);
    const [a, b] = await Promise.all([context.newPage(), context.newPage()]);
    const url = new URL('/cdn-demo', demo.storefrontUrl).href;
    await Promise.all([a.goto(url), b.goto(url)]);
    await Promise.all([waitForWidgetState(a, 'pay', 'paydesk-checkout'), waitForWidgetState(b, 'pay', 'paydesk-checkout')]);
    const [oa, ob] = await Promise.all([widgetOrder(a, 'paydesk-checkout'), widgetOrder(b, 'paydesk-checkout')]);
    assert.equal(oa.id, ob.id);
    assert.deepEqual(await newOrders(demo, before), [oa.id]);
  });

  // The storefront's own guard (demo/public/src/store.ts): a second "Buy" shows the open checkout.
  // The element's and the server's side of a double start are in test/browser/money-safety.test.ts
  // and test/node/server (one request; one order per Idempotency-Key).
  test('the demo storefront, a double click on "Buy": one checkout, one provider order', async () => {
    const { page } = await shopper();
    await page.goto(storeUrl(demo, { method: 'sbp' }));
    const before = await orderIds(demo);
    // The second click lands while the first one's order is being made (a shopper's slow double click).
    const creating = page.waitForRequest((r) => r.method() === 'POST' && /\/sessions$/.test(new URL(r.url()).pathname));
    await buy(page, 'grinder');
    await creating;
    await buy(page, 'grinder');
    await waitForWidgetState(page, 'pay');
    // Give a second request every chance to arrive.
    await page.waitForTimeout(500);
    assert.deepEqual(await newOrders(demo, before), [(await widgetOrder(page)).id]);
  });

  test('the demo storefront, "Buy" again while a status read after "I have paid" failed: the same order and its "Try again", no second order', async () => {
    const { page } = await shopper();
    const before = await orderIds(demo);
    const order = await openCheckout(page, demo, 'grinder', { method: 'sbp' });
    // A proxy in the way answers the status reads with its own 404 page.
    await page.route(/\/api\/paydesk\/sessions\/[^/?]+(\?.*)?$/, (route) =>
      route.request().method() === 'GET' ? route.fulfill({ status: 404, contentType: 'text/html', body: '<h1>Not Found</h1>' }) : route.continue(),
    );
    const widget = page.locator('#inline-host paydesk-checkout');
    await widget.getByRole('button', { name: /I have paid/i }).click();
    await waitForWidgetState(page, 'error');
    await buy(page, 'grinder');
    await page.waitForTimeout(500);
    assert.equal(await widgetState(page), 'error', 'the same checkout, not a new one');
    assert.equal((await widgetOrder(page)).id, order.id);
    assert.deepEqual(await newOrders(demo, before), [order.id]);
    await page.unroute(/\/api\/paydesk\/sessions\/[^/?]+(\?.*)?$/);
    await widget.getByRole('button', { name: /try again/i }).click();
    // The same order read again: still pending, and the shopper said it is paid: being checked.
    await waitForWidgetState(page, 'confirming');
    assert.equal((await widgetOrder(page)).id, order.id);
    // A reload: still being checked, never the requisites and "I have paid" again.
    await page.reload();
    await waitForWidgetState(page, 'confirming');
    assert.equal((await widgetOrder(page)).id, order.id);
    assert.equal(await widget.getByRole('button', { name: /I have paid/i }).count(), 0);
    assert.deepEqual(await newOrders(demo, before), [order.id]);
  });

  test('expired, then "I paid — send a receipt": the provider accepts the dispute (the order stays cancelled), the widget ends paid late, the shop fulfils once', async () => {
    const { page } = await shopper();
    const order = await openCheckout(page, demo, 'pour-over-kit', { method: 'sbp' });
    await sandboxCall(demo, `/sandbox/orders/${order.id}/expire`, { method: 'POST' });
    await waitForWidgetState(page, 'expired');
    const widget = page.locator('#inline-host paydesk-checkout');
    await widget.getByRole('button', { name: /send a receipt/i }).click();
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC',
      'base64',
    );
    await widget.locator('#receipt-files').setInputFiles({ name: 'transfer.png', mimeType: 'image/png', buffer: png });
    await widget.getByRole('button', { name: /^send$/i }).click();
    await waitForWidgetState(page, 'dispute');
    const open = await waitUntil(async () => {
      const o = await widgetOrder(page);
      return o.dispute?.status === 'open' ? o : null;
    }, 'the dispute open in the widget');
    await screenshot(page, 'dispute-open');
    // The provider's operators accept it; the money is credited, the order stays CanceledByTimeout.
    await sandboxCall(demo, `/sandbox/disputes/${open.dispute!.id}/process`, { body: { accepted: true } });
    // The merchant server finds it on its next sweep (its timer runs every minute; here: now).
    await demo.reconcile();
    await waitForWidgetState(page, 'paid');
    const paid = (await widgetOrder(page)) as OrderView;
    assert.deepEqual([paid.status, paid.late, paid.provider_status], ['paid', true, 'CanceledByTimeout']);
    await widget.getByText(/arrived after the time was up, and the order is paid/).waitFor();
    await screenshot(page, 'paid-late-after-dispute');
    // Each "Buy" is a cart (its id is the order_ref): the shop's line is found by the provider's order id.
    const fulfilled = (l: string) => /\[shop\] order \S+ paid late: fulfilled/.test(l) && l.includes(`"order_id":"${order.id}"`);
    await waitUntil(() => demo.logs.some(fulfilled), 'the shop fulfils the order');
    assert.equal(demo.logs.filter(fulfilled).length, 1);
  });
});
