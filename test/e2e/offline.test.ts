/**
 * A phone loses its network while the requisites are on screen; the order is paid meanwhile. When the
 * browser says it is online again, the widget asks at once and shows "paid": not when its polling,
 * slowed down by the failures while offline, would have come round (probe: 26.9 s).
 * Code the widget loads in the background (the live status, the QR encoder) lost to a blip is fetched
 * again.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { IPHONE, openCheckout, sandboxCall, storefrontSuite, waitForWidgetState, waitUntil, widgetState, type TestDemo } from './helpers.js';

describe('offline, then back online', () => {
  let demo: TestDemo;
  const shopper = storefrontSuite((d) => (demo = d));

  test('a payment made while offline shows as soon as the network is back, and the offline note goes', async () => {
    const { context, page } = await shopper(IPHONE);
    let streams = 0;
    page.on('request', (r) => {
      if (/\/sessions\/[^/?]+\/events(\?|$)/.test(r.url())) streams++;
    });
    const order = await openCheckout(page, demo, 'coffee-beans', { method: 'sbp' });
    // The live status (a chunk loaded after the requisites) hears online/offline once it runs: its
    // stream's request says it does. Going offline before would be missed (a CI run under load).
    await waitUntil(() => streams > 0, 'the live status runs (its event stream opened)', 30_000);
    const statusReads: number[] = [];
    page.on('request', (r) => {
      if (/\/sessions\/[^/?]+(\?|$)/.test(r.url())) statusReads.push(Date.now());
    });
    await context.setOffline(true);
    const note = page.locator('paydesk-checkout [part="offline"]');
    await note.waitFor();
    // The open stream may outlive the emulated outage: the shopper switching apps closes it, and the
    // stream opened on the way back fails (offline).
    // (A string: a compiled function would carry the test runner's helpers into the page.)
    await page.evaluate(`(() => {
      let hidden = true;
      Object.defineProperty(document, 'hidden', { get: () => hidden, configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
      hidden = false;
      document.dispatchEvent(new Event('visibilitychange'));
    })()`);
    await sandboxCall(demo, `/sandbox/orders/${order.id}/complete`, { body: {} });
    // Polls fail while offline and their delay grows (3 s, 6 s, 12 s, …): wait until the next is 12 s away.
    await waitUntil(() => statusReads.length >= 4, 'polls while offline', 30_000);
    assert.equal(await widgetState(page), 'pay', 'nothing reached the widget while offline');
    await context.setOffline(false);
    const back = Date.now();
    await waitForWidgetState(page, 'paid');
    const took = Date.now() - back;
    assert.ok(took < 3000, `paid shown ${took} ms after the network came back`);
    assert.equal(await note.count(), 0);
  });

  test('the live status code lost to a network blip is fetched again: the order is followed, the payment shows', async () => {
    const { page } = await shopper(IPHONE);
    // The first request for the live status chunk fails (offline for that moment), later ones pass.
    let lost = 0;
    await page.route(/\/live-[\w-]+\.js$/, (route) => (lost++ === 0 ? route.abort('internetdisconnected') : route.continue()));
    const order = await openCheckout(page, demo, 'coffee-beans', { method: 'sbp' });
    await waitUntil(() => lost >= 1, 'the live status chunk lost', 30_000);
    await sandboxCall(demo, `/sandbox/orders/${order.id}/complete`, { body: {} });
    await waitForWidgetState(page, 'paid');
  });

  test('the QR encoder lost to a network blip is fetched again: the SBP QR is drawn', async () => {
    const { page } = await shopper();
    let lost = 0;
    await page.route(/\/qr-[\w-]+\.js$/, (route) => (lost++ === 0 ? route.abort('internetdisconnected') : route.continue()));
    await openCheckout(page, demo, 'coffee-beans', { method: 'sbp' });
    await waitUntil(() => lost >= 1, 'the QR encoder lost', 30_000);
    await page.locator('paydesk-checkout [part="qr"] canvas[data-text]').waitFor({ timeout: 30_000 });
  });
});
