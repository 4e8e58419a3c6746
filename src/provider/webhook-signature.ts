/**
 * The webhook signature the sandbox makes and the merchant server checks (a provider extension of
 * this project's; the real provider repeats X-API-Key): `X-Paydesk-Signature: t=<unix seconds>,
 * v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`. One implementation for both sides.
 */
import { createHmac } from 'node:crypto';

export const WEBHOOK_SIGNATURE_HEADER = 'X-Paydesk-Signature';

/** The signature header value for `body` at `timestamp` (unix seconds; fractions dropped): `t=…,v1=…`. */
export function signWebhookPayload(secret: string, body: string, timestamp: number): string {
  const t = Math.floor(timestamp);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest('hex')}`;
}
