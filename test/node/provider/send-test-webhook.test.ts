/**
 * `sendTestWebhook` (src/provider/webhook-test.ts): the one test delivery that `paydesk webhooks
 * test` and the console's "Send test webhook" both send and read. Against a real handler it is
 * recognised; each other answer is named by what went wrong, and the answer kept is its start.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sendTestWebhook, TEST_ANSWER_SHOWN, type TestWebhookRequest } from '../../../src/provider/webhook-test.js';
import { BASE, WEBHOOK_SECRET, makeHarness } from '../server/fake-provider.js';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const options = { requestId: 'req-1', nowMs: NOW, userAgent: 'paydesk-test' };
/** A route that answers `status` with `body`, whatever it is sent; the requests it saw. */
const answering = (status: number, body: string, seen: TestWebhookRequest[] = []) => async (r: TestWebhookRequest) => (seen.push(r), new Response(status === 204 ? null : body, { status }));

test("a paydesk handler verifies the delivery (signed with its secret) and says it is a test: recognised, nothing to mend", async () => {
  const h = makeHarness();
  const reply = await sendTestWebhook((init) => h.handler(new Request(`${BASE}/webhooks`, init)), { ...options, secret: WEBHOOK_SECRET });
  assert.deepEqual(reply, { status: 200, text: '{"received":true,"test":true}', json: { received: true, test: true }, recognised: true, problem: null });
});

test('the request: POST, signed with the secret, the API key, the sender’s User-Agent, the test envelope', async () => {
  const seen: TestWebhookRequest[] = [];
  await sendTestWebhook(answering(200, '{"test":true}', seen), { ...options, secret: 'whsec_x', apiKey: 'key-1' });
  const [r] = seen;
  assert.equal(r?.method, 'POST');
  assert.equal(r?.headers['User-Agent'], 'paydesk-test');
  assert.equal(r?.headers['X-API-Key'], 'key-1');
  assert.match(r?.headers['X-Paydesk-Signature'] ?? '', /\S/);
  assert.equal(JSON.parse(r!.body).request_id, 'req-1');
  assert.equal(JSON.parse(r!.body).webhook_type, 'paydesk_test');
});

test('each other answer says why: 401 unverified, a 2xx without {"test": true} not a test answer, any other status an error', async () => {
  assert.equal((await sendTestWebhook(answering(401, '{"error":{}}'), options)).problem, 'unverified');
  const plain = await sendTestWebhook(answering(200, 'OK'), options);
  assert.deepEqual([plain.problem, plain.recognised, plain.json, plain.text], ['not_a_test_answer', false, null, 'OK']);
  assert.equal((await sendTestWebhook(answering(204, ''), options)).problem, 'not_a_test_answer');
  const failed = await sendTestWebhook(answering(500, 'x'.repeat(1000)), options);
  assert.deepEqual([failed.problem, failed.status, failed.text.length], ['error', 500, TEST_ANSWER_SHOWN], 'only the start of a long answer is kept');
  // A 3xx (the CLI does not follow redirects) is not a verified delivery either.
  assert.equal((await sendTestWebhook(answering(302, ''), options)).problem, 'error');
});

test('a route that cannot be reached: rejects as the sender did (the caller says so its own way)', async () => {
  await assert.rejects(sendTestWebhook(() => Promise.reject(new TypeError('fetch failed')), options), /fetch failed/);
});
