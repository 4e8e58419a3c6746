/**
 * The widget's checks of what a token endpoint answers to its first request (protocol/index.ts
 * re-exports them): an order (`POST /sessions`, `GET /sessions/S`), an error body, and the values
 * those checks and the element's attributes take. A module of its own so that the CDN entry, which
 * sends that request before the element's code arrives, carries these checks and nothing else of
 * the protocol (the methods' check, the receipt's limits: index.ts, with the element's later code).
 */

/** An order's status: `pending` until it is paid, expires or is cancelled. */
export type OrderViewStatus = 'pending' | 'paid' | 'expired' | 'cancelled';
export type RequisitesKind = 'card' | 'phone' | 'account' | 'link';
export type BankCode = 'sberbank' | 'tinkoff' | 'vtb' | 'alfabank';
export type IntegrationMode = 'h2h' | 'order_with_form' | 'form';

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

/**
 * What a processed dispute proved: `confirmed` — the provider's record of the money was found (the
 * order is then paid); `unconfirmed` — processed and, after the server's grace, no record of the money
 * exists (final for the shopper: contact support). Null while it is being checked.
 */
export type DisputeOutcome = 'confirmed' | 'unconfirmed';

export interface DisputeView {
  id: string;
  status: DisputeStatus;
  created_at: string;
  /** Null until decided (a server that does not say reads null). */
  outcome: DisputeOutcome | null;
}


export const INTEGRATION_MODES: readonly IntegrationMode[] = ['h2h', 'order_with_form', 'form'];
export const DISPUTE_STATUSES: readonly DisputeStatus[] = ['open', 'closed'];
/** Header every browser POST carries (a cross-site form cannot set it). */
export const PROTOCOL_HEADER = 'X-Paydesk';

export class ProtocolShapeError extends Error {
  readonly path: string;
  constructor(path: string, expected: string) {
    super(`invalid answer from the token endpoint: ${path} should be ${expected}`);
    this.name = 'ProtocolShapeError';
    this.path = path;
  }
}

export type Json = Record<string, unknown>;

const STATUSES: readonly OrderViewStatus[] = ['pending', 'paid', 'expired', 'cancelled'];
const KINDS: readonly RequisitesKind[] = ['card', 'phone', 'account', 'link'];
const BANK_CODES: readonly BankCode[] = ['sberbank', 'tinkoff', 'vtb', 'alfabank'];
/** A non-negative decimal string such as `1500` or `1500.50`: every amount of the protocol. */
export const DECIMAL = /^\d+(\.\d+)?$/;
export const decimal = (s: string) => DECIMAL.test(s);
/** A bank this widget does not know reads null rather than refusing the answer. */
export const bankCode = (v: unknown): BankCode | null => (BANK_CODES.includes(v as BankCode) ? (v as BankCode) : null);

/** The object at `path`, or a throw. */
function obj(v: unknown, path: string): Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ProtocolShapeError(path, 'an object');
  return v as Json;
}

/**
 * The string fields `keys` (space-separated) of the object at `path`; with `nullable`, null or a
 * missing field reads null. `ok` adds a check of the text (and names what was expected).
 */
export function strings(v: unknown, path: string, keys: string, nullable = false, ok?: (s: string) => boolean, expected = 'a string'): Json {
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

/** Checks a `{ error: { code, message, retryable } }` body (`Code`: the codes it may name); returns null when it is not one. */
export function parseErrorBody<Code extends string>(value: unknown): { code: Code; message: string; retryable: boolean } | null {
  if (typeof value !== 'object' || value === null) return null;
  const e = (value as Json).error;
  if (typeof e !== 'object' || e === null) return null;
  const { code, message, retryable } = e as Json;
  if (typeof code !== 'string' || typeof message !== 'string') return null;
  return { code: code as Code, message, retryable: retryable === true };
}
