import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookEnvelopeSchema } from '../../../src/provider/schemas.js';
import { KEY, buyOrder, makeSandbox, sellOrder } from './helpers.js';

interface Captured {
  url: string;
  headers: Headers;
  body: string;
}

/** A fake receiver: answers the statuses given in turn (then 200), recording every request. */
function receiver(statuses: (number | 'timeout' | 'network')[] = []) {
  const calls: Captured[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    calls.push({ url: String(input), headers: new Headers(init?.headers), body: String(init?.body) });
    const next = statuses.shift() ?? 200;
    if (next === 'network') throw new TypeError('fetch failed', { cause: new Error('ECONNREFUSED') });
    if (next === 'timeout') {
      return new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
    }
    return new Response(next === 204 ? null : '', { status: next });
  };
  return { calls, fetch };
}

function verify(secret: string, header: string, body: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe('webhooks', () => {
  test('a status change POSTs the envelope with the terminal key and a verifiable signature', async () => {
    const r = receiver();
    const wall = Date.parse('2025-06-01T00:00:00Z');
    const t = makeSandbox({ seed: false, webhookUrl: 'https://merchant.example/hook', fetch: r.fetch, wallNow: () => wall });
    const o = (await t.post('/api/v1/order/', buyOrder())).json;
    await t.post(`/sandbox/orders/${o.id}/complete`);
    await t.sandbox.webhooks.idle();
    assert.equal(r.calls.length, 1);
    const call = r.calls[0]!;
    assert.equal(call.url, 'https://merchant.example/hook');
    assert.equal(call.headers.get('X-API-Key'), KEY);
    assert.equal(call.headers.get('Content-Type'), 'application/json');
    const signature = call.headers.get('X-Paydesk-Signature')!;
    assert.match(signature, /^t=\d+,v1=[0-9a-f]{64}$/);
    assert.equal(signature.split(',')[0], `t=${wall / 1000}`, 't is wall-clock unix seconds');
    assert.ok(verify(t.sandbox.webhookSecret(), signature, call.body));
    assert.ok(!verify('whsec_wrong', signature, call.body));
    const envelope = JSON.parse(call.body);
    assert.ok(WebhookEnvelopeSchema.safeParse(envelope).success);
    assert.equal(envelope.webhook_type, 'buy_update');
    assert.match(envelope.datetime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
    assert.equal(envelope.payload.status, 'Completed');
    assert.equal(envelope.payload.id, o.id);
    await t.close();
  });

  test('a Sell sends sell_update', async () => {
    const r = receiver();
    const t = makeSandbox({ seed: false, webhookUrl: 'https://merchant.example/hook', fetch: r.fetch });
    const o = (await t.post('/api/v1/order/', sellOrder())).json;
    await t.post(`/sandbox/orders/${o.id}/cancel`);
    await t.sandbox.webhooks.idle();
    assert.equal(JSON.parse(r.calls[0]!.body).webhook_type, 'sell_update');
    await t.close();
  });

  test('the order’s webhook_url wins over the terminal’s', async () => {
    const r = receiver();
    const t = makeSandbox({ seed: false, webhookUrl: 'https://merchant.example/terminal', fetch: r.fetch });
    const o = (await t.post('/api/v1/order/', buyOrder({ webhook_url: 'https://merchant.example/order' }))).json;
    await t.post(`/sandbox/orders/${o.id}/complete`);
    await t.sandbox.webhooks.idle();
    assert.deepEqual(r.calls.map((c) => c.url), ['https://merchant.example/order']);
    await t.close();
  });

  test('non-2xx, network errors and timeouts are retried with the same request_id until a 2xx', async () => {
    const r = receiver([500, 'network', 'timeout', 204]);
    const t = makeSandbox({
      seed: false,
      webhookUrl: 'https://merchant.example/hook',
      fetch: r.fetch,
      webhookRetryDelaysMs: [0, 0, 0, 0],
      webhookTimeoutMs: 50,
    });
    const o = (await t.post('/api/v1/order/', buyOrder())).json;
    await t.post(`/sandbox/orders/${o.id}/complete`);
    await t.sandbox.webhooks.idle();
    assert.equal(r.calls.length, 4);
    assert.equal(new Set(r.calls.map((c) => JSON.parse(c.body).request_id)).size, 1);
    const log = (await t.get('/sandbox/webhooks')).json.deliveries;
    assert.equal(log.length, 1);
    assert.equal(log[0].status, 'delivered');
    assert.deepEqual(
      log[0].attempts.map((a: { status_code: number | null }) => a.status_code),
      [500, null, null, 204],
    );
    assert.match(log[0].attempts[1].error, /ECONNREFUSED/);
    assert.match(log[0].attempts[2].error, /timeout/);
    await t.close();
  });

  test('retries are bounded: after the last delay the delivery is failed', async () => {
    const r = receiver([503, 503, 503, 503]);
    const t = makeSandbox({ seed: false, webhookUrl: 'https://merchant.example/hook', fetch: r.fetch, webhookRetryDelaysMs: [0, 0] });
    const o = (await t.post('/api/v1/order/', buyOrder())).json;
    await t.post(`/sandbox/orders/${o.id}/complete`);
    await t.sandbox.webhooks.idle();
    assert.equal(r.calls.length, 3);
    const log = (await t.get(`/sandbox/webhooks?order_id=${o.id}`)).json.deliveries;
    assert.equal(log[0].status, 'failed');
    assert.equal(log[0].attempts.length, 3);
    await t.close();
  });

  test('the retry waits follow the configured exponential delays', async () => {
    const r = receiver([500, 500, 200]);
    const t = makeSandbox({ seed: false, webhookUrl: 'https://merchant.example/hook', fetch: r.fetch, webhookRetryDelaysMs: [5, 10] });
    const o = (await t.post('/api/v1/order/', buyOrder())).json;
    await t.post(`/sandbox/orders/${o.id}/complete`);
    const pending = (await t.get('/sandbox/webhooks')).json.deliveries[0];
    assert.equal(pending.status, 'pending');
    await t.sandbox.webhooks.idle();
    assert.equal((await t.get('/sandbox/webhooks')).json.deliveries[0].status, 'delivered');
    await t.close();
  });

  test('without any URL the change is logged as skipped', async () => {
    const r = receiver();
    const t = makeSandbox({ seed: false, fetch: r.fetch });
    const o = (await t.post('/api/v1/order/', buyOrder())).json;
    await t.post(`/sandbox/orders/${o.id}/complete`);
    assert.equal(r.calls.length, 0);
    const log = (await t.get('/sandbox/webhooks')).json.deliveries;
    assert.equal(log[0].status, 'skipped');
    assert.equal(log[0].envelope.payload.status, 'Completed');
    await t.close();
  });

  test('the delivery log is per terminal', async () => {
    const r = receiver();
    const t = makeSandbox({ seed: false, webhookUrl: 'https://merchant.example/hook', fetch: r.fetch });
    const o = (await t.post('/api/v1/order/', buyOrder())).json;
    await t.post(`/sandbox/orders/${o.id}/complete`);
    await t.sandbox.webhooks.idle();
    assert.equal((await t.get('/sandbox/webhooks', 'sandbox_with_form')).json.deliveries.length, 0);
    await t.close();
  });
});
