/**
 * The storefront's sandbox bar on a hosted form's order (demo/sandbox-bar.ts). The order is made on
 * the provider's page; the merchant server learns of it on its next read of the provider, and it reads
 * the provider at most once per refresh interval (2 s) per session. A read just before the shopper
 * picked the method (the widget's own `?refresh=1` when the shopper comes back to the tab) held the
 * bar's read back: "complete" answered 409 "There is no order yet" for an order on screen, and the
 * payment never reached the page (the WebKit engines run saw it: test/engines/displays.test.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestDemo, type TestDemo } from './helpers.js';

const POST = { 'content-type': 'application/json', 'x-paydesk': '1' };

describe("the sandbox bar on a hosted form's order", () => {
  let demo: TestDemo;
  before(async () => {
    demo = await startTestDemo();
  });
  after(async () => {
    await demo?.close();
  });
  const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: POST, body: JSON.stringify(body) });

  /** A form session at the merchant, read with `?refresh=1` (as the widget does), then its method picked on the provider's page. */
  async function formOrderJustMade(): Promise<{ session: string }> {
    const created = await post(`${demo.merchantUrl}/api/paydesk/sessions`, { order_ref: 'coffee-beans', mode: 'form' });
    assert.equal(created.status, 201);
    const { session, order } = (await created.json()) as { session: string; order: { id: string; form_url: string } };
    assert.equal(order.id, '', 'no order yet: the shopper has not picked a method');
    const formSession = new URL(order.form_url).searchParams.get('session_id')!;
    const read = await fetch(`${demo.merchantUrl}/api/paydesk/sessions/${encodeURIComponent(session)}?refresh=1`);
    assert.equal(read.status, 200);
    const picked = await post(`${demo.sandboxUrl}/pay/api/sessions`, { order_ref: formSession, method_type: 'SBP' });
    assert.equal(picked.status, 201, 'the method picked on the provider page: its order made');
    return { session };
  }

  test('"complete" right after the method was picked on the provider page completes that order (not 409 "no order yet")', async () => {
    const { session } = await formOrderJustMade();
    const done = await post(`${demo.merchantUrl}/demo/api/sandbox/complete`, { session });
    const body = (await done.json()) as { ok?: boolean; order_id?: string; error?: { code: string } };
    assert.equal(done.status, 200, JSON.stringify(body));
    assert.match(body.order_id ?? '', /\S/, "the provider's order id");
    const order = (await (await fetch(`${demo.sandboxUrl}/api/v1/order/${body.order_id}`, { headers: { 'X-API-Key': demo.sandboxApiKey! } })).json()) as Record<string, unknown>;
    assert.match(JSON.stringify(order), /Completed/, 'the order is completed at the provider');
  });

  test('a form session whose method is not picked yet: still 409 no_order_yet, once the refresh interval has passed', async () => {
    const created = await post(`${demo.merchantUrl}/api/paydesk/sessions`, { order_ref: 'coffee-beans', mode: 'form' });
    const { session } = (await created.json()) as { session: string };
    const started = Date.now();
    const done = await post(`${demo.merchantUrl}/demo/api/sandbox/complete`, { session });
    assert.equal(done.status, 409);
    assert.equal(((await done.json()) as { error: { code: string } }).error.code, 'no_order_yet');
    assert.ok(Date.now() - started < 5000, `answered in ${Date.now() - started} ms`);
  });
});
