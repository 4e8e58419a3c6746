/**
 * The token endpoint's requests a first paint needs (`POST /sessions`, `GET /sessions/S`), with
 * their answers validated, and the errors every request of the element shares ({@link ApiError}). The
 * CDN entry sends these before the element's code arrives (first.ts), so they are a module of their
 * own: the rest of the client (the methods, the live status' URL) is api.ts, with the element.
 */
import { parseErrorBody, parseOrderView, PROTOCOL_HEADER } from '../protocol/answers.js';
import type { OrderView } from '../protocol/answers.js';
import type { CreateSessionRequest, PaydeskErrorCode, ProtocolErrorCodeValue } from '../protocol/index.js';

export interface ErrorInfo {
  /** A token endpoint code, `config`, `aborted`, or an unknown one (typed apart: see `PaydeskErrorCode`). */
  code: PaydeskErrorCode;
  message: string;
  retryable: boolean;
}

export class ApiError extends Error implements ErrorInfo {
  constructor(
    readonly code: PaydeskErrorCode,
    message: string,
    readonly retryable: boolean,
    readonly status = 0,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface OrderAnswer {
  order: OrderView;
  serverTime: string | null;
}

/** The session requests of the client (api.ts `Api` adds the methods and the live status' URL). */
export interface SessionsApi {
  /** `Idempotency-Key` is the same on every retry of one attempt to create. */
  create(body: CreateSessionRequest, idempotencyKey: string, signal?: AbortSignal): Promise<OrderAnswer & { session: string }>;
  session(session: string, refresh: boolean, signal?: AbortSignal): Promise<OrderAnswer>;
}

export interface ApiOptions {
  fetch?: typeof fetch | undefined;
  /** Per request; creating a session waits for the requisites search, so it gets longer. */
  timeoutMs?: number;
  createTimeoutMs?: number;
}

export const invalid = (what: string): ApiError => new ApiError('invalid_response', `invalid answer from the token endpoint: ${what}`, true);

/** Runs a check of protocol/answers.ts; its failure becomes an `invalid_response` error. */
export function checked<T>(check: () => T): T {
  try {
    return check();
  } catch (e) {
    throw new ApiError('invalid_response', (e as Error).message, true);
  }
}

/** Validates `{order, server_time}` (the session answer, and an SSE payload in that form). */
export function parseOrderAnswer(value: unknown, bare = false): OrderAnswer {
  const v = value as { order?: unknown; server_time?: unknown } | null;
  return checked(() =>
    bare
      ? { order: parseOrderView(value), serverTime: null }
      : { order: parseOrderView(v?.order), serverTime: typeof v?.server_time === 'string' && !isNaN(Date.parse(v.server_time)) ? v.server_time : null },
  );
}

/** Stable codes for HTTP statuses without a usable error body (anything else 5xx or 4xx). */
const STATUS_CODES: Record<number, [code: PaydeskErrorCode, retryable: boolean]> = {
  404: ['not_found', false],
  408: ['timeout', true],
  413: ['payload_too_large', false],
  415: ['unsupported_file', false],
  429: ['rate_limited', true],
};

/** The error of a failed answer: its protocol error body, else what its HTTP status says. */
export function errorOfAnswer(status: number, body: unknown): ErrorInfo {
  const [code, retryable]: [PaydeskErrorCode, boolean] = STATUS_CODES[status] ?? [status > 499 ? 'provider_unavailable' : 'bad_request', status > 499];
  return parseErrorBody<ProtocolErrorCodeValue>(body) ?? { code, message: `HTTP ${status}`, retryable };
}

/** The path of a session under the endpoint. */
export const sessionPath = (session: string) => `/sessions/${encodeURIComponent(session)}`;

/** One request to the token endpoint: its JSON body, or an {@link ApiError} (aborted, timed out, network, refused). */
export type Request = (path: string, signal: AbortSignal | undefined, init?: RequestInit, timeout?: number) => Promise<unknown>;

/** The requests to `endpoint`, with `options` (api.ts `createApi` adds its own on the same). */
export function requester(endpoint: string, options: ApiOptions): Request {
  return async (path, signal, init, timeout = options.timeoutMs ?? 15_000) => {
    const ctrl = new AbortController();
    const abort = () => ctrl.abort();
    signal?.addEventListener('abort', abort);
    const timer = setTimeout(abort, timeout);
    let res: Response;
    let text: string;
    try {
      if (signal?.aborted) throw signal.reason;
      res = await (options.fetch ?? fetch)(endpoint + path, { ...init, signal: ctrl.signal, credentials: 'same-origin' });
      text = await res.text();
    } catch (e) {
      throw signal?.aborted
        ? new ApiError('aborted', 'aborted', true)
        : ctrl.signal.aborted
          ? new ApiError('timeout', 'the token endpoint did not answer in time', true)
          : new ApiError('network', e instanceof Error ? e.message : 'network error', true);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
    }
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      if (res.ok) throw invalid('the body is not JSON');
    }
    if (!res.ok) {
      const e = errorOfAnswer(res.status, body);
      throw new ApiError(e.code, e.message, e.retryable, res.status);
    }
    return body;
  };
}

/** The session requests to `endpoint` (`request`: api.ts's own, when it makes the whole client). */
export function sessionsApi(endpoint: string, options: ApiOptions = {}, request = requester(endpoint, options)): SessionsApi {
  return {
    async create(body, key, signal) {
      const answer = await request(
        '/sessions',
        signal,
        { method: 'POST', headers: { 'Content-Type': 'application/json', [PROTOCOL_HEADER]: '1', 'Idempotency-Key': key }, body: JSON.stringify(body) },
        options.createTimeoutMs ?? 65_000,
      );
      const session = (answer as { session?: unknown } | null)?.session;
      if (typeof session !== 'string' || !session) throw invalid('session should be a string');
      return { session, ...parseOrderAnswer(answer) };
    },
    session: async (session, refresh, signal) => parseOrderAnswer(await request(sessionPath(session) + (refresh ? '?refresh=1' : ''), signal)),
  };
}

/** A fresh idempotency key (works outside secure contexts, where `crypto.randomUUID` is missing). */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
