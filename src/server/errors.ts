/**
 * Errors of the token endpoint: one class thrown anywhere in the handler and turned into the
 * protocol's `{"error": {"code", "message", "retryable"}}` body in one place, plus the mapping of
 * every provider-client error code onto a stable protocol code and a message a shopper can read.
 */
import type { ProtocolErrorBody, ProtocolErrorCode } from '../protocol/index.js';
import type { CreateOutcome, ProviderErrorCode } from '../provider/types.js';

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
    return { error: { code: this.code, message: this.message, retryable: this.retryable } };
  }
}

/** A request with an Idempotency-Key (or for a client order) whose first attempt is still running. */
export function idempotencyInProgress(): CheckoutError {
  return new CheckoutError(409, 'idempotency_in_progress', 'This payment is still being prepared. Please try again in a moment.', {
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

const PROVIDER_CODES: ReadonlySet<string> = new Set<ProviderErrorCode>([
  'no_payment_method',
  'order_not_found',
  'customer_account_required',
  'insufficient_funds',
  'payment_method_not_found',
  'amount_out_of_limits',
  'customer_blacklisted',
  'rate_limited',
  'no_traders',
  'form_sell_not_allowed',
  'button_not_enabled',
  'form_not_activated',
  'unauthorized',
  'network',
  'timeout',
  'invalid_response',
  'invalid_request',
  'provider_error',
]);

export function isProviderError(err: unknown): err is ProviderErrorLike {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { code?: unknown }).code === 'string' &&
    PROVIDER_CODES.has((err as { code: string }).code) &&
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

/** Every provider-client code → HTTP status, stable protocol code and a message for the shopper. */
export const PROVIDER_ERROR_MAP: Readonly<Record<ProviderErrorCode, Mapping>> = {
  no_payment_method: { status: 400, code: 'no_payment_method', message: 'Choose a payment method.', retryable: false },
  order_not_found: {
    status: 404,
    code: 'order_not_found',
    message: 'The payment provider does not know this order.',
    retryable: false,
  },
  payment_method_not_found: {
    status: 409,
    code: 'payment_method_not_found',
    message: 'This payment method is not available. Please choose another one.',
    retryable: false,
  },
  amount_out_of_limits: {
    status: 409,
    code: 'amount_out_of_limits',
    message: 'This payment method does not accept this amount. Please choose another one.',
    retryable: false,
  },
  customer_blacklisted: {
    status: 409,
    code: 'customer_blacklisted',
    message: 'This payment cannot be accepted. Please choose another method or contact support.',
    retryable: false,
  },
  rate_limited: {
    status: 429,
    code: 'rate_limited',
    message: 'Too many payment attempts. Please wait a minute and try again.',
    retryable: true,
  },
  no_traders: {
    status: 503,
    code: 'no_traders',
    message: 'No payment details are available right now. Please try again in a few minutes or choose another method.',
    retryable: true,
  },
  button_not_enabled: {
    status: 409,
    code: 'button_not_enabled',
    message: 'Payment with this bank is not available. Please choose another bank or method.',
    retryable: false,
  },
  form_not_activated: {
    status: 409,
    code: 'form_not_activated',
    message: 'The payment page is not available for this shop. Please choose a payment method here.',
    retryable: false,
  },
  form_sell_not_allowed: {
    status: 502,
    code: 'form_sell_not_allowed',
    message: 'The payment could not be started. Please contact support.',
    retryable: false,
  },
  insufficient_funds: {
    status: 502,
    code: 'insufficient_funds',
    message: 'The payment could not be started. Please contact support.',
    retryable: false,
  },
  customer_account_required: {
    status: 502,
    code: 'customer_account_required',
    message: 'The payment could not be started. Please contact support.',
    retryable: false,
  },
  unauthorized: {
    status: 503,
    code: 'provider_unavailable',
    message: 'Payments are temporarily unavailable. Please try again later.',
    retryable: false,
  },
  network: {
    status: 503,
    code: 'provider_unavailable',
    message: 'The payment service cannot be reached. Please try again.',
    retryable: true,
  },
  timeout: {
    status: 504,
    code: 'timeout',
    message: 'The payment service is taking too long to answer. Please try again.',
    retryable: true,
  },
  invalid_response: {
    status: 502,
    code: 'invalid_response',
    message: 'The payment service answered unexpectedly. Please try again.',
    retryable: true,
  },
  invalid_request: {
    status: 500,
    code: 'internal_error',
    message: 'The payment could not be prepared. Please contact support.',
    retryable: false,
  },
  provider_error: {
    status: 502,
    code: 'provider_unavailable',
    message: 'The payment service is temporarily unavailable. Please try again.',
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
  new CheckoutError(500, 'internal_error', 'Something went wrong on our side. Please try again.', {
    retryable: true,
    cause,
  });
