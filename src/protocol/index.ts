/**
 * The widget protocol (DESIGN.md, "Widget protocol"): the HTTP contract between `<paydesk-checkout>`
 * and a token endpoint (the merchant's `paydesk/server`, or the sandbox's hosted form).
 *
 * Types plus a small hand-written validator, so the widget can check what a server sends without
 * pulling a schema library into the browser bundle.
 */

import type { UnknownValue } from '../provider/facts.js';

export type OrderViewStatus = 'pending' | 'paid' | 'expired' | 'cancelled';
export const FINAL_STATUSES: readonly OrderViewStatus[] = ['paid', 'expired', 'cancelled'];
export type RequisitesKind = 'card' | 'phone' | 'account' | 'link';
export type BankCode = 'sberbank' | 'tinkoff' | 'vtb' | 'alfabank';
export type IntegrationMode = 'h2h' | 'order_with_form' | 'form';
export const INTEGRATION_MODES: readonly IntegrationMode[] = ['h2h', 'order_with_form', 'form'];

export interface OrderView {
  id: string;
  client_order_id: string;
  status: OrderViewStatus;
  /** The provider's own status string (e.g. `Unpaid`, `Completed`, `CanceledByTimeout`). */
  provider_status: string;
  /** What the shopper must send, exactly (adjusted when `unique_amount` moved it). */
  amount: string;
  currency: string;
  fee: string;
  method: { id: string; name: string; type: string } | null;
  bank: BankCode | null;
  requisites: Requisites | null;
  payment_link: string | null;
  form_url: string | null;
  created_at: string;
  expires_at: string;
  redirect_url: string | null;
  support_url: string | null;
  return_url: string | null;
  /** The amount the merchant asked for, when `unique_amount` changed it (optional extension). */
  requested_amount?: string | null;
  /**
   * The shopper's appeal ("I paid, here is my receipt") at the provider, once one exists. `closed`
   * says the provider's operators decided it; whether the money arrived shows in `status`/`late`.
   * A server that does not know disputes sends null (a missing field reads null).
   */
  dispute: DisputeView | null;
  /** True when the payment was recognised after the order had ended expired or cancelled. */
  late: boolean;
}

/** Where the shopper sends the money. */
export interface Requisites {
  holder_name: string;
  holder_account: string;
  kind: RequisitesKind;
  /**
   * The recipient's bank as a shopper picks it in a bank app (DESIGN.md, "Requisites a shopper can act
   * on"; for SBP by phone number it is required to pay), from the provider's method or the NSPK member
   * id of the payment link; null when unknown. `paydesk/server` always sends it; a missing field
   * (an older server) reads null.
   */
  bank_name?: string | null;
}

export type DisputeStatus = 'open' | 'closed';
export const DISPUTE_STATUSES: readonly DisputeStatus[] = ['open', 'closed'];

/**
 * What a processed dispute proved: `confirmed` — the provider's record of the money was found (the
 * order is then paid); `unconfirmed` — processed and, after the server's grace, no record of the money
 * exists (final for the shopper: contact support). Null while it is being checked.
 */
export type DisputeOutcome = 'confirmed' | 'unconfirmed';
export const DISPUTE_OUTCOMES: readonly DisputeOutcome[] = ['confirmed', 'unconfirmed'];

export interface DisputeView {
  id: string;
  status: DisputeStatus;
  created_at: string;
  /** Null until decided (a server that does not say reads null). */
  outcome: DisputeOutcome | null;
}

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

/** Header every browser POST carries (a cross-site form cannot set it). */
export const PROTOCOL_HEADER = 'X-Paydesk';
/** Server-sent event name carrying an OrderView. */
export const ORDER_EVENT = 'order';

// ---------------------------------------------------------------------------------------------
// Validation of server answers (used by the widget; the server builds these itself)

export class ProtocolShapeError extends Error {
  readonly path: string;
  constructor(path: string, expected: string) {
    super(`invalid answer from the token endpoint: ${path} should be ${expected}`);
    this.name = 'ProtocolShapeError';
    this.path = path;
  }
}

type Json = Record<string, unknown>;

