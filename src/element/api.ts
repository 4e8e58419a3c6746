/**
 * The widget protocol client (DESIGN.md, "Widget protocol"): the four calls the element makes to the
 * token endpoint, with every answer validated. Failures become {@link ApiError} with a stable code.
 */
import {
  parseErrorBody,
  parseOrderView,
  PROTOCOL_HEADER,
  type CreateSessionRequest,
  type OrderView,
  type PaymentMethodView,
} from '../protocol/index.js';

export interface ErrorInfo {
  code: string;
  message: string;
  retryable: boolean;
}

export class ApiError extends Error implements ErrorInfo {
  readonly code: string;
  readonly retryable: boolean;
  readonly status: number;
  constructor(code: string, message: string, retryable: boolean, status = 0) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.retryable = retryable;
    this.status = status;
  }
}

/** Any thrown value as an {@link ErrorInfo}. */
export function toErrorInfo(error: unknown): ErrorInfo {
  if (error instanceof ApiError) return { code: error.code, message: error.message, retryable: error.retryable };
  return { code: 'default', message: error instanceof Error ? error.message : String(error), retryable: true };
}

export interface OrderAnswer {
  order: OrderView;
  serverTime: string | null;
}

export interface Api {
  methods(orderRef: string, signal?: AbortSignal): Promise<PaymentMethodView[]>;
  /** `Idempotency-Key` is the same on every retry of one attempt to create. */
  create(body: CreateSessionRequest, idempotencyKey: string, signal?: AbortSignal): Promise<OrderAnswer & { session: string }>;
  session(session: string, refresh: boolean, signal?: AbortSignal): Promise<OrderAnswer>;
  eventsUrl(session: string): string;
}

export interface ApiOptions {
  fetch?: typeof fetch;
  /** Per request; creating a session waits for the requisites search, so it gets longer. */
  timeoutMs?: number;
  createTimeoutMs?: number;
}

const DECIMAL = /^\d+(\.\d+)?$/;
const BANKS = ['sberbank', 'tinkoff', 'vtb', 'alfabank'];

function invalid(what: string): ApiError {
  return new ApiError('invalid_response', `invalid answer from the token endpoint: ${what}`, true);
}

/** Validates the `methods` array of `GET /methods`. */
export function parseMethods(value: unknown): PaymentMethodView[] {
  const list = (value as { methods?: unknown } | null)?.methods;
  if (!Array.isArray(list)) throw invalid('methods should be an array');
  return list.map((m: Record<string, unknown>, i) => {
    const bad = (field: string) => invalid(`methods[${i}].${field}`);
    if (typeof m !== 'object' || m === null) throw bad('');
    for (const f of ['id', 'name', 'type'] as const) if (typeof m[f] !== 'string' || m[f] === '') throw bad(f);
    for (const f of ['fee', 'total'] as const) if (typeof m[f] !== 'string' || !DECIMAL.test(m[f])) throw bad(f);
    const fixed = m.fixed_fee ?? null;
    if (fixed !== null && (typeof fixed !== 'string' || !DECIMAL.test(fixed))) throw bad('fixed_fee');
    const bank = typeof m.bank === 'string' && BANKS.includes(m.bank) ? (m.bank as PaymentMethodView['bank']) : null;
    return { id: m.id as string, name: m.name as string, type: m.type as string, bank, fee: m.fee as string, fixed_fee: fixed, total: m.total as string };
  });
}

function parseTime(v: unknown): string | null {
  return typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? v : null;
}

/** Validates `{order, server_time}` (the session answer, and an SSE payload in that form). */
export function parseOrderAnswer(value: unknown): OrderAnswer {
  const v = value as { order?: unknown; server_time?: unknown } | null;
  try {
    return { order: parseOrderView(v?.order), serverTime: parseTime(v?.server_time) };
  } catch (e) {
    throw invalid((e as Error).message);
  }
}

/** An SSE `order` payload: a bare OrderView, or `{order, server_time}`. */
export function parseOrderEvent(data: string): OrderAnswer {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw invalid('event data is not JSON');
  }
  if (value && typeof value === 'object' && 'order' in value) return parseOrderAnswer(value);
  try {
    return { order: parseOrderView(value), serverTime: null };
  } catch (e) {
    throw invalid((e as Error).message);
  }
}

/** A stable code for an HTTP status without a usable error body. */
function codeForStatus(status: number): ErrorInfo {
  if (status === 404) return { code: 'not_found', message: 'not found', retryable: false };
  if (status === 408) return { code: 'timeout', message: 'timeout', retryable: true };
  if (status === 429) return { code: 'rate_limited', message: 'too many requests', retryable: true };
  if (status >= 500) return { code: 'provider_unavailable', message: `HTTP ${status}`, retryable: true };
  return { code: 'bad_request', message: `HTTP ${status}`, retryable: false };
}

export function createApi(endpoint: string, options: ApiOptions = {}): Api {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const createTimeoutMs = options.createTimeoutMs ?? 65_000;

  async function request(path: string, init: RequestInit, timeout: number, signal?: AbortSignal): Promise<unknown> {
    const doFetch = options.fetch ?? globalThis.fetch;
    const ctrl = new AbortController();
    const onAbort = () => ctrl.abort();
    signal?.addEventListener('abort', onAbort);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ctrl.abort();
    }, timeout);
    let res: Response;
    let text: string;
    try {
      if (signal?.aborted) throw new ApiError('aborted', 'aborted', true);
      res = await doFetch(endpoint + path, { ...init, signal: ctrl.signal, credentials: 'same-origin' });
      text = await res.text();
    } catch (e) {
      if (e instanceof ApiError) throw e;
      if (signal?.aborted) throw new ApiError('aborted', 'aborted', true);
      if (timedOut) throw new ApiError('timeout', 'the token endpoint did not answer in time', true);
      throw new ApiError('network', e instanceof Error ? e.message : 'network error', true);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      if (res.ok) throw invalid('the body is not JSON');
    }
    if (!res.ok) {
      const err = parseErrorBody(body) ?? codeForStatus(res.status);
      throw new ApiError(err.code, err.message, err.retryable, res.status);
    }
    return body;
  }

  const sessionPath = (s: string) => `/sessions/${encodeURIComponent(s)}`;

  return {
    async methods(orderRef, signal) {
      return parseMethods(await request(`/methods?order_ref=${encodeURIComponent(orderRef)}`, { method: 'GET' }, timeoutMs, signal));
    },
    async create(body, key, signal) {
      const answer = await request(
        '/sessions',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', [PROTOCOL_HEADER]: '1', 'Idempotency-Key': key },
          body: JSON.stringify(body),
        },
        createTimeoutMs,
        signal,
      );
      const session = (answer as { session?: unknown } | null)?.session;
      if (typeof session !== 'string' || session === '') throw invalid('session should be a string');
      return { session, ...parseOrderAnswer(answer) };
    },
    async session(session, refresh, signal) {
      const q = refresh ? '?refresh=1' : '';
      return parseOrderAnswer(await request(sessionPath(session) + q, { method: 'GET' }, timeoutMs, signal));
    },
    eventsUrl: (session) => `${endpoint}${sessionPath(session)}/events`,
  };
}

/** A fresh idempotency key (works outside secure contexts, where `crypto.randomUUID` is missing). */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
