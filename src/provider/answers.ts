/**
 * Reading one answer of the provider: a 2xx with JSON that fits the endpoint's schema is its data;
 * anything else is the matching {@link ProviderError} (a surprise in a 2xx is `invalid_response`, a
 * refusal is classified by status, endpoint and the provider's message).
 */
import type { z } from 'zod';
import { classifyProviderError, extractErrorMessage, parseRetryAfter, ProviderError } from './errors.js';
import type { Redact } from './redaction.js';
import { label, type Call, type Exchange } from './call.js';

/** Turns an exchange into checked data, or throws the matching ProviderError. */
export function interpret<S extends z.ZodType>(call: Call, ex: Exchange, schema: S, redact: Redact, now: () => number): z.output<S> {
  const { json, isJson } = parseJson(ex.text);
  const ok = ex.status >= 200 && ex.status < 300;
  const reqId = requestIdOf(ex, isJson ? json : undefined);

  if (ok && isJson && !(json && typeof json === 'object' && (json as { success?: unknown }).success === false)) {
    const parsed = schema.safeParse(json);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0]!;
    const path = issue.path.map(String).join('.') || '(root)';
    throw new ProviderError({
      code: 'invalid_response',
      message: redact(`${label(call)}: unexpected answer at ${path}: ${issue.message}`),
      status: ex.status,
      path,
      endpoint: label(call),
      ...(reqId !== undefined && { requestId: reqId }),
    });
  }
  if (ok && !isJson) {
    throw new ProviderError({
      code: 'invalid_response',
      message: `${label(call)}: the answer is not JSON`,
      status: ex.status,
      path: '(root)',
      endpoint: label(call),
      ...(reqId !== undefined && { requestId: reqId }),
    });
  }
  // Not 2xx, or a 2xx that says success: false.
  const rawMessage = extractErrorMessage(json, isJson ? '' : ex.text);
  const providerMessage = rawMessage === null ? null : redact(rawMessage);
  // A 2xx that says `success: false` is classified by its message like a 400.
  const { code, retryable } = classifyProviderError(ok ? 400 : ex.status, providerMessage, call.kind);
  const retryAfterMs = code === 'rate_limited' || ex.status >= 500 ? parseRetryAfter(ex.headers.get('retry-after'), now()) : undefined;
  throw new ProviderError({
    code,
    message: `${label(call)}: ${ex.status} ${code}${providerMessage ? `: ${providerMessage}` : ''}`,
    status: ex.status,
    providerMessage,
    retryable,
    endpoint: label(call),
    ...(reqId !== undefined && { requestId: reqId }),
    ...(retryAfterMs !== undefined && { retryAfterMs }),
  });
}

function parseJson(text: string): { json: unknown; isJson: boolean } {
  try {
    return { json: JSON.parse(text), isJson: true };
  } catch {
    return { json: undefined, isJson: false };
  }
}

/** The request id of an answer: its `X-Request-Id` (or `Request-Id`) header, else `request_id` in a JSON body. */
function requestIdOf(ex: Exchange, json: unknown): string | undefined {
  const header = ex.headers.get('x-request-id') ?? ex.headers.get('request-id') ?? undefined;
  if (header !== undefined) return header;
  const fromBody = json && typeof json === 'object' ? (json as { request_id?: unknown }).request_id : undefined;
  return typeof fromBody === 'string' ? fromBody : undefined;
}
