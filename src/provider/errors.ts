/**
 * Typed errors of the provider client, and the mapping of provider answers to stable codes.
 *
 * Mapping order (provider-api.md "Errors", provider-notes.md "Errors"):
 *   1. the exact message text (PROVIDER_MESSAGES in facts.ts);
 *   2. status + endpoint, with the message content as a tie-breaker where one status has two rows;
 *   3. generic: 401/403 unauthorized, 429 rate_limited, 5xx provider_error (retryable), else provider_error.
 */
import { PROVIDER_MESSAGES } from './facts.js';
import type { FormSession } from './schemas.js';
import type { CreateOutcome, ProviderErrorCode } from './types.js';

/** Which endpoint answered; the document's error tables differ per creation endpoint. */
export type EndpointKind = 'order_create' | 'form_create' | 'dispute_create' | 'order_read' | 'read';

/**
 * What a {@link ProviderError} may tell beyond its code and message: each field is present only when
 * it is known. The one list of these fields: the error's properties, its init and `toJSON` follow it.
 */
export interface ProviderErrorDetails {
  /** `invalid_request`: the request field at fault, e.g. `order_data.button_name`. */
  field?: string;
  /** `invalid_response`: the path of the unexpected value, e.g. `orders.items.0.amount`. */
  path?: string;
  /** Request id from the provider (`X-Request-Id` header or `request_id` in the body), when given. */
  requestId?: string;
  /** `rate_limited`: the wait the provider asked for (Retry-After), in milliseconds. */
  retryAfterMs?: number;
  /** e.g. `POST /api/v1/order/`. */
  endpoint?: string;
  /**
   * `createForm` only: the answer of the create call was lost, but the lookup found the session it
   * created. The form exists; do not create it again. Its `form_url` is not part of a session, so
   * the client cannot rebuild the creation answer; resume with this session (see README).
   */
  formSession?: FormSession;
  /**
   * Creates only (`createOrder`, `createForm`, `createDispute`): whether the record may exist.
   * `unknown` — the answer was lost and lookups did not find it: it may still appear, so look it up
   * (or call the same create again on this client, which looks up first) before creating another;
   * `not_created` — refused; `created` — it exists.
   */
  outcome?: CreateOutcome;
}

/** What a {@link ProviderError} is made of. */
export interface ProviderErrorInit extends ProviderErrorDetails {
  code: ProviderErrorCode;
  message: string;
  status?: number | null;
  providerMessage?: string | null;
  retryable?: boolean;
  cause?: unknown;
}

/** The names of {@link ProviderErrorDetails}, in the order `toJSON` writes them (the compiler keeps it complete). */
const DETAIL_KEYS = Object.keys({
  field: true,
  path: true,
  requestId: true,
  retryAfterMs: true,
  endpoint: true,
  formSession: true,
  outcome: true,
} satisfies Record<keyof ProviderErrorDetails, true>) as (keyof ProviderErrorDetails)[];

/** The details an error (or an init) carries, only those present. */
export function detailsOf(source: ProviderErrorDetails): ProviderErrorDetails {
  const details: Record<string, unknown> = {};
  for (const key of DETAIL_KEYS) if (source[key] !== undefined) details[key] = source[key];
  return details as ProviderErrorDetails;
}

// The class's optional properties are its details (declaration merging: one list, above).
export interface ProviderError extends Readonly<ProviderErrorDetails> {}

/**
 * An error from the provider client. `code` is stable (switch on it); `message` is for people.
 * It never carries the API key: not in `message`, `providerMessage`, `cause` or any field.
 */
export class ProviderError extends Error {
  declare readonly name: 'ProviderError';
  /** Stable code: one per row of the document's error tables, plus transport and validation codes. */
  readonly code: ProviderErrorCode;
  /** HTTP status of the provider's answer; null when there was no answer (network, timeout, invalid request). */
  readonly status: number | null;
  /** The provider's own message text, when it sent one. */
  readonly providerMessage: string | null;
  /** True when the same call may succeed later (network, timeout, 429, 5xx, "no available traders"). */
  readonly retryable: boolean;

  constructor(init: ProviderErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status ?? null;
    this.providerMessage = init.providerMessage ?? null;
    this.retryable = init.retryable ?? false;
    Object.assign(this, detailsOf(init));
  }

  /** A log-friendly plain object (JSON.stringify of an Error drops `message`). */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      status: this.status,
      providerMessage: this.providerMessage,
      retryable: this.retryable,
      ...detailsOf(this),
    };
  }
}

/** The init of an error equal to `err` (all its fields and its cause), to make a changed copy. */
export function initOf(err: ProviderError): ProviderErrorInit {
  return {
    code: err.code,
    message: err.message,
    status: err.status,
    providerMessage: err.providerMessage,
    retryable: err.retryable,
    ...detailsOf(err),
    ...(err.cause !== undefined && { cause: err.cause }),
  };
}

// On the prototype (not an own enumerable field), so the stack header reads `ProviderError: …`.
Object.defineProperty(ProviderError.prototype, 'name', { value: 'ProviderError', configurable: true, writable: true });

/** True when `value` is a {@link ProviderError}, optionally with the given code. */
export function isProviderError(value: unknown, code?: ProviderErrorCode): value is ProviderError {
  return value instanceof ProviderError && (code === undefined || value.code === code);
}

/** Code and retryability of a provider answer that is not 2xx. */
export interface ErrorClassification {
  code: ProviderErrorCode;
  retryable: boolean;
}