const STATUSES: readonly OrderViewStatus[] = ['pending', 'paid', 'expired', 'cancelled'];
const KINDS: readonly RequisitesKind[] = ['card', 'phone', 'account', 'link'];
const BANK_CODES: readonly BankCode[] = ['sberbank', 'tinkoff', 'vtb', 'alfabank'];
/** A non-negative decimal string such as `1500` or `1500.50`: every amount of the protocol. */
export const DECIMAL = /^\d+(\.\d+)?$/;
const decimal = (s: string) => DECIMAL.test(s);
/** A bank this widget does not know reads null rather than refusing the answer. */
const bankCode = (v: unknown): BankCode | null => (BANK_CODES.includes(v as BankCode) ? (v as BankCode) : null);

/** The object at `path`, or a throw. */
function obj(v: unknown, path: string): Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ProtocolShapeError(path, 'an object');
  return v as Json;
}

/**
 * The string fields `keys` (space-separated) of the object at `path`; with `nullable`, null or a
 * missing field reads null. `ok` adds a check of the text (and names what was expected).
 */
function strings(v: unknown, path: string, keys: string, nullable = false, ok?: (s: string) => boolean, expected = 'a string'): Json {
  const o = obj(v, path);
  const out: Json = {};
  for (const key of keys.split(' ')) {
    const s = o[key];
    if (nullable && s == null) out[key] = null;
    else if (typeof s === 'string' && (!ok || ok(s))) out[key] = s;
    else throw new ProtocolShapeError(`${path}.${key}`, nullable ? `${expected} or null` : expected);
  }
  return out;
}

/** The last two arguments of {@link strings} for a string that must be one of `list`. */
const oneOf = (list: readonly string[]) => [(s: string) => list.includes(s), `one of ${list.join(', ')}`] as const;

/** Checks an OrderView from a server; throws {@link ProtocolShapeError} naming the path. */
export function parseOrderView(value: unknown, path = 'order'): OrderView {
  const o = obj(value, path);
  const order = {
    ...strings(o, path, 'amount fee', false, decimal, 'a decimal string'),
    ...strings(o, path, 'expires_at', false, (s) => !Number.isNaN(Date.parse(s)), 'an ISO date-time'),
    ...strings(o, path, 'status', false, ...oneOf(STATUSES)),
    ...strings(o, path, 'id client_order_id provider_status currency created_at'),
    ...strings(o, path, 'bank payment_link form_url redirect_url support_url return_url requested_amount', true),
    method: o.method == null ? null : strings(o.method, `${path}.method`, 'id name type'),
    requisites:
      o.requisites == null
        ? null
        : {
            ...strings(o.requisites, `${path}.requisites`, 'holder_name holder_account'),
            ...strings(o.requisites, `${path}.requisites`, 'kind', false, ...oneOf(KINDS)),
            ...strings(o.requisites, `${path}.requisites`, 'bank_name', true),
          },
    dispute: o.dispute == null ? null : parseDispute(o.dispute, `${path}.dispute`),
    late: o.late === true,
  } as unknown as OrderView;
  order.bank = bankCode(order.bank);
  return order;
}

function parseDispute(value: unknown, path: string): DisputeView {
  // `outcome` is passed on as sent (checking it here would cost the element's own module bytes it
  // does not have): the views compare it with the known values only, so an unknown one (a newer
  // server) or none (an older one) reads as "still being checked".
  return {
    ...(value as Json),
    ...strings(value, path, 'id', false, (s) => s !== '', 'a non-empty string'),
    ...strings(value, path, 'status', false, ...oneOf(DISPUTE_STATUSES)),
    ...strings(value, path, 'created_at', false, (s) => !Number.isNaN(Date.parse(s)), 'an ISO date-time'),
  } as unknown as DisputeView;
}

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
export function parseErrorBody(value: unknown): ProtocolErrorBody['error'] | null {
  if (typeof value !== 'object' || value === null) return null;
  const e = (value as Json).error;
  if (typeof e !== 'object' || e === null) return null;
  const { code, message, retryable } = e as Json;
  if (typeof code !== 'string' || typeof message !== 'string') return null;
  return { code: code as ProtocolErrorCodeValue, message, retryable: retryable === true };
}

/** True for an OrderView status that will not change any more. */
export function isFinalStatus(status: OrderViewStatus): boolean {
  return status !== 'pending';
}
