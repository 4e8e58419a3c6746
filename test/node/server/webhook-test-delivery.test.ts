/**
 * A test delivery (`paydesk webhooks test`, webhook_type `paydesk_test`): verified like any webhook,
 * answered 200 {"received": true, "test": true}, logged with the outcome `test`, and nothing else —
 * no provider read, no session, no hook. An unverified one is refused as any other.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { testWebhookBody, testWebhookDelivery } from '../../../src/provider/webhook-test.js';
import { API_KEY, BASE, WEBHOOK_SECRET, createSession, makeHarness } from './fake-provider.js';
import { signWebhookPayload } from '../../../src/server/webhooks.js';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');

function testDelivery(headers: Record<string, string>, body = testWebhookBody(randomUUID(), NOW)): Request {
  return new Request(`${BASE}/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
}

test('a signed test delivery is answered 200 {test: true}, logged as a test, and touches no order', async () => {
  const h = makeHarness();
  const { session } = await createSession(h);
  const calls = h.provider.calls.length;
  const sessionsBefore = await h.handler.inspect.sessions();
  const body = testWebhookBody(randomUUID(), NOW);
  const res = await h.handler(testDelivery({ 'x-paydesk-signature': signWebhookPayload(WEBHOOK_SECRET, body, NOW / 1000) }, body));
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { received: true, test: true });
  await h.handler.idle();
  assert.equal(h.provider.calls.length, calls, 'the provider is not asked about a test delivery');
  assert.deepEqual(await h.handler.inspect.sessions(), sessionsBefore, 'no session changed');
  assert.equal(h.paid.length + h.closed.length + h.flagged.length, 0, 'no hook ran');
  const [line] = await h.handler.inspect.webhooks({ verified: true, limit: 1 });
  assert.equal(line?.outcome, 'test');
  assert.equal(line?.verified, true);
  assert.equal(line?.http_status, 200);
  assert.match(line?.order_id ?? '', /^paydesk_test_/);
  assert.ok(h.logs.some((l) => l.level === 'info' && /test webhook/.test(l.message)));
  assert.ok(session, 'the shop still has its session');
});

test('in api_key mode the repeated X-API-Key verifies a test delivery', async () => {
  const h = makeHarness({ webhookSecrets: undefined, webhookAuth: 'api_key' });
  const { body, headers } = testWebhookDelivery({ requestId: randomUUID(), nowMs: NOW, apiKey: API_KEY });
  assert.equal(headers['X-Paydesk-Signature'], undefined, 'no secret: not signed');
  const res = await h.handler(new Request(`${BASE}/webhooks`, { method: 'POST', headers, body }));
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { received: true, test: true });
});

test('an unsigned or wrongly signed test delivery is refused 401 and logged as refused, not as a test', async () => {
  const h = makeHarness();
  const body = testWebhookBody(randomUUID(), NOW);
  for (const headers of [{}, { 'x-paydesk-signature': signWebhookPayload('whsec_wrong_secret_0123456789abcdef', body, NOW / 1000) }] as Record<string, string>[]) {
    const res = await h.handler(testDelivery(headers, body));
    assert.equal(res.status, 401);
  }
  const lines = await h.handler.inspect.webhooks();
  assert.ok(lines.length >= 2);
  assert.ok(lines.every((l) => l.outcome === 'refused' && !l.verified));
});
