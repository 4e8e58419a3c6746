/**
 * URL safety. Only absolute `http:`/`https:` URLs ever become links or navigation targets; bank-app
 * links additionally allow the fixed schemes of the bank table. Everything else is dropped (`null`).
 */

export const MAX_URL_LENGTH = 2048;
// Control characters, whitespace and backslashes have no business in a URL we render.
export const UNSAFE_CHARS = /[\u0000-\u0020\u007f-\u009f\\]/;

/**
 * Returns the normalised URL when `value` is an absolute http(s) URL with a host and no embedded
 * credentials; otherwise null. Drops `javascript:`, `data:`, `vbscript:`, protocol-relative (`//x`),
 * relative, scheme-without-slashes (`https:x`) and malformed values.
 */
export function safeHttpUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_URL_LENGTH) return null;
  if (UNSAFE_CHARS.test(value)) return null;
  if (!/^https?:\/\/[^/]/i.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!url.hostname || url.username || url.password) return null;
  return url.href;
}

/**
 * The token endpoint as configured by the merchant: an absolute http(s) URL or a path on this site
 * (`/api/paydesk`), without a trailing slash. Returns null for anything else.
 */
export function normaliseEndpoint(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim().replace(/\/+$/, '');
  if (trimmed === '') return null;
  if (trimmed.startsWith('/') && !trimmed.startsWith('//') && !UNSAFE_CHARS.test(trimmed)) return trimmed;
  return safeHttpUrl(trimmed)?.replace(/\/+$/, '') ?? null;
}
