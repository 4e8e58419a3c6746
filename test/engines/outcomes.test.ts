/**
 * The ways a checkout ends other than paying at once, the same spec in Chromium, WebKit and Gecko
 * (drivers: test/engines/driver.ts; the demo: test/engines/shop.ts). `PAYDESK_ENGINES=webkit` runs one.
 *
 *   - expiry: the sandbox's clock passes the order's lifetime → the widget says the time is up, and
 *     "Get new payment details" starts again: new requisites of a new order;
 *   - "I have paid" → "I paid — send a receipt" → a PNG set on the file input through the driver (the
 *     file picker's way) → "Send" → the receipt is being checked → the provider accepts the dispute →
 *     paid;
 *   - the same dispute rejected by the provider: the widget still says the receipt is being checked
 *     while the merchant server gives the money 10 minutes to appear (its `disputeGraceSeconds`, left
 *     at its default), then, the clock moved past them, the final screen: "Payment not confirmed", the
 *     order number, the support link, no new payment offered.
 *
 * One browser per engine and two demos for the file: the rejected dispute's keeps the sandbox's clock
 * in its token endpoints (`checkoutClock: 'sandbox'`), so `/sandbox/clock/advance` moves the merchant
 * server's time too and the grace passes in one call; the test runs the sweeps itself (`reconcile()`).
 * The other paths keep the system's clock: the sandbox signs its webhooks with the wall clock, so a
 * server on the sandbox's clock refuses them once it is 5 minutes ahead (the expiry then reached the
 * page with a sweep, 6–8 s after the advance, instead of with its webhook, 0.2 s after).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { OrderView } from '../../src/protocol/index.js';
import { makePng } from '../node/sandbox/receipt-files.js';
import { sandboxCall } from '../e2e/helpers.js';
import { enginesToRun, type EnginePage } from './driver.js';
import { buy, press, readWidget, startShop, waitFor, waitForRequisites, waitForState, type Shop, type WidgetView } from './shop.js';
import { engineSpec } from './spec.js';

const INLINE = '#inline-host paydesk-checkout';

let shop: Shop;
/** The demo whose merchant server keeps the sandbox's clock. */
let graceShop: Shop;
let dir: string;
let receipt: string;
before(async () => {
  shop = await startShop();
  graceShop = await startShop({ checkoutClock: 'sandbox' });
  dir = mkdtempSync(join(tmpdir(), 'paydesk-engines-'));
  receipt = join(dir, 'transfer.png');
  writeFileSync(receipt, makePng(48, 64, [21, 101, 192]));
});
after(async () => {
  await shop?.close();
  await graceShop?.close();
  rmSync(dir, { recursive: true, force: true });
});

const store = (on: Shop, settings: Record<string, string> = {}) => `${on.origin}/?${new URLSearchParams({ lang: 'en', theme: 'light', ...settings })}`;

/** The requisites of a new order on the storefront's inline widget. */
async function checkout(page: EnginePage, on = shop): Promise<OrderView> {
  await page.goto(store(on, { method: 'sbp' }));
  await buy(page, 'coffee-beans');
  const shown = await waitForRequisites(page, INLINE);
  return shown.order!;
}

/** A new order → "I have paid" → a PNG set on the receipt form's file input → "Send": the open dispute in the widget. */
async function sendReceipt(page: EnginePage, on = shop): Promise<{ order: OrderView; checking: WidgetView }> {
  const order = await checkout(page, on);
  await press(page, 'I have paid');
  await waitForState(page, 'confirming', INLINE);
  await press(page, 'I paid — send a receipt');
  await waitFor(
    () => page.evaluate((s: string) => !!document.querySelector(s)?.shadowRoot?.querySelector('#receipt-files'), INLINE),
    'the receipt form',
  );
  await page.setFiles(() => document.querySelector('#inline-host paydesk-checkout')?.shadowRoot?.querySelector('#receipt-files'), [receipt]);
  await waitFor(async () => (await readWidget(page, INLINE)).text.includes('transfer.png'), 'the picked file listed');
  await press(page, 'Send');
  const checking = await waitFor(async () => {
    const w = await readWidget(page, INLINE);
    return w.state === 'dispute' && w.order?.dispute?.status === 'open' && /checking your receipt/.test(w.text) ? w : null;
  }, 'the open dispute in the widget');
  return { order, checking };
}

