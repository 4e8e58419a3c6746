/**
 * Errors of the token endpoint: one class thrown anywhere in the handler and turned into the
 * protocol's `{"error": {"code", "message", "retryable"}}` body (built by src/protocol/errors.ts),
 * plus the mapping of every provider-client error code onto a stable protocol code.
 *
 * Every `message` here is for developers (logs, the element's `paydesk-error` event): it says what
 * happened in the integrator's terms. The shopper never sees it: the element shows its own sentence
 * for the `code`, in the shopper's language (src/element/i18n).
 */
import type { ProtocolErrorBody, ProtocolErrorCode } from '../protocol/index.js';
import { protocolErrorBody } from '../protocol/errors.js';
import type { CreateOutcome, ProviderErrorCode } from '../provider/index.js';

export class CheckoutError extends Error {
  readonly status: number;
  readonly code: ProtocolErrorCode;
  readonly retryable: boolean;
  readonly headers: Record<string, string>;
  constructor(
    status: number,
    code: ProtocolErrorCode,
    message: string,
    options: { retryable?: boolean; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CheckoutError';
    this.status = status;
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.headers = options.headers ?? {};
  }

  toBody(): ProtocolErrorBody {
    return protocolErrorBody(this.code, this.message, this.retryable);
  }
}

/** A request with an Idempotency-Key (or for a client order) whose first attempt is still running. */
export function idempotencyInProgress(): CheckoutError {
  return new CheckoutError(409, 'idempotency_in_progress', 'The first request with this Idempotency-Key (or for this order) is still running; retry after Retry-After.', {
    retryable: true,
    headers: { 'retry-after': '1' },
  });
}

/** The fields of a provider-client error the server relies on (duck-typed, so two copies of the package still match). */
export interface ProviderErrorLike {
  code: ProviderErrorCode;
  status?: number | null | undefined;
  message: string;
  retryable?: boolean;
  retryAfterMs?: number | undefined;
  /** For a create: whether the client knows it made the order, made nothing, or cannot tell. */
  outcome?: CreateOutcome | undefined;
}


export function isProviderError(err: unknown): err is ProviderErrorLike {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { code?: unknown }).code === 'string' &&
    Object.hasOwn(PROVIDER_ERROR_MAP, (err as { code: string }).code) &&
    (err as { name?: unknown }).name === 'ProviderError'
  );
}

/**
 * True when a failed create may nevertheless have created something at the provider (the request
 * may have arrived): network errors after sending, timeouts, 5xx without a known message, garbage.
 * Such a failure is resolved by looking the order up by client_order_id before creating again.
 */
export function isAmbiguousProviderFailure(err: unknown): boolean {
  if (!isProviderError(err)) return true; // an unknown throw: assume the worst
  // What the client knows of a create comes first: a connection that never opened made nothing.
  if (err.outcome === 'not_created') return false;
  if (err.outcome === 'unknown') return true;
  switch (err.code) {
    case 'network':
    case 'timeout':
    case 'invalid_response':
      return true;
    case 'provider_error':
      return err.status === undefined || err.status === null || err.status >= 500;
    default:
      return false;
  }
}

interface Mapping {
  status: number;
  code: ProtocolErrorCode;
  message: string;
  retryable: boolean;
}

/**
 * Every provider-client code (the map is typed by `ProviderErrorCode`, so a new code fails the type
 * check until it is mapped) → HTTP status, stable protocol code and a message for developers.
 */
