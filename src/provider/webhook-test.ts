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
