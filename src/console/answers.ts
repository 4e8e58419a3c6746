/**
 * The error answers of the exports and the analytics, in the console API's shape
 * `{"error": {code, message, retryable, field?}}`: a bad query value (400 naming it) and a provider
 * that refused or failed the read.
 */
import { isProviderError } from '../provider/errors.js';
import type { FieldError } from './period.js';

/** An answer of `{"error": {code, message, retryable, field?}}` (the console's error shape). */
export function errorResponse(status: number, code: string, message: string, extra: { field?: string; retryable?: boolean; headers?: Record<string, string> } = {}): Response {
  const body = { error: { code, message, retryable: extra.retryable ?? false, ...(extra.field !== undefined && { field: extra.field }) } };
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...extra.headers },
  });
}

/** A FieldError as its 400 answer. */
export function fieldErrorResponse(err: FieldError): Response {
  return errorResponse(400, 'validation_failed', err.message, { field: err.field });
}

/** A failed provider read as its answer: 429 (with Retry-After), 504, or 502 saying what went wrong. */
export function providerErrorResponse(err: unknown): Response | null {
  if (!isProviderError(err)) return null;
  switch (err.code) {
    case 'rate_limited': {
      const seconds = Math.max(1, Math.ceil((err.retryAfterMs ?? 60_000) / 1000));
      return errorResponse(429, 'rate_limited', `the provider limits requests: try again in ${seconds} s`, { retryable: true, headers: { 'Retry-After': String(seconds) } });
    }
    case 'timeout':
      return errorResponse(504, 'timeout', `the provider did not answer in time: ${err.message}`, { retryable: true });
    case 'network':
      return errorResponse(502, 'network', `the provider could not be reached: ${err.message}`, { retryable: true });
    case 'unauthorized':
      return errorResponse(502, 'provider_error', 'the provider refused the merchant key');
    default:
      return errorResponse(502, 'provider_error', `the provider did not answer as expected: ${err.message}`, { retryable: err.retryable });
  }
}
