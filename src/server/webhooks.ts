/**
 * Authentication of the provider's webhooks, before anything else is looked at.
 *
 * - Signature mode: `X-Paydesk-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`,
 *   the timestamp within the tolerance (300 s) in both directions, every `v1` compared in constant
 *   time against every configured secret (rotation).
 * - API-key mode: the provider repeats the terminal's `X-API-Key` on each webhook (provider-notes.md);
 *   compared in constant time. Weak (the key is a bearer secret), so the server always re-reads the
 *   order from the provider before acting on a webhook.
 */
import { signWebhookPayload, WEBHOOK_SIGNATURE_HEADER } from '../provider/webhook-signature.js';
import { hmacSha256Hex, safeEqual } from './crypto.js';

export { signWebhookPayload };
export const SIGNATURE_HEADER = WEBHOOK_SIGNATURE_HEADER.toLowerCase();
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

export type WebhookAuthMode = 'signature' | 'api_key';

export interface WebhookAuthOptions {
  mode: WebhookAuthMode;
  /** Secrets for signature mode, the newest first; any one may match. */
  secrets?: readonly string[];
  /** The provider API key, for API-key mode. */
  apiKey?: string;
  toleranceSeconds?: number;
  /** Clock in ms. */
  now?: () => number;
}

export type WebhookAuthResult =
  | { ok: true; mode: WebhookAuthMode; timestamp?: number }
  | { ok: false; reason: string };

/** Parses `t=…,v1=…[,v1=…]`; null when it is not that shape. */
export function parseSignatureHeader(value: string): { timestamp: number; signatures: string[] } | null {
  if (value.length > 2048) return null;
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const val = part.slice(eq + 1).trim();
    if (key === 't') {
      if (!/^\d{1,12}$/.test(val)) return null;
      timestamp = Number(val);
    } else if (key === 'v1' && val.length > 0) {
      signatures.push(val.toLowerCase());
    }
  }
  if (timestamp === undefined || signatures.length === 0) return null;
  return { timestamp, signatures };
}

export function verifyWebhookRequest(headers: Headers, rawBody: string, options: WebhookAuthOptions): WebhookAuthResult {
  const now = options.now ?? Date.now;
  if (options.mode === 'api_key') {
    const presented = headers.get('x-api-key');
    if (!options.apiKey) return { ok: false, reason: 'no API key is configured to check webhooks' };
    if (presented === null) return { ok: false, reason: 'missing X-API-Key' };
    return safeEqual(presented, options.apiKey) ? { ok: true, mode: 'api_key' } : { ok: false, reason: 'wrong X-API-Key' };
  }
  const secrets = options.secrets ?? [];
  if (secrets.length === 0) return { ok: false, reason: 'no webhook secret is configured' };
  const header = headers.get(SIGNATURE_HEADER);
  if (header === null) return { ok: false, reason: 'missing X-Paydesk-Signature' };
  const parsed = parseSignatureHeader(header);
  if (!parsed) return { ok: false, reason: 'malformed X-Paydesk-Signature (expected t=<unix seconds>,v1=<hex>)' };
  const tolerance = options.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  const skew = Math.abs(now() / 1000 - parsed.timestamp);
  // Check every candidate against every secret before looking at the timestamp, with no early exit.
  let matched = false;
  for (const secret of secrets) {
    const expected = hmacSha256Hex(secret, `${parsed.timestamp}.${rawBody}`);
    for (const candidate of parsed.signatures) if (safeEqual(candidate, expected)) matched = true;
  }
  if (!matched) return { ok: false, reason: 'signature does not match (sign the raw body exactly as sent)' };
  if (!(skew <= tolerance)) return { ok: false, reason: `timestamp outside the ${tolerance} s tolerance` };
  return { ok: true, mode: 'signature', timestamp: parsed.timestamp };
}
