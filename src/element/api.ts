/**
 * The widget protocol client (DESIGN.md, "Widget protocol"): the calls the element makes to the
 * token endpoint, with every answer validated. Failures become {@link ApiError} with a stable code.
 * The session requests, which the CDN entry sends before the element's code arrives, and the errors
 * are endpoint.ts's (re-exported here); this module adds the methods and the live status' URL.
 */
import { DECIMAL, parsePaymentMethods, type PaymentMethodView } from '../protocol/index.js';
import { ApiError, checked, requester, sessionPath, sessionsApi, type ApiOptions, type ErrorInfo, type SessionsApi } from './endpoint.js';

export {
  ApiError,
  errorOfAnswer,
  newIdempotencyKey,
  parseOrderAnswer,
  sessionPath,
  type ApiOptions,
  type ErrorInfo,
  type OrderAnswer,
  type SessionsApi,
} from './endpoint.js';

/** Error codes that mean the session itself is gone (lost by the server, or no longer valid). */
export const GONE_CODES: readonly string[] = ['session_not_found', 'session_invalid', 'session_expired'];

/** Any thrown value as an {@link ErrorInfo}. */
export function toErrorInfo(error: unknown): ErrorInfo {
  return error instanceof ApiError
    ? { code: error.code, message: error.message, retryable: error.retryable }
    : { code: 'default', message: error instanceof Error ? error.message : String(error), retryable: true };
}

/** `GET /methods`: the methods, and the amount to pay when the server says it. */
export interface MethodsAnswer {
  methods: PaymentMethodView[];
  amount: string | null;
  currency: string | null;
}

export interface Api extends SessionsApi {
  methods(orderRef: string, signal?: AbortSignal): Promise<MethodsAnswer>;
  eventsUrl(session: string): string;
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

export function createApi(endpoint: string, options: ApiOptions = {}): Api {
  const request = requester(endpoint, options);
  return {
    ...sessionsApi(endpoint, options, request),
    methods: async (orderRef, signal) => parseMethods(await request(`/methods?order_ref=${encodeURIComponent(orderRef)}`, signal)),
    eventsUrl: (session) => `${endpoint}${sessionPath(session)}/events`,
  };
}
