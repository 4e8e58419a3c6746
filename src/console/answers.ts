/**
 * The exports' and the analytics' error answers as Responses (they answer, not throw: a caller
 * without the console's Hono app gets the same), in the console API's shape (src/console/errors.ts):
 * a bad query value is a 400 naming it; a failed provider read as the console's other reads say it.
 */
import { isProviderError } from '../provider/errors.js';
import { ConsoleHttpError, readError } from './errors.js';
import type { FieldError } from './period.js';

export function errorResponse(err: ConsoleHttpError): Response {
  return new Response(JSON.stringify(err.body()), {
    status: err.status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...err.extra.headers },
  });
}

/** A FieldError as its 400 answer. */
export function fieldErrorResponse(err: FieldError): Response {
  return errorResponse(new ConsoleHttpError(400, 'validation_failed', err.message, { field: err.field }));
}

/** A failed provider read as its answer (429 with Retry-After, 502, 504), or null for any other error. */
export function providerErrorResponse(err: unknown): Response | null {
  return isProviderError(err) ? errorResponse(readError(err)) : null;
}
