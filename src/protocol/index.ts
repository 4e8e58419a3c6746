/**
 * The widget protocol (DESIGN.md, "Widget protocol"): the HTTP contract between `<paydesk-checkout>`
 * and a token endpoint (the merchant's `paydesk/server`, or the sandbox's hosted form).
 *
 * Types plus a small hand-written validator, so the widget can check what a server sends without
 * pulling a schema library into the browser bundle.
 */

import type { UnknownValue } from '../provider/facts.js';
import { bankCode, decimal, parseErrorBody as errorBody, ProtocolShapeError, strings, type Json } from './answers.js';

// The order as the token endpoint answers it: answers.ts, with its checks.
export type { OrderViewStatus, RequisitesKind, BankCode, IntegrationMode, OrderView, Requisites, DisputeStatus, DisputeOutcome, DisputeView } from './answers.js';
import type { BankCode, DisputeOutcome, IntegrationMode, OrderView, OrderViewStatus } from './answers.js';
export const FINAL_STATUSES: readonly OrderViewStatus[] = ['paid', 'expired', 'cancelled'];
export const DISPUTE_OUTCOMES: readonly DisputeOutcome[] = ['confirmed', 'unconfirmed'];

export interface PaymentMethodView {
  id: string;
  name: string;
  type: string;
  bank: BankCode | null;
  /** Fee the shopper pays on top of the amount (decimal string). */
  fee: string;
  fixed_fee: string | null;
  /** amount + fee. */
  total: string;
}

export interface MethodsResponse {
  methods: PaymentMethodView[];
  /** The amount being paid, when the server chooses to say it (optional extension). */
  amount?: string;
  currency?: string;
}

export interface CreateSessionRequest {
  order_ref: string;
  payment_method_id?: string;
  method_type?: string;
  nspk_code?: string;
  customer_bank?: string;
  button_name?: string;
  mode?: IntegrationMode;
}

export interface CreateSessionResponse {
  session: string;
  order: OrderView;
  server_time: string;
}

export interface SessionResponse {
  order: OrderView;
  server_time: string;
}

/**
 * `POST {endpoint}/sessions/S/dispute` (DESIGN.md): `multipart/form-data` with 1 to
 * {@link DISPUTE_MAX_FILES} receipts in the field `files` and an optional `comment`; answers
 * `201` {@link SessionResponse} with `order.dispute` set.
 */
export const DISPUTE_FILES_FIELD = 'files';
export const DISPUTE_COMMENT_FIELD = 'comment';
export const DISPUTE_MAX_FILES = 5;
export const DISPUTE_MAX_FILE_BYTES = 10 * 1024 * 1024;
export const DISPUTE_MAX_TOTAL_BYTES = 20 * 1024 * 1024;
/** Longest `comment`, in characters. */
export const DISPUTE_MAX_COMMENT = 1000;
/** Receipt types a dispute accepts (checked by content on the server, by type and name in the widget). */
export const DISPUTE_FILE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'application/pdf'] as const;
export type DisputeFileType = (typeof DISPUTE_FILE_TYPES)[number];

/**
 * Every error code a token endpoint answers with (the sandbox's hosted form included), so a widget
 * can have a sentence for each: the list is closed, and the widget's language tables are typed by it.
 * A code outside it (a newer server) reads as `internal_error`'s kind of failure in the widget.
 */
export const PROTOCOL_ERROR_CODES = [
  // the request itself
  'bad_request',
  'validation_failed',
  'unsupported_media_type',
  'missing_protocol_header',
  'forbidden_origin',
  'payload_too_large',
  'method_not_allowed',
  'not_found',
  'rate_limited',
  // orders and sessions
  'order_not_found',
  'session_not_found',
  'session_invalid',
  'session_expired',
  'idempotency_conflict',
  'idempotency_in_progress',
  'method_unavailable',
  // the provider's refusals (one per row of its error tables)
  'no_payment_method',
  'payment_method_not_found',
  'amount_out_of_limits',
  'customer_blacklisted',
  'no_traders',
  'form_sell_not_allowed',
  'button_not_enabled',
  'form_not_activated',
  'insufficient_funds',
  'customer_account_required',
  // disputes (receipt upload)
  'dispute_open',
  'dispute_not_allowed',
  'unsupported_file',
  // the provider or the server failing
  'unauthorized',
  'provider_unavailable',
  'network',
  'timeout',
  'invalid_response',
  'internal_error',
] as const;

/** Stable error codes of the token endpoint. Provider errors map onto the provider-client codes. */
export type ProtocolErrorCode = (typeof PROTOCOL_ERROR_CODES)[number];

export function isProtocolErrorCode(code: string): code is ProtocolErrorCode {
  return (PROTOCOL_ERROR_CODES as readonly string[]).includes(code);
}

/**
 * An error code as the element reads it from the token endpoint: a known code, or (a newer server's)
 * {@link UnknownValue}, kept as its string and typed apart so a typo in a comparison does not compile.
 */
export type ProtocolErrorCodeValue = ProtocolErrorCode | UnknownValue;

/**
 * The `code` of the element's `paydesk-error` event: a token endpoint code, `config` (the element's
 * attributes cannot work), `aborted` (a request the element itself cancelled), or an unknown one.
 */
export type PaydeskErrorCode =
  | ProtocolErrorCodeValue
  | 'config'
  | 'aborted'
  /** An answer without a protocol error body, by its HTTP status. */
  | 'not_found'
  | 'payload_too_large'
  | 'unsupported_file'
  | 'bad_request'
  | 'provider_unavailable'
  /** A chunk of the CDN files did not match its digest and was not run (DESIGN.md, "Code integrity"). */
  | 'integrity'
  /** Anything else thrown. */
  | 'default';

export interface ProtocolErrorBody {
  /** `code` is one of {@link PROTOCOL_ERROR_CODES}; a widget must still survive another string. */
  error: { code: ProtocolErrorCodeValue; message: string; retryable: boolean };
}

/** Server-sent event name carrying an OrderView. */
export const ORDER_EVENT = 'order';

// ---------------------------------------------------------------------------------------------
// Validation of server answers (used by the widget; the server builds these itself). The checks
// of the element's first request (the order, an error body) live in answers.ts: the CDN entry
// carries that module and not this one.

export {
  DECIMAL,
  DISPUTE_STATUSES,
  INTEGRATION_MODES,
  parseOrderView,
  PROTOCOL_HEADER,
  ProtocolShapeError,
} from './answers.js';

/** Checks the `methods` of a `GET /methods` answer; throws {@link ProtocolShapeError} naming the path. */
export function parsePaymentMethods(value: unknown): PaymentMethodView[] {
  const list = (value as { methods?: unknown } | null)?.methods;
  if (!Array.isArray(list)) throw new ProtocolShapeError('methods', 'an array');
  return list.map((m: unknown, i) => {
    const path = `methods[${i}]`;
    return {
      ...strings(m, path, 'id name type', false, (s) => s !== '', 'a non-empty string'),
      ...strings(m, path, 'fee total', false, decimal, 'a decimal string'),
      ...strings(m, path, 'fixed_fee', true, decimal, 'a decimal string'),
      bank: bankCode((m as Json).bank),
    } as unknown as PaymentMethodView;
  });
}

/** Checks a `{ error: { code, message, retryable } }` body; returns null when it is not one. */
export const parseErrorBody = (value: unknown): ProtocolErrorBody['error'] | null => errorBody<ProtocolErrorCodeValue>(value);

/** True for an OrderView status that will not change any more. */
export function isFinalStatus(status: OrderViewStatus): boolean {
  return status !== 'pending';
}
