/**
 * "Send test webhook" (the webhooks page): `POST /webhooks/test {"endpoint"?}` sends one test
 * delivery (provider/webhook-test.ts, the one `paydesk webhooks test` sends) to the webhook route of
 * a token endpoint's handler — in process, through the handler's own fetch function, at
 * `{endpoint}/webhooks` of the console's origin — signed with the endpoint's `webhookTest.secret`
 * (X-Paydesk-Signature) and carrying its `webhookTest.apiKey` (X-API-Key), as the provider's
 * deliveries are. The handler verifies it like any delivery, logs it with the outcome `test` and
 * answers `200 {"received": true, "test": true}` without touching an order; a `401` means the
 * handler did not verify it (its webhook secret or key is not the one the console signs with).
 *
 *   → 200 {"result": WebhookTestResult}     the delivery was sent; `ok` says whether it was verified
 *   → 400 invalid_filter (endpoint)          not one of the console's token endpoints
 *   → 409 webhook_test_unavailable           the endpoint has no handler, or nothing to sign with
 */
import { randomUUID } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { sendTestWebhook, type TestWebhookAnswer } from '../provider/webhook-test.js';
import { check, invalidEndpoint, readJson } from './checks.js';
import type { WebhookTestResult } from './webhook-test-result.js';
import { ConsoleHttpError } from './errors.js';
import type { ShopRecords } from './shop.js';

const WebhookTestBody = z.strictObject({ endpoint: z.string().trim().min(1, 'must not be empty').max(200, 'is too long').optional() });

export function registerWebhookTest(app: Hono, deps: { shops: ShopRecords; now: () => number; logError: (message: string, err: unknown) => void }): void {
  app.post('/webhooks/test', async (c: Context) => {
    const body = check(WebhookTestBody, await readJson(c, '{"endpoint": "/api/paydesk"}'), 'field');
    const endpoint = deps.shops.endpoint(body.endpoint);
    if (!endpoint) throw invalidEndpoint(deps.shops.endpoints);
    const { deliver, webhookTest } = endpoint;
    if (!deliver) throw unavailable(`The console was not given the handler of ${endpoint.path}: pass it as createConsole's handler (or moreEndpoints[].handler).`);
    if (!webhookTest?.secret && !webhookTest?.apiKey) {
      throw unavailable(`Nothing to sign a test delivery to ${endpoint.path} with: give createConsole webhookTest: { secret } (the webhook secret the handler checks) or { apiKey } (webhookAuth api_key).`);
    }
    const requestId = randomUUID();
    const sentAt = deps.now();
    const url = new URL(`${endpoint.path.replace(/\/+$/, '')}/webhooks`, c.req.url).href;
    const base = { endpoint: endpoint.path, url, request_id: requestId, sent_at: new Date(sentAt).toISOString(), signed: Boolean(webhookTest.secret), api_key: Boolean(webhookTest.apiKey) };
    let reply: TestWebhookAnswer;
    try {
      reply = await sendTestWebhook((init) => deliver(new Request(url, init)), {
        requestId,
        nowMs: sentAt,
        ...(webhookTest.secret && { secret: webhookTest.secret }),
        ...(webhookTest.apiKey && { apiKey: webhookTest.apiKey }),
        userAgent: 'paydesk-console',
      });
    } catch (err) {
      deps.logError('console: the test webhook delivery failed', err);
      return c.json({ result: { ...base, status: 0, answer: err instanceof Error ? err.message : String(err), ok: false, problem: 'error' } satisfies WebhookTestResult });
    }
    return c.json({ result: { ...base, status: reply.status, answer: reply.text, ok: reply.recognised, problem: reply.problem } satisfies WebhookTestResult });
  });
}

const unavailable = (message: string) => new ConsoleHttpError(409, 'webhook_test_unavailable', message);
