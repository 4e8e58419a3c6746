/**
 * Sending a call to the provider: one HTTP exchange with its deadline (through the caller's
 * `transport` or `fetch`), and reads retried with backoff. The API key lives only in this closure:
 * it goes out in the `X-API-Key` header and nowhere else.
 */
import type { z } from 'zod';
import { interpret } from './answers.js';
import { label, type Call, type Exchange } from './call.js';
import { ProviderError } from './errors.js';
import type { ClientSettings, Resolved } from './options.js';
import { sanitize, type Redact } from './redaction.js';

/** Backoff: the first wait is about this long, then doubles per retry ... */
export const BACKOFF_BASE_MS = 500;
/** ... up to this cap. */
export const BACKOFF_CAP_MS = 8_000;
/** A `Retry-After` longer than this is not waited for: the error is thrown with `retryAfterMs`. */
export const MAX_RETRY_AFTER_MS = 60_000;

export interface Transport {
  /** One HTTP exchange. Throws `network`/`timeout` ProviderErrors, or the caller's abort reason. */
  send(call: Call, r: Resolved): Promise<Exchange>;
  /** Checked data of an exchange, or the matching ProviderError (see answers.ts). */
  interpret<S extends z.ZodType>(call: Call, ex: Exchange, schema: S): z.output<S>;
  /** A read: retried on network errors, timeouts, 429 and 5xx, with backoff or Retry-After. */
  read<S extends z.ZodType>(call: Call, schema: S, r: Resolved): Promise<z.output<S>>;
  /** Waits `ms` (the client's `sleep`); the caller's abort ends it with the abort reason. */
  wait(ms: number, signal: AbortSignal | undefined): Promise<void>;
}

export function createTransport(settings: ClientSettings, apiKey: string, redact: Redact): Transport {
  const { baseUrl, fetch: fetchImpl, transport, sleep, random, now } = settings;

  function backoff(retry: number): number {
    const exp = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** retry);
    // Equal jitter: at least half the exponential step, so retries never bunch at zero.
    const r = Math.min(Math.max(random(), 0), 1);
    return Math.round(exp / 2 + (exp / 2) * r);
  }

  async function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
    await sleep(ms, signal);
    signal?.throwIfAborted();
  }

  /** The request as it goes out: URL, headers (with the key) and body. */
  function request(call: Call): { url: string; headers: Record<string, string>; body: string | Uint8Array | undefined } {
    const url = baseUrl + call.path + (call.query && [...call.query].length ? `?${call.query}` : '');
    const headers: Record<string, string> = { Accept: 'application/json', 'X-API-Key': apiKey };
    let body: string | Uint8Array | undefined;
    if (call.raw !== undefined) {
      headers['Content-Type'] = call.raw.contentType;
      body = call.raw.bytes;
    } else if (call.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(call.body);
    }
    return { url, headers, body };
  }

  /**
   * One HTTP exchange. The deadline is one timer cleared when the exchange ends (no
   * `AbortSignal.timeout`/`any` per call).
   */
  async function send(call: Call, r: Resolved): Promise<Exchange> {
    r.signal?.throwIfAborted();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`no answer within ${r.timeoutMs} ms`, 'TimeoutError'));
    }, r.timeoutMs);
    // Like AbortSignal.timeout: the deadline alone does not keep the process alive.
    (timer as { unref?: () => void }).unref?.();
    const caller = r.signal;
    const onAbort = () => controller.abort(caller!.reason);
    caller?.addEventListener('abort', onAbort, { once: true });
    const signal = controller.signal;
    const { url, headers, body } = request(call);
    try {
      if (transport) {
        return await transport({ method: call.method, url, headers, ...(body !== undefined && { body }), signal });
      }
      const res = await fetchImpl(url, { method: call.method, headers, body: body as BodyInit | undefined, signal, redirect: 'error' });
      const text = await res.text();
      return { status: res.status, headers: res.headers, text };
    } catch (err) {
      if (caller?.aborted) throw caller.reason;
      throw failure(call, r, err, timedOut);
    } finally {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onAbort);
    }
  }

  /** The ProviderError of an exchange that brought no answer. */
  function failure(call: Call, r: Resolved, err: unknown, timedOut: boolean): ProviderError {
    if (timedOut) {
      return new ProviderError({
        code: 'timeout',
        message: `${label(call)}: no answer within ${r.timeoutMs} ms`,
        retryable: true,
        endpoint: label(call),
      });
    }
    const detail = err instanceof Error ? err.message : String(err);
    return new ProviderError({
      code: 'network',
      message: redact(`${label(call)}: network error: ${detail}`),
      retryable: true,
      endpoint: label(call),
      cause: sanitize(err, redact),
    });
  }

  const interpretAnswer = <S extends z.ZodType>(call: Call, ex: Exchange, schema: S): z.output<S> => interpret(call, ex, schema, redact, now);

  async function read<S extends z.ZodType>(call: Call, schema: S, r: Resolved): Promise<z.output<S>> {
    for (let retry = 0; ; retry++) {
      try {
        return interpretAnswer(call, await send(call, r), schema);
      } catch (err) {
        if (!(err instanceof ProviderError) || !err.retryable || retry >= r.maxRetries) throw err;
        if (err.retryAfterMs !== undefined && err.retryAfterMs > MAX_RETRY_AFTER_MS) throw err;
        await wait(err.retryAfterMs ?? backoff(retry), r.signal);
      }
    }
  }

  return { send, interpret: interpretAnswer, read, wait };
}
