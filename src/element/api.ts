/**
 * The widget protocol client (DESIGN.md, "Widget protocol"): the calls the element makes to the
 * token endpoint, with every answer validated. Failures become {@link ApiError} with a stable code.
 */
import {
  DECIMAL,
  parseErrorBody,
  parseOrderView,
  parsePaymentMethods,
  PROTOCOL_HEADER,
  type CreateSessionRequest,
  type OrderView,
  type PaydeskErrorCode,
  type PaymentMethodView,
} from '../protocol/index.js';

/** Error codes that mean the session itself is gone (lost by the server, or no longer valid). */
export const GONE_CODES: readonly string[] = ['session_not_found', 'session_invalid', 'session_expired'];

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

/** Any thrown value as an {@link ErrorInfo}. */
export function toErrorInfo(error: unknown): ErrorInfo {
  return error instanceof ApiError
    ? { code: error.code, message: error.message, retryable: error.retryable }
    : { code: 'default', message: error instanceof Error ? error.message : String(error), retryable: true };
}

export interface OrderAnswer {
  order: OrderView;
  serverTime: string | null;
}

/** `GET /methods`: the methods, and the amount to pay when the server says it. */
export interface MethodsAnswer {
  methods: PaymentMethodView[];
  amount: string | null;
  currency: string | null;
}

export interface Api {
  methods(orderRef: string, signal?: AbortSignal): Promise<MethodsAnswer>;
  /** `Idempotency-Key` is the same on every retry of one attempt to create. */
  create(body: CreateSessionRequest, idempotencyKey: string, signal?: AbortSignal): Promise<OrderAnswer & { session: string }>;
  session(session: string, refresh: boolean, signal?: AbortSignal): Promise<OrderAnswer>;
  eventsUrl(session: string): string;
}

export interface ApiOptions {
  fetch?: typeof fetch | undefined;
  /** Per request; creating a session waits for the requisites search, so it gets longer. */
  timeoutMs?: number;
  createTimeoutMs?: number;
}

const invalid = (what: string): ApiError => new ApiError('invalid_response', `invalid answer from the token endpoint: ${what}`, true);

/** Runs a check of protocol/index.ts; its failure becomes an `invalid_response` error. */
function checked<T>(check: () => T): T {
  try {
    return check();
  } catch (e) {
    throw new ApiError('invalid_response', (e as Error).message, true);
  }
}

/** Validates a `GET /methods` answer: the `methods` array, and `amount`/`currency` when well-formed. */
export function parseMethods(value: unknown): MethodsAnswer {
  const v = value as { amount?: unknown; currency?: unknown } | null;
  return {
    methods: checked(() => parsePaymentMethods(value)),
    amount: typeof v?.amount === 'string' && DECIMAL.test(v.amount) ? v.amount : null,
    currency: typeof v?.currency === 'string' && /^[A-Z]{3}$/.test(v.currency) ? v.currency : null,
  };
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
  return parseErrorBody(body) ?? { code, message: `HTTP ${status}`, retryable };
}

/** The path of a session under the endpoint. */
export const sessionPath = (session: string) => `/sessions/${encodeURIComponent(session)}`;

export function createApi(endpoint: string, options: ApiOptions = {}): Api {
  async function request(path: string, signal: AbortSignal | undefined, init?: RequestInit, timeout = options.timeoutMs ?? 15_000): Promise<unknown> {
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
  }

  return {
    methods: async (orderRef, signal) => parseMethods(await request(`/methods?order_ref=${encodeURIComponent(orderRef)}`, signal)),
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
    eventsUrl: (session) => `${endpoint}${sessionPath(session)}/events`,
  };
}

/** A fresh idempotency key (works outside secure contexts, where `crypto.randomUUID` is missing). */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
