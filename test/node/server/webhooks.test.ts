/**
 * POST /webhooks: verified before anything else, confirmed by re-reading the provider, amount and
 * currency checked, duplicates and reordering harmless, onOrderPaid exactly once.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { ProviderError } from '../../../src/provider/errors.js';
import type { Order } from '../../../src/provider/schemas.js';
import { API_KEY, assertBadOptionOnFirstUse, BASE, createSession, deferred, getSession, makeHarness, webhookRequest } from './fake-provider.js';
import type { Harness } from './fake-provider.js';

const now = (h: Harness) => Math.floor(h.clock.now / 1000);
const status = async (h: Harness, token: string) => ((await (await getSession(h, token)).json()) as { order: { status: string } }).order.status;

async function paidScenario(overrides: Parameters<typeof makeHarness>[0] = {}) {
  const h = makeHarness(overrides);
  const { session, order } = await createSession(h);
  const provOrder = h.provider.setStatus(order.id, 'Completed');
  return { h, session, order: provOrder };
}

describe('webhook authentication', () => {
  test('a signed webhook is confirmed with the provider and marks the order paid (200)', async () => {
    const { h, session, order } = await paidScenario();
    const res = await h.handler(webhookRequest(order, { timestamp: now(h) }));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { received: true });
    assert.equal(h.provider.count('getOrder'), 1, 're-read before acting');
    assert.equal(await status(h, session), 'paid');
    await h.handler.idle();
    assert.equal(h.paid.length, 1);
    const event = h.paid[0] as { order: { status: string }; order_ref: string; provider_order_id: string; provider_order: Order };
    assert.equal(event.order.status, 'paid');
    assert.equal(event.order_ref, 'tee');
    assert.equal(event.provider_order_id, order.id);
    assert.equal(event.provider_order.status, 'Completed');
  });

  test('an unsigned, wrongly signed or re-signed-with-another-secret webhook: 401, nothing read, nothing changed', async () => {
    const { h, session, order } = await paidScenario();
    const reads = h.provider.calls.length;
    const body = JSON.stringify({ request_id: 'r', webhook_type: 'buy_update', datetime: 'x', payload: order });
    const forged = [
      new Request(`${BASE}/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
      webhookRequest(order, { timestamp: now(h), secret: 'whsec_attacker_guess_0123456789abcdef' }),
      webhookRequest(order, { timestamp: now(h), headers: { 'x-paydesk-signature': 't=1,v1=deadbeef' } }),
      webhookRequest(order, { timestamp: now(h), headers: { 'x-api-key': API_KEY, 'x-paydesk-signature': '' } }),
    ];
    for (const req of forged) {
      const res = await h.handler(req);
      assert.equal(res.status, 401);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'unauthorized');
    }
    assert.equal(h.provider.calls.length, reads);
    assert.equal(await status(h, session), 'pending');
    assert.ok(h.logs.some((l) => l.level === 'warn' && /webhook refused/.test(l.message)));
  });

  test('a body altered after signing is refused', async () => {
    const { h, order } = await paidScenario();
    const good = webhookRequest(order, { timestamp: now(h) });
    const signature = good.headers.get('x-paydesk-signature')!;
    const altered = (await good.text()).replace('"Completed"', '"Completed" ');
    const res = await h.handler(
      new Request(`${BASE}/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-paydesk-signature': signature }, body: altered }),
    );
    assert.equal(res.status, 401);
  });

  test('a replay older than 300 s, or from more than 300 s in the future, is refused', async () => {
    const { h, session, order } = await paidScenario();
    assert.equal((await h.handler(webhookRequest(order, { timestamp: now(h) - 301 }))).status, 401);
    assert.equal((await h.handler(webhookRequest(order, { timestamp: now(h) + 301 }))).status, 401);
    assert.equal(await status(h, session), 'pending');
  });

  test('API-key mode: the repeated X-API-Key is accepted, a wrong one is refused', async () => {
    const { h, session, order } = await paidScenario({ webhookSecrets: undefined, webhookAuth: 'api_key' });
    const body = JSON.stringify({ request_id: 'r', webhook_type: 'buy_update', datetime: 'x', payload: order });
    const send = (key: string) =>
      h.handler(new Request(`${BASE}/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body }));
    assert.equal((await send('not-the-key')).status, 401);
    assert.equal(await status(h, session), 'pending');
    assert.equal((await send(API_KEY)).status, 200);
    assert.equal(await status(h, session), 'paid');
  });

  test('webhooks need neither X-Paydesk nor an allowed origin (server to server)', async () => {
    const { h, order } = await paidScenario({ allowedOrigins: [] });
    const res = await h.handler(webhookRequest(order, { timestamp: now(h), headers: { origin: 'https://provider.example' } }));
    assert.equal(res.status, 200);
  });

  test('signature mode without secrets, or API-key mode without a key, is a configuration error (on first use)', async () => {
    await assertBadOptionOnFirstUse({ webhookSecrets: [], webhookAuth: 'signature' }, /webhookSecrets/);
  });
});

describe('webhook bodies', () => {
  test('malformed JSON, no payload, or no order id: 400, nothing changed', async () => {
    const { h, session, order } = await paidScenario();
    for (const body of ['{not json', '[]', '{"payload":null}', '{"payload":{"client_order_id":"x"}}', JSON.stringify({ payload: { id: order.id } })]) {
      const res = await h.handler(webhookRequest(order, { timestamp: now(h), body }));
      assert.equal(res.status, 400, body);
    }
    assert.equal(await status(h, session), 'pending');
  });

  test('a signed body that is not JSON by content type: 415', async () => {
    const { h, order } = await paidScenario();
    const res = await h.handler(webhookRequest(order, { timestamp: now(h), headers: { 'content-type': 'text/plain' } }));
    assert.equal(res.status, 415);
  });

  test('an oversized webhook: 413, nothing read', async () => {
    const { h, session, order } = await paidScenario({ maxWebhookBodyBytes: 2048 });
    const body = JSON.stringify({ request_id: 'r', webhook_type: 'buy_update', datetime: 'x', payload: order, pad: 'x'.repeat(4096) });
    const res = await h.handler(webhookRequest(order, { timestamp: now(h), body }));
    assert.equal(res.status, 413);
    assert.equal(await status(h, session), 'pending');
  });

  test('a webhook for an order this endpoint did not create is acknowledged and ignored', async () => {
    const { h, order } = await paidScenario();
    const res = await h.handler(webhookRequest({ ...order, id: 'other-order', client_order_id: 'other-shop-1' }, { timestamp: now(h) }));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { received: true, ignored: 'unknown order' });
  });

  test('a webhook naming our client order id with a foreign order id does not touch the session', async () => {
    const { h, session, order } = await paidScenario();
    const res = await h.handler(webhookRequest({ ...order, id: 'not-our-order' }, { timestamp: now(h) }));
    assert.equal(res.status, 200);
    assert.equal(await status(h, session), 'pending');
  });
});

describe('webhook confirmation', () => {
  test('the provider, not the webhook body, decides: a "Completed" body for an unpaid order changes nothing', async () => {
    const h = makeHarness();
    const { session, order } = await createSession(h);
    const forgedBody = { ...h.provider.orders[0]!, status: 'Completed' as const };
    const res = await h.handler(webhookRequest(forgedBody, { timestamp: now(h) }));
    assert.equal(res.status, 200);
    assert.equal(await status(h, session), 'pending');
    await h.handler.idle();
    assert.equal(h.paid.length, 0);
    void order;
  });

  test('a paid order whose amount differs from the order is flagged, not marked paid', async () => {
    const { h, session, order } = await paidScenario();
    h.provider.readTransform = (o) => ({ ...o, amount: '15.00' });
    const res = await h.handler(webhookRequest(order, { timestamp: now(h) }));
    assert.equal(res.status, 200);
    assert.equal(await status(h, session), 'pending');
    await h.handler.idle();
    assert.equal(h.paid.length, 0);
    assert.equal(h.flagged.length, 1);
    const f = h.flagged[0] as { reason: string; expected_amount: string };
    assert.equal(f.reason, 'amount_mismatch');
    assert.equal(f.expected_amount, '1500.00');
    assert.ok(h.logs.some((l) => l.level === 'error' && /amount_mismatch/.test(l.message)));
    // Duplicates do not flag twice, and never pay.
    await h.handler(webhookRequest(order, { timestamp: now(h) }));
    await h.handler.idle();
    assert.equal(h.flagged.length, 1);
    assert.equal(h.paid.length, 0);
  });

  test('a paid order in another currency is flagged, not marked paid', async () => {
    const { h, session, order } = await paidScenario();
    h.provider.readTransform = (o) => ({ ...o, currency: 'USD' });
    await h.handler(webhookRequest(order, { timestamp: now(h) }));
    assert.equal(await status(h, session), 'pending');
    await h.handler.idle();
    assert.equal((h.flagged[0] as { reason: string }).reason, 'currency_mismatch');
    assert.equal(h.paid.length, 0);
  });

  test('provider down while confirming: 202 (stored), and the next read confirms it', async () => {
    const { h, session, order } = await paidScenario();
    h.provider.failNext('getOrder', () => {
      throw new ProviderError({ code: 'network', message: 'down', retryable: true });
    });
    const res = await h.handler(webhookRequest(order, { timestamp: now(h) }));
    assert.equal(res.status, 202);
    await h.handler.idle();
    h.clock.now += 2000; // past the refresh interval
    assert.equal(await status(h, session), 'paid', 'the stored "confirm pending" mark triggers the read');
    await h.handler.idle();
    assert.equal(h.paid.length, 1);
  });

  test('a slow confirmation answers 202 in time and completes in the background', async () => {
    const { h, session, order } = await paidScenario({ webhookConfirmTimeoutMs: 20 });
    const hold = deferred();
    h.provider.failNext('getOrder', () => hold.promise);
    const res = await h.handler(webhookRequest(order, { timestamp: now(h) }));
    assert.equal(res.status, 202);
    hold.resolve();
    await h.handler.idle();
    assert.equal(await status(h, session), 'paid');
    assert.equal(h.paid.length, 1);
  });
});

describe('duplicates, reordering, exactly once', () => {
  test('five concurrent duplicates: all 2xx, onOrderPaid runs once', async () => {
    const { h, session, order } = await paidScenario();
    const body = JSON.stringify({ request_id: 'same', webhook_type: 'buy_update', datetime: 'x', payload: order });
    const res = await Promise.all(Array.from({ length: 5 }, () => h.handler(webhookRequest(order, { timestamp: now(h), body }))));
    for (const r of res) assert.ok(r.status === 200 || r.status === 202, String(r.status));
    await h.handler.idle();
    assert.equal(h.paid.length, 1);
    assert.equal(await status(h, session), 'paid');
  });

  test('a late, older "Unpaid" delivery after "Completed" changes nothing', async () => {
    const { h, session, order } = await paidScenario();
    const older = { ...order, status: 'Unpaid' as const };
    await h.handler(webhookRequest(order, { timestamp: now(h) }));
    const res = await h.handler(webhookRequest(older, { timestamp: now(h) }));
    assert.equal(res.status, 200);
    assert.equal(await status(h, session), 'paid');
    await h.handler.idle();
    assert.equal(h.paid.length, 1);
  });

  test('the same delivery again much later (the provider retries) is harmless', async () => {
    const { h, order } = await paidScenario();
    await h.handler(webhookRequest(order, { timestamp: now(h) }));
    h.clock.now += 3600_000;
    const again = await h.handler(webhookRequest(order, { timestamp: now(h) }));
    assert.equal(again.status, 200);
    await h.handler.idle();
    assert.equal(h.paid.length, 1);
  });

  test('an onOrderPaid that fails runs again after its backoff (on a read or a sweep), and then not any more', async () => {
    let calls = 0;
    const done: unknown[] = [];
    const { h, session, order } = await paidScenario({
      onOrderPaid: (e) => {
        calls++;
        if (calls === 1) throw new Error('merchant database busy');
        done.push(e);
      },
    });
    await h.handler(webhookRequest(order, { timestamp: now(h) }));
    await h.handler.idle();
    assert.equal(calls, 1);
    assert.ok(h.logs.some((l) => l.level === 'error' && /onOrderPaid failed/.test(l.message)));
    await getSession(h, session);
    await h.handler.idle();
    assert.equal(calls, 1, 'not again before its backoff');
    h.clock.now += 10_000;
    await getSession(h, session); // a read of a paid session whose hook is due again retries it
    await h.handler.idle();
    assert.equal(calls, 2);
    assert.equal(done.length, 1);
    await h.handler(webhookRequest(order, { timestamp: now(h) }));
    await getSession(h, session);
    await h.handler.idle();
    assert.equal(calls, 2);
  });

  test('a cancelled order runs onOrderClosed once and never onOrderPaid', async () => {
    const h = makeHarness();
    const { session, order } = await createSession(h);
    const o = h.provider.setStatus(order.id, 'CanceledByService');
    await h.handler(webhookRequest(o, { timestamp: now(h) }));
    await h.handler(webhookRequest(o, { timestamp: now(h) }));
    assert.equal(await status(h, session), 'cancelled');
    await h.handler.idle();
    assert.equal(h.closed.length, 1);
    assert.equal(h.paid.length, 0);
  });
});