const RETRYABLE_CODES: ReadonlySet<ProviderErrorCode> = new Set(['rate_limited', 'no_traders', 'network', 'timeout']);

/** Exact texts → codes. `user_pending_limit` is the document's 429 row, so it is `rate_limited`. */
const BY_MESSAGE: ReadonlyMap<string, ProviderErrorCode> = new Map<string, ProviderErrorCode>([
  [PROVIDER_MESSAGES.no_payment_method, 'no_payment_method'],
  [PROVIDER_MESSAGES.customer_account_required, 'customer_account_required'],
  [PROVIDER_MESSAGES.insufficient_funds, 'insufficient_funds'],
  [PROVIDER_MESSAGES.payment_method_not_found, 'payment_method_not_found'],
  [PROVIDER_MESSAGES.amount_out_of_limits, 'amount_out_of_limits'],
  [PROVIDER_MESSAGES.customer_blacklisted, 'customer_blacklisted'],
  [PROVIDER_MESSAGES.user_pending_limit, 'rate_limited'],
  [PROVIDER_MESSAGES.no_traders, 'no_traders'],
  [PROVIDER_MESSAGES.form_sell_not_allowed, 'form_sell_not_allowed'],
  [PROVIDER_MESSAGES.button_not_enabled, 'button_not_enabled'],
  [PROVIDER_MESSAGES.form_not_activated, 'form_not_activated'],
  [PROVIDER_MESSAGES.rate_limited, 'rate_limited'],
  [PROVIDER_MESSAGES.unauthorized, 'unauthorized'],
  [PROVIDER_MESSAGES.order_not_found, 'order_not_found'],
]);

const normalise = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();
const BY_MESSAGE_NORMALISED: ReadonlyMap<string, ProviderErrorCode> = new Map(
  [...BY_MESSAGE].map(([text, code]) => [normalise(text), code]),
);

/**
 * Classifies a provider answer that is not 2xx. `message` is the provider's text (may be empty).
 */
export function classifyProviderError(status: number, message: string | null, endpoint: EndpointKind): ErrorClassification {
  const text = message ?? '';
  const exact = BY_MESSAGE.get(text.trim()) ?? BY_MESSAGE_NORMALISED.get(normalise(text));
  if (exact) return withRetry(exact, status);

  const has = (re: RegExp) => re.test(text);
  if (status === 401 || status === 403) return withRetry('unauthorized', status);
  if (status === 429) return withRetry('rate_limited', status);

  if (endpoint === 'form_create') {
    if (status === 400 && has(/button/i)) return withRetry('button_not_enabled', status);
    if (status === 400 && has(/\bsell\b|order_side|\bbuy\b/i)) return withRetry('form_sell_not_allowed', status);
    if (status === 409) return withRetry('form_not_activated', status);
  }

  // One order by id, or a dispute for an order: a 404 is "no such order" (the route exists).
  if ((endpoint === 'order_read' || endpoint === 'dispute_create') && status === 404) return withRetry('order_not_found', status);

  if (endpoint === 'order_create') {
    if (status === 400 && has(/customer[ _]account/i)) return withRetry('customer_account_required', status);
    if (status === 400 && has(/payment[ _]method|method[ _]type/i)) return withRetry('no_payment_method', status);
    if (status === 402) return withRetry('insufficient_funds', status);
    if (status === 404) return withRetry('payment_method_not_found', status);
    if (status === 409 && has(/blacklist/i)) return withRetry('customer_blacklisted', status);
    if (status === 409 && has(/limit|amount/i)) return withRetry('amount_out_of_limits', status);
    if (status === 500 && has(/trader/i)) return withRetry('no_traders', status);
  }

  return withRetry('provider_error', status);
}

function withRetry(code: ProviderErrorCode, status: number): ErrorClassification {
  if (RETRYABLE_CODES.has(code)) return { code, retryable: true };
  return { code, retryable: code === 'provider_error' && status >= 500 };
}

/**
 * Pulls a message out of an error body. Seen: `{"success": false, "message": "…"}`. Tolerated:
 * `{"detail": "…"}`, `{"detail": [{"msg": "…"}]}` (FastAPI), `{"error": "…"}`, `{"error": {"message": "…"}}`,
 * and a plain-text body (cut to 300 characters).
 */
export function extractErrorMessage(body: unknown, rawText: string): string | null {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    for (const key of ['message', 'detail', 'error', 'msg']) {
      const text = messageOf(record[key]);
      if (text) return text;
    }
    return null;
  }
  if (typeof body === 'string' && body.trim()) return body.trim().slice(0, 300);
  const text = rawText.trim();
  return text ? text.slice(0, 300) : null;
}

function messageOf(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() ? value : null;
  if (Array.isArray(value)) {
    const parts = value.map(messageOf).filter((t): t is string => t !== null);
    return parts.length ? parts.join('; ') : null;
  }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const inner = messageOf(record.message) ?? messageOf(record.msg);
    if (inner === null) return null;
    const loc = Array.isArray(record.loc) ? record.loc.filter((p) => p !== 'body' && p !== 'query').join('.') : '';
    return loc ? `${loc}: ${inner}` : inner;
  }
  return null;
}

/**
 * Parses a `Retry-After` header: delta seconds or an HTTP-date. Returns milliseconds (≥ 0), or
 * undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (/^\d+\.\d+$/.test(text)) return Math.ceil(Number(text) * 1000);
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
