/**
 * The test delivery of `paydesk webhooks test URL` (and a console's "Send test webhook"): a webhook
 * envelope of this project's own type `paydesk_test`, which the provider never sends. The merchant's
 * handler verifies it like any other delivery (signature or X-API-Key), logs it with the outcome
 * `test` and answers `200 {"received": true, "test": true}` without reading or touching any order.
 * Its payload has the shape of an order so that a receiver that does not know the type still parses
 * it; its order id `paydesk_test_…` and client order id `paydesk_test` name no real order.
 */
import { signWebhookPayload, WEBHOOK_SIGNATURE_HEADER } from './webhook-signature.js';

export const TEST_WEBHOOK_TYPE = 'paydesk_test';
export const TEST_ORDER_ID_PREFIX = 'paydesk_test_';

/** The test envelope, as JSON text (the exact bytes to sign and send). */
export function testWebhookBody(requestId: string, nowMs: number): string {
  const at = new Date(nowMs).toISOString();
  return JSON.stringify({
    request_id: requestId,
    webhook_type: TEST_WEBHOOK_TYPE,
    datetime: at.slice(0, -1),
    payload: {
      id: `${TEST_ORDER_ID_PREFIX}${requestId}`,
      client_order_id: 'paydesk_test',
      status: 'Completed',
      amount: '0.00',
      currency: 'RUB',
      created_at: at,
      updated_at: at,
    },
  });
}

/** True when a (verified) webhook body is a test delivery. */
export function isTestWebhook(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { webhook_type?: unknown }).webhook_type === TEST_WEBHOOK_TYPE;
}

/**
 * A test delivery ready to POST: its body and headers, signed with `secret` (X-Paydesk-Signature)
 * and carrying `apiKey` (X-API-Key) when each is given, as the provider's deliveries are. Used by
 * `paydesk webhooks test`; a console's "Send test webhook" can send the same.
 */
export function testWebhookDelivery(options: { requestId: string; nowMs: number; secret?: string; apiKey?: string }): { body: string; headers: Record<string, string> } {
  const body = testWebhookBody(options.requestId, options.nowMs);
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (options.secret) headers[WEBHOOK_SIGNATURE_HEADER] = signWebhookPayload(options.secret, body, options.nowMs / 1000);
  if (options.apiKey) headers['X-API-Key'] = options.apiKey;
  return { body, headers };
}

/** How much of a handler's answer to a test delivery is kept (enough to show). */
export const TEST_ANSWER_SHOWN = 300;

/** A test delivery as `send` posts it: method, headers (with the sender's User-Agent) and body. */
export interface TestWebhookRequest {
  method: 'POST';
  headers: Record<string, string>;
  body: string;
}

/** What the receiving route answered to a test delivery. */
export interface TestWebhookAnswer {
  status: number;
  /** The start of its body ({@link TEST_ANSWER_SHOWN} characters), as text. */
  text: string;
  /** That text parsed as JSON, or null. */
  json: unknown;
  /** 2xx with `{"test": true}`: a paydesk handler verified the delivery and fulfilled nothing. */
  recognised: boolean;
  /** Why not: `unverified` (401: the secret or key is not the handler's), `not_a_test_answer` (2xx without `test: true`), `error` (any other status). */
  problem: 'unverified' | 'not_a_test_answer' | 'error' | null;
}

/**
 * Sends one test delivery (`paydesk webhooks test`, the console's "Send test webhook") through
 * `send`, which posts it to the route (over the network, or to a handler in process), and reads
 * the answer. Rejects as `send` does when the route cannot be reached.
 */
export async function sendTestWebhook(
  send: (request: TestWebhookRequest) => Promise<Response>,
  options: { requestId: string; nowMs: number; secret?: string; apiKey?: string; userAgent: string },
): Promise<TestWebhookAnswer> {
  const { requestId, nowMs, secret, apiKey } = options;
  const delivery = testWebhookDelivery({ requestId, nowMs, ...(secret && { secret }), ...(apiKey && { apiKey }) });
  const res = await send({ method: 'POST', headers: { ...delivery.headers, 'User-Agent': options.userAgent }, body: delivery.body });
  const text = (await res.text().catch(() => '')).slice(0, TEST_ANSWER_SHOWN);
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON: kept as text */
  }
  const recognised = res.ok && (json as { test?: unknown } | null)?.test === true;
  const problem = recognised ? null : res.status === 401 ? 'unverified' : res.ok ? 'not_a_test_answer' : 'error';
  return { status: res.status, text, json, recognised, problem };
}
