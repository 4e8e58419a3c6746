/**
 * Errors of the console API (src/console/api.ts): one class that knows its HTTP status, stable code
 * (console-contract.ts) and the JSON body; and how a provider error on a read becomes one.
 */
import type { ProviderError } from '../provider/index.js';
import type { ConsoleErrorBody, ConsoleErrorCode } from './contract.js';

/** An error answer of the console API. */
export class ConsoleHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ConsoleErrorCode,
    message: string,
    readonly extra: { retryable?: boolean; field?: string; details?: ConsoleErrorBody['error']['details']; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }

  body(): ConsoleErrorBody {
    const { retryable = false, field, details } = this.extra;
    return { error: { code: this.code, message: this.message, retryable, ...(field && { field }), ...(details && { details }) } };
  }
}

export const invalid = (field: string, message: string) => new ConsoleHttpError(400, 'validation_failed', `${field}: ${message}`, { field });

export function errorBody(code: ConsoleErrorCode, message: string, retryable = false): ConsoleErrorBody {
  return { error: { code, message, retryable } };
}

/** A provider error on a read, as the console answers it. */
export function readError(err: ProviderError): ConsoleHttpError {
  switch (err.code) {
    case 'invalid_request':
      return new ConsoleHttpError(400, 'validation_failed', `the provider client refused the request: ${err.message}`, { ...(err.field && { field: err.field }) });
    case 'rate_limited':
      return rateLimited(err);
    case 'unauthorized':
      return new ConsoleHttpError(502, 'provider_error', 'the provider refused the merchant key (check PAYDESK_API_KEY)');
    case 'timeout':
      return new ConsoleHttpError(504, 'timeout', `the provider did not answer in time: ${err.message}`, { retryable: true });
    case 'network':
      return new ConsoleHttpError(502, 'network', `the provider could not be reached: ${err.message}`, { retryable: true });
    case 'invalid_response':
      return new ConsoleHttpError(502, 'invalid_response', `the provider did not answer as expected: ${err.message}`);
    default:
      return new ConsoleHttpError(502, 'provider_error', `the provider did not answer as expected: ${err.message}`, { retryable: err.retryable });
  }
}

export function rateLimited(err: ProviderError): ConsoleHttpError {
  const seconds = Math.max(1, Math.ceil((err.retryAfterMs ?? 60_000) / 1000));
  return new ConsoleHttpError(429, 'rate_limited', `the provider limits requests: try again in ${seconds} s`, {
    retryable: true,
    details: { retry_after: seconds },
    headers: { 'Retry-After': String(seconds) },
  });
}