for (const name of enginesToRun()) {
  describe(name, () => {
    const { open } = engineSpec(name);

    test(`${name}: the order expires (the sandbox clock passes its lifetime) → "Time is up" → "Get new payment details" → new requisites of a new order`, async () => {
      const page = await open();
      const order = await checkout(page);
      await sandboxCall(shop.demo, '/sandbox/clock/advance', { body: { seconds: 30 * 60 + 1 } });
      await waitForState(page, 'expired', INLINE);
      // The step is set before its view is painted (Lit renders on the next microtask, the view may be a chunk):
      // seen once in WebKit, the pay view's text still up with the state already "expired".
      const expired = await waitFor(async () => {
        const w = await readWidget(page, INLINE);
        return /Time is up/.test(w.text) ? w : null;
      }, 'the expired view painted');
      assert.equal(expired.order?.status, 'expired');
      assert.match(expired.text, /Time is up/);
      assert.match(expired.text, /These payment details are no longer valid/);
      assert.doesNotMatch(expired.text, /I have paid/, 'no "I have paid" on an expired order');
      await press(page, 'Get new payment details');
      const again = await waitFor(async () => {
        const w = await readWidget(page, INLINE);
        return w.state === 'pay' && w.requisites && w.order && w.order.id !== order.id ? w : null;
      }, 'the requisites of a new order');
      assert.equal(again.order!.amount, order.amount);
      assert.deepEqual(again.errors, [], 'no paydesk-error');
    });

    test(`${name}: "I have paid" → "I paid — send a receipt" → a PNG through the file input → the dispute → the provider accepts it → paid`, async () => {
      const page = await open();
      const { order, checking } = await sendReceipt(page);
      assert.match(checking.text, /The payment service is checking your receipt/);
      const dispute = checking.order!.dispute!;
      const files = await sandboxCall<{ data: { items: Array<{ id: string; order_id: string; files?: unknown[] }> } }>(
        shop.demo,
        `/api/v1/disputes/search?order_id=${encodeURIComponent(order.id)}`,
      );
      assert.equal(files.data.items.length, 1, 'one dispute at the provider');

      await sandboxCall(shop.demo, `/sandbox/disputes/${dispute.id}/process`, { body: { accepted: true } });
      await shop.demo.reconcile();
      const paid = await waitForState(page, 'paid', INLINE);
      assert.equal(paid.order?.id, order.id);
      assert.deepEqual(paid.errors, [], 'no paydesk-error');
    });

    test(`${name}: the provider rejects the dispute → "checking" through the server's 10-minute grace → the clock past it → "Payment not confirmed", the order number, support, no new payment`, async () => {
      const page = await open();
      const { order, checking } = await sendReceipt(page, graceShop);
      const dispute = checking.order!.dispute!;
      await sandboxCall(graceShop.demo, `/sandbox/disputes/${dispute.id}/process`, { body: { accepted: false } });
      await graceShop.demo.reconcile();
      // Processed without money, and the sweep has seen it: the grace runs (10 minutes). Nine of them
      // later, the page opened again shows what the server says now: still checking.
      const search = await sandboxCall<{ data: { items: Array<{ dispute_id: string; processed: boolean }> } }>(
        graceShop.demo,
        `/api/v1/disputes/search?order_id=${encodeURIComponent(order.id)}`,
      );
      assert.equal(search.data.items.find((d) => d.dispute_id === dispute.id)?.processed, true, 'processed at the provider');
      await sandboxCall(graceShop.demo, '/sandbox/clock/advance', { body: { seconds: 9 * 60 } });
      await graceShop.demo.reconcile();
      await page.reload();
      const during = await waitFor(async () => {
        const w = await readWidget(page, INLINE);
        return w.state === 'dispute' && /Checking your receipt/.test(w.text) ? w : null;
      }, 'the dispute resumed after a reload');
      assert.equal(during.order?.id, order.id, 'the same order resumed');
      assert.equal(during.order!.dispute!.outcome, null, 'no outcome during the grace');
      assert.doesNotMatch(during.text, /Payment not confirmed/);

      // The grace ends: the next sweep decides, and the open page hears it.
      await sandboxCall(graceShop.demo, '/sandbox/clock/advance', { body: { seconds: 61 } });
      await graceShop.demo.reconcile();
      const final = await waitFor(async () => {
        const w = await readWidget(page, INLINE);
        return /Payment not confirmed/.test(w.text) ? w : null;
      }, 'the final screen');
      assert.equal(final.state, 'dispute');
      assert.equal(final.order?.id, order.id);
      assert.equal(final.order?.dispute?.outcome, 'unconfirmed');
      assert.match(final.text, /We could not confirm a payment for this order\./);
      const shown = await page.evaluate((s: string) => {
        const root = document.querySelector(s)!.shadowRoot!;
        return {
          title: root.querySelector('h2')?.textContent ?? '',
          orderPart: (root.querySelector('[part="order"]')?.textContent ?? '').replace(/\s+/g, ' '),
          support: root.querySelector<HTMLAnchorElement>('[part="actions"] a')?.getAttribute('href') ?? null,
          buttons: [...root.querySelectorAll('[part="actions"] button')].map((b) => b.textContent?.trim()),
          spinner: !!root.querySelector('.spinner, [part="spinner"]'),
        };
      }, INLINE);
      assert.equal(shown.title, 'Payment not confirmed');
      assert.ok(shown.orderPart.includes(order.client_order_id), `the order number: ${shown.orderPart}`);
      assert.equal(shown.support, `${graceShop.demo.merchantUrl}/support`, 'the shop\'s support link');
      assert.deepEqual(shown.buttons, [], 'the order is still pending: no new payment offered');
      assert.equal(shown.spinner, false);
      assert.deepEqual(final.errors, [], 'no paydesk-error');
    });
  });
}
