/**
 * `POST /sandbox/orders/{id}/webhook` (`paydesk webhooks resend`): the order's webhook again, with
 * its current status and a new request_id, signed as every delivery; 409 with nowhere to send it,
 * 404 for an order of another terminal or none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEY, buyOrder, makeSandbox } from './helpers.js';

function receiver() {
  const calls: { url: string; headers: Headers; body: string }[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    calls.push({ url: String(input), headers: new Headers(init?.headers), body: String(init?.body) });
    return new Response('', { status: 200 });
  };
  return { calls, fetch };
}

test('resend delivers the order’s webhook again with its current status and a new request_id', async () => {
  const r = receiver();
  const t = makeSandbox({ seed: false, webhookUrl: 'https://merchant.example/hook', fetch: r.fetch });
  const o = (await t.post('/api/v1/order/', buyOrder())).json;
  await t.post(`/sandbox/orders/${o.id}/complete`);
  await t.sandbox.webhooks.idle();
  assert.equal(r.calls.length, 1);
  const res = await t.post(`/sandbox/orders/${o.id}/webhook`);
  assert.equal(res.status, 202);
  assert.equal(res.json.delivery.order_id, o.id);
  assert.equal(res.json.delivery.url, 'https://merchant.example/hook');
  await t.sandbox.webhooks.idle();
  assert.equal(r.calls.length, 2);
  const [first, again] = r.calls.map((c) => JSON.parse(c.body));
  assert.equal(again.payload.id, o.id);
  assert.equal(again.payload.status, 'Completed');
  assert.notEqual(again.request_id, first.request_id);
  assert.equal(again.request_id, res.json.delivery.request_id);
  assert.match(r.calls[1]!.headers.get('X-Paydesk-Signature') ?? '', /^t=\d+,v1=[0-9a-f]{64}$/);
  assert.equal(r.calls[1]!.headers.get('X-API-Key'), KEY);
  const log = (await t.get(`/sandbox/webhooks?order_id=${o.id}`)).json.deliveries;
  assert.equal(log.length, 2);
  await t.close();
});

test('resend without a webhook URL is 409 saying how to set one; an unknown order is 404', async () => {
  const t = makeSandbox({ seed: false });
  const o = (await t.post('/api/v1/order/', buyOrder())).json;
  const none = await t.post(`/sandbox/orders/${o.id}/webhook`);
  assert.equal(none.status, 409);
  assert.match(none.json.message, /no webhook URL.*webhook_url/);
  const unknown = await t.post('/sandbox/orders/00000000-0000-4000-8000-000000000000/webhook');
  assert.equal(unknown.status, 404);
  const bad = await t.post(`/sandbox/orders/${o.id}/webhook`, { surprise: 1 });
  assert.equal(bad.status, 422);
  await t.close();
});
