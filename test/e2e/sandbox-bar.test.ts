/**
 * The storefront's sandbox bar and the console's payout steps on an emulated phone (touch, iPhone
 * size): "Open dispute" opens one dispute per order, "Accept"/"Reject" decide it (an expired order
 * whose dispute is accepted ends paid late); and a control that
 * appears under a finger that just tapped another does not take the second tap of a double tap.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { IPHONE, openCheckout, sandboxCall, storefrontSuite, waitForWidgetState, widgetOrder, type TestDemo } from './helpers.js';
import { logIn } from './console-page.js';

interface DisputeItem {
  dispute_id: string;
  order_id: string;
  processed: boolean;
}

describe('sandbox bar and double taps on a phone', () => {
  let demo: TestDemo;
  const shopper = storefrontSuite((d) => (demo = d));
  const phone = async (): Promise<Page> => (await shopper(IPHONE)).page;
  const disputesOf = async (orderId: string) =>
    (await sandboxCall<{ data: { items: DisputeItem[] } }>(demo, `/api/v1/disputes/search?order_id=${encodeURIComponent(orderId)}`)).data.items;

  test('"Open dispute" pressed twice opens one dispute; "Accept dispute" pays the order and credits the deposit', async () => {
    const page = await phone();
    const order = await openCheckout(page, demo, 'grinder', { method: 'sbp' });
    const bar = page.locator('#sandbox-bar');
    const dispute = bar.locator('[data-sandbox="dispute"]');
    await dispute.tap();
    await page.locator('#toast').filter({ hasText: /dispute was opened/i }).waitFor();
    await bar.locator('[data-sandbox="accept"]:enabled').waitFor();
    assert.equal(await dispute.getAttribute('aria-pressed'), 'true');
    assert.match(await dispute.innerText(), /Dispute open/);
    await dispute.tap();
    await page.locator('#toast').filter({ hasText: /already open/i }).waitFor();
    // The server side too: a second "dispute" for the same order answers the open one.
    const again = await page.evaluate(async (session) => {
      const res = await fetch('/demo/api/sandbox/dispute', { method: 'POST', headers: { 'content-type': 'application/json', 'x-paydesk': '1' }, body: JSON.stringify({ session }) });
      return (await res.json()) as { dispute: { id: string } | null; already_open?: boolean };
    }, (await page.evaluate(() => sessionStorage.getItem('obzharka:checkout-session')).then((v) => (JSON.parse(v ?? '{}') as { session: string }).session)));
    assert.equal(again.already_open, true);
    const open = await disputesOf(order.id);
    assert.equal(open.length, 1, 'one dispute however often "Open dispute" is pressed');
    assert.equal(again.dispute?.id, open[0]!.dispute_id);

    await bar.locator('[data-sandbox="accept"]').tap();
    await waitForWidgetState(page, 'paid');
    const decided = await disputesOf(order.id);
    assert.equal(decided.length, 1);
    assert.equal(decided[0]!.processed, true);
    const deposits = await sandboxCall<{ items: Array<{ client_description: string }> }>(demo, '/api/v1/finance/transactions?transaction_type=deposit&size=20');
    assert.ok(
      deposits.items.some((t) => t.client_description.includes(order.id)),
      'a deposit names the order',
    );
    assert.equal(await bar.locator('[data-sandbox="accept"]').isDisabled(), true, 'no open dispute left');
    assert.equal(await dispute.getAttribute('aria-pressed'), 'false');
  });

  test('"Reject dispute" closes the dispute without money; the order stays unpaid (Russian page)', async () => {
    const page = await phone();
    const order = await openCheckout(page, demo, 'coffee-beans', { method: 'sbp', lang: 'ru' });
    const bar = page.locator('#sandbox-bar');
    await bar.locator('[data-sandbox="dispute"]').tap();
    await bar.locator('[data-sandbox="dispute"]').filter({ hasText: 'Спор открыт' }).waitFor();
    await bar.locator('[data-sandbox="reject"]').filter({ hasText: 'Отклонить спор' }).tap();
    await page.locator('#toast').filter({ hasText: /Спор отклонён/ }).waitFor();
    const decided = await disputesOf(order.id);
    assert.equal(decided.length, 1);
    assert.equal(decided[0]!.processed, true);
    assert.equal((await widgetOrder(page)).status, 'pending');
    assert.equal(await bar.locator('[data-sandbox="accept"]').isDisabled(), true);
  });

  test('"Accept dispute" on an expired order pays it late: the widget shows it paid (late), the provider has the deposit', async () => {
    const page = await phone();
    const order = await openCheckout(page, demo, 'pour-over-kit', { method: 'sbp' });
    const bar = page.locator('#sandbox-bar');
    await bar.locator('[data-sandbox="expire"]:enabled').tap();
    await waitForWidgetState(page, 'expired');
    // An ended order can still be disputed: the shopper paid in time and sends the receipt.
    await bar.locator('[data-sandbox="dispute"]:enabled').tap();
    await page.locator('#toast').filter({ hasText: /dispute was opened/i }).waitFor();
    await bar.locator('[data-sandbox="accept"]:enabled').tap();
    await page.locator('#toast').filter({ hasText: /accepted/i }).waitFor();
    await waitForWidgetState(page, 'paid');
    const paid = await widgetOrder(page);
    assert.equal(paid.id, order.id);
    assert.equal(paid.status, 'paid');
    assert.equal(paid.late, true, 'paid after it had expired');
    const decided = await disputesOf(order.id);
    assert.equal(decided.length, 1);
    assert.equal(decided[0]!.processed, true);
    const deposits = await sandboxCall<{ items: Array<{ client_description: string }> }>(demo, '/api/v1/finance/transactions?transaction_type=deposit&size=20');
    assert.ok(
      deposits.items.some((t) => t.client_description.includes(order.id)),
      'a deposit names the order',
    );
  });

  test('a dispute the shopper opened with "I paid — send a receipt": "Accept dispute" decides it, also after a reload; the order ends paid', async () => {
    const page = await phone();
    const order = await openCheckout(page, demo, 'coffee-beans', { method: 'sbp' });
    const widget = page.locator('#inline-host paydesk-checkout');
    await widget.getByRole('button', { name: 'I have paid' }).click();
    await widget.getByRole('button', { name: /send a receipt/i }).click();
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC', 'base64');
    await widget.locator('#receipt-files').setInputFiles({ name: 'transfer.png', mimeType: 'image/png', buffer: png });
    await widget.getByRole('button', { name: /^send$/i }).click();
    await waitForWidgetState(page, 'dispute');
    const bar = page.locator('#sandbox-bar');
    // The bar reads the open dispute from the widget's order: accept and reject are usable, the
    // dispute button says it is open.
    await bar.locator('[data-sandbox="accept"]:enabled').waitFor();
    await bar.locator('[data-sandbox="reject"]:enabled').waitFor();
    assert.equal(await bar.locator('[data-sandbox="dispute"]').getAttribute('aria-pressed'), 'true');
    // A reload: the same, from the resumed order.
    await page.reload();
    await waitForWidgetState(page, 'dispute');
    await bar.locator('[data-sandbox="accept"]:enabled').tap();
    await page.locator('#toast').filter({ hasText: /accepted/i }).waitFor();
    await waitForWidgetState(page, 'paid');
    assert.equal((await widgetOrder(page)).id, order.id);
    const decided = await disputesOf(order.id);
    assert.equal(decided.length, 1, 'the shopper\'s dispute, decided');
    assert.equal(decided[0]!.processed, true);
    assert.equal(await bar.locator('[data-sandbox="accept"]').isDisabled(), true);
  });

  test('a double tap on "Confirm payout" leaves the control that appears under the finger unpressed', async () => {
    const page = await phone();
    await logIn(page, demo);
    const { payment_methods } = await sandboxCall<{ payment_methods: Array<{ method_id: string; method_type: string; ranges: Array<{ fee_side: string }> }> }>(
      demo,
      '/api/v1/finance/payment_methods?active=true',
    );
    const card = payment_methods.find((m) => m.method_type === 'BankCard' && m.ranges.some((r) => r.fee_side === 'Sell'))!;
    await page.goto(`${demo.merchantUrl}/console/payouts/new?lang=en&theme=light`);
    await page.locator(`#payout-method option[value="${card.method_id}"]`).waitFor({ state: 'attached' });
    await page.locator('#payout-method').selectOption(card.method_id);
    await page.locator('#payout-amount').fill('2000');
    await page.locator('#payout-destination').fill('4111 1111 1111 1111');
    // Every "Complete in the sandbox" request the page makes.
    const completes: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/sandbox-complete')) completes.push(r.url());
    });
    await page.locator('#payout-form button[type="submit"]').tap();
    const submit = page.locator('#payout-submit');
    await submit.waitFor();
    await submit.scrollIntoViewIfNeeded();
    // (the confirm step itself appeared under the finger that pressed "Continue": it takes taps after a moment)
    await page.locator('#payout-confirm:not(.arming)').waitFor();
    const box = (await submit.boundingBox())!;
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;

    // First tap: the payout is created and the done step appears; the second tap lands at once on the same spot.
    await page.touchscreen.tap(x, y);
    await page.locator('#payout-done').waitFor();
    // (by geometry: elementFromPoint skips controls that take no pointer events)
    const under = await page.evaluate(([px, py]) => {
      const hit = [...document.querySelectorAll<HTMLElement>('#payout-done button, #payout-done a')].find((e) => {
        const r = e.getBoundingClientRect();
        return r.width > 0 && px! >= r.left && px! <= r.right && py! >= r.top && py! <= r.bottom;
      });
      return hit ? hit.id || hit.textContent!.trim() : null;
    }, [x, y]);
    assert.ok(under, 'a control of the done step is under the finger (the case this test is about)');
    await page.touchscreen.tap(x, y);

    // Nothing was pressed: still the done step, the payout still in progress, no new form.
    // (the handlers act synchronously on a tap: "Another payout" hides the step, "Complete" disables itself)
    assert.equal(await page.locator('#payout-done').isVisible(), true, `the second tap pressed #${under}`);
    assert.match(await page.locator('#payout-done-summary').innerText(), /In progress/);
    assert.equal(await page.locator('#payout-complete').isDisabled(), false, '"Complete in the sandbox" was not pressed');
    // After the moment the controls work: this tap is the one and only completion.
    assert.deepEqual(completes, [], 'the second tap did not complete the payout');
    assert.equal(await page.locator('#payout-complete').isVisible(), true, 'the payout is still to complete');
    await page.locator('#payout-complete').tap();
    await page.locator('#payout-done-summary').filter({ hasText: 'Paid out' }).waitFor();
    assert.equal(completes.length, 1);
  });
});