export const PROVIDER_ERROR_MAP: Readonly<Record<ProviderErrorCode, Mapping>> = {
  no_payment_method: { status: 400, code: 'no_payment_method', message: 'The provider refused the create: no payment method was given (send payment_method_id, or use mode "form").', retryable: false },
  order_not_found: {
    status: 404,
    code: 'order_not_found',
    message: 'The provider has no order with this id.',
    retryable: false,
  },
  payment_method_not_found: {
    status: 409,
    code: 'payment_method_not_found',
    message: 'The provider does not know this payment method, or it is not active on the terminal.',
    retryable: false,
  },
  amount_out_of_limits: {
    status: 409,
    code: 'amount_out_of_limits',
    message: 'The amount is outside the limits of this payment method at the provider.',
    retryable: false,
  },
  customer_blacklisted: {
    status: 409,
    code: 'customer_blacklisted',
    message: 'The provider refused the customer (customer_blacklisted).',
    retryable: false,
  },
  rate_limited: {
    status: 429,
    code: 'rate_limited',
    message: 'The provider rate-limited this terminal or customer (rate limit or anti-fraud pending limit); retry after Retry-After.',
    retryable: true,
  },
  no_traders: {
    status: 503,
    code: 'no_traders',
    message: 'The provider has no requisites for this method right now (no_traders); retryable.',
    retryable: true,
  },
  button_not_enabled: {
    status: 409,
    code: 'button_not_enabled',
    message: 'The provider refused the button_name: that bank button is not enabled on the terminal.',
    retryable: false,
  },
  form_not_activated: {
    status: 409,
    code: 'form_not_activated',
    message: 'The provider\'s hosted form is not activated on this terminal (form_not_activated): use mode h2h.',
    retryable: false,
  },
  form_sell_not_allowed: {
    status: 502,
    code: 'form_sell_not_allowed',
    message: 'The provider refused a Sell order on its hosted form (form_sell_not_allowed).',
    retryable: false,
  },
  insufficient_funds: {
    status: 502,
    code: 'insufficient_funds',
    message: 'The provider refused the order: the terminal\'s balance is too low (insufficient_funds).',
    retryable: false,
  },
  customer_account_required: {
    status: 502,
    code: 'customer_account_required',
    message: 'The provider requires the customer\'s account for this method (customer_account_required).',
    retryable: false,
  },
  unauthorized: {
    status: 503,
    code: 'provider_unavailable',
    message: 'The provider refused the API key (401): check the server\'s provider key.',
    retryable: false,
  },
  network: {
    status: 503,
    code: 'provider_unavailable',
    message: 'The provider could not be reached (network error).',
    retryable: true,
  },
  timeout: {
    status: 504,
    code: 'timeout',
    message: 'The provider did not answer in time.',
    retryable: true,
  },
  invalid_response: {
    status: 502,
    code: 'invalid_response',
    message: 'The provider sent an answer that does not match its documented shape.',
    retryable: true,
  },
  invalid_request: {
    status: 500,
    code: 'internal_error',
    message: 'The provider client refused the request before sending it (invalid_request): see the server log for the field.',
    retryable: false,
  },
  provider_error: {
    status: 502,
    code: 'provider_unavailable',
    message: 'The provider answered with an unexpected error status.',
    retryable: true,
  },
};

/** Turns any provider-client failure into the protocol error the widget sees. Never echoes the provider's text. */
export function fromProviderError(err: unknown): CheckoutError {
  if (!isProviderError(err)) {
    return new CheckoutError(503, 'provider_unavailable', PROVIDER_ERROR_MAP.network.message, {
      retryable: true,
      cause: err,
    });
  }
  const m = PROVIDER_ERROR_MAP[err.code];
  let retryable = m.retryable;
  if (err.code === 'provider_error' && typeof err.status === 'number' && err.status < 500 && err.status !== 429) {
    retryable = false;
  }
  const headers: Record<string, string> = {};
  if (m.status === 429 || m.status === 503) {
    const after = err.retryAfterMs !== undefined ? err.retryAfterMs / 1000 : m.status === 429 ? 60 : 5;
    headers['retry-after'] = String(Math.max(1, Math.ceil(after)));
  }
  return new CheckoutError(m.status, m.code, m.message, { retryable, headers, cause: err });
}

export const internalError = (cause?: unknown) =>
  new CheckoutError(500, 'internal_error', 'The server failed to handle this request; see its log.', {
    retryable: true,
    cause,
  });
