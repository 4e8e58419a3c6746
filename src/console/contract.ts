/** The console API's JSON shapes (src/console/api.ts), shared by server and page: a change on one side fails the other's type check. */
import type { IntegrationMode, OrderViewStatus } from '../protocol/index.js';
import type { OrderOutcome } from '../provider/index.js';
import type { DestinationKind, PayoutMethod } from './payout-rules.js';

/** Where the console's pages and API live unless `createConsole({ basePath })` says otherwise; the login cookie is scoped to it. */
export const DEFAULT_BASE_PATH = '/console';

/** A page of a list, as every list route answers. */
export interface ListPage<T> {
  items: T[];
  total: number;
  page: number;
  size: number;
  pages: number;
}

/** Stable codes of the console API's errors (the page has a sentence for each, in each language). */
export const CONSOLE_ERROR_CODES = [
  'bad_request',
  'validation_failed',
  'payload_too_large',
  'missing_protocol_header',
  'cross_site_request',
  'unauthorized',
  'rate_limited',
  'not_found',
  'insufficient_funds',
  'customer_blacklisted',
  'amount_out_of_limits',
  'method_unavailable',
  'quote_changed',
  'idempotency_key_reused',
  'payout_in_progress',
  'payout_not_pending',
  'no_traders',
  'payout_unconfirmed',
  'provider_error',
  'network', 'timeout', 'invalid_response',
  'sandbox_refused',
  'receipts_unavailable',
  'unsafe_receipt',
  'webhook_test_unavailable',
  'internal_error',
] as const;
export type ConsoleErrorCode = (typeof CONSOLE_ERROR_CODES)[number];

export interface ConsoleErrorBody {
  error: {
    code: ConsoleErrorCode;
    /** For developers and logs; the page shows its own sentence for the code. */
    message: string;
    retryable: boolean;
    /** `validation_failed`: the body or query field at fault. */
    field?: string;
    /** Facts the page shows with the error (decimal strings for money). */
    details?: {
      /** insufficient_funds: the balance available now and what the payout needs (amount + fee). */
      available?: string;
      needed?: string;
      currency?: string;
      /** amount_out_of_limits: the method's Sell limits. */
      min?: string;
      max?: string;
      /** quote_changed: the fee and total the provider's ranges give now. */
      fee?: string;
      total?: string;
      /** rate_limited: seconds to wait. */
      retry_after?: number;
    };
  };
}

export interface BalanceView {
  available: string;
  frozen: string;
  total: string;
  currency: string;
  id: string;
}

export interface PayoutMethodsResponse {
  methods: PayoutMethod[];
}

/** `POST /payouts`. `total` is what the operator confirmed (amount + fee); a different quote now is refused. */
export interface CreatePayoutRequest {
  /** The form's idempotency key (payout-rules.ts `PAYOUT_KEY`). */
  key: string;
  method_id: string;
  amount: string;
  destination: string;
  total: string;
}

/** A payout: a Sell order of the provider, with what the console shows of it. */
export interface PayoutView {
  id: string;
  client_order_id: string;
  /** The provider's status (`Unpaid`, `Completed`, `CanceledByTimeout`, …). */
  status: string;
  /** What the status means (facts.ts `orderOutcome`): pending, paid, expired, cancelled. */
  outcome: OrderOutcome;
  amount: string;
  fee: string;
  /** amount + fee. */
  total: string;
  currency: string;
  method: { id: string; name: string; type: string };
  destination_kind: DestinationKind;
  /** Masked (payout-rules.ts `maskDestination`). */
  destination: string;
  created_at: string;
  updated_at: string;
  expires_at: string;
  /** The order this payout refunds (a refund is a payout: refunds.ts), else null. */
  refund_of: string | null;
}

export interface PayoutResponse {
  payout: PayoutView;
  /** True when this answer is the payout an earlier submit of the same form made. */
  replayed: boolean;
}

// ---------------------------------------------------------------------------------------------
// Orders as the shop's server knows them (the token endpoints' handler.inspect), beside the provider

/** Where one of the shop's hooks stands for an order. */
export interface HookView {
  /**
   * `done`: it ran (at `at`); `due`: it should run and has not yet; `retrying`: it failed
   * (`attempts`, `error`) and runs again at `next_at`; `none`: nothing for it to do (yet);
   * `off`: the shop configured no such hook.
   */
  state: 'done' | 'due' | 'retrying' | 'none' | 'off';
  at: string | null;
  attempts: number;
  error: string | null;
  next_at: string | null;
}

/** The shop server's session of an order (what the token endpoint saw), shown beside the provider's fields. */
export interface ShopView {
  /** The token endpoint that made it, e.g. `/api/paydesk`. */
  endpoint: string;
  order_ref: string;
  /** The catalog's titles for order_ref, or null when the catalog no longer has it. */
  product: { en: string; ru: string } | null;
  mode: IntegrationMode;
  /** The session's status: pending, paid, expired, cancelled (paid includes paid late). */
  status: OrderViewStatus;
  /** The provider's status when the server last read it. */
  provider_status: string;
  amount: string;
  currency: string;
  created_at: string;
  /** Paid after the session had ended expired or cancelled. */
  late: boolean;
  /** `onOrderPaid`: the shop's fulfilment. */
  fulfilment: HookView;
  /** Paid a purchase already paid (`handler.doublePayments`), never fulfilled; its refund `due`, `sending` or `refunded`. */
  double_payment: { first_order_id: string; refund: 'due' | 'sending' | 'refunded' } | null;
  /** Set aside for a person (amount mismatch, a dispute without the provider's record of money, …). */
  flagged: { reason: string; at: string; dispute_id: string | null } | null;
  /** The shopper's dispute as the server follows it. */
  dispute: {
    id: string;
    created_at: string;
    processed: boolean;
    /** After processing: `paid` (the provider's record of the money was found) or `unconfirmed`. */
    outcome: 'paid' | 'unconfirmed' | null;
    /** The provider's deposit that confirmed it (with `outcome: "paid"` by a dispute's money). */
    deposit: DepositView | null;
    /** `widget`: uploaded through the token endpoint; `provider`: found at the provider. */
    via: 'widget' | 'provider';
    files: number;
  } | null;
}

/** A row of the orders list. */
export interface OrderRow {
  /** The provider's order id; null for a hosted-form payment whose shopper has not picked a method yet. */
  id: string | null;
  client_order_id: string;
  /** What the order page is opened by: `/console/orders/{key}` (the order id, else the client order id). */
  key: string;
  /** `Buy` (a payment) or `Sell` (a payout). */
  side: string;
  method: { id: string; name: string; type: string } | null;
  amount: string;
  fee: string | null;
  currency: string;
  /** The provider's status. */
  status: string;
  /** `provider`: read now from its list; `shop`: as the shop's server last read it (`seen_at`), a search hit the list did not bring. */
  source: 'provider' | 'shop';
  seen_at: string | null;
  created_at: string;
  /** The shop server's session, or null for an order it did not make (a payout, another system's order). */
  shop: ShopView | null;
  /** For a refund's payout (client order id `refund-…`): the order it refunds, else null. */
  refund_of: string | null;
}

/** `GET /orders`. */
export interface OrdersPage extends ListPage<OrderRow> {
  /** With `q`: what was searched (see the route's comment in src/console/api.ts). */
  search: {
    /** Matches among the shop server's sessions (every token endpoint, all of their time). */
    shop_matches: number;
    /** Orders of the provider's list read for the search (within the period, newest first). */
    provider_scanned: number;
    /** False when the period has more orders than were read: narrow the dates to search the rest. */
    provider_complete: boolean;
  } | null;
}

/** A status change as the shop's server saw it. */
export interface HistoryView {
  at: string;
  status: OrderViewStatus;
  provider_status: string;
  /** What brought it: the creation, a browser's read, a webhook, the sweep, a dispute. */
  via: 'create' | 'read' | 'webhook' | 'sweep' | 'dispute';
  note: string | null;
}

export type WebhookOutcome = 'confirmed' | 'recorded' | 'orphan' | 'ignored' | 'refused' | 'failed' | 'test';
export const WEBHOOK_OUTCOMES: readonly WebhookOutcome[] = ['confirmed', 'recorded', 'orphan', 'ignored', 'refused', 'failed', 'test'];

/** A webhook delivery the merchant server received (the token endpoint's log). */
export interface WebhookView {
  id: string;
  at: string;
  /** The token endpoint that received it. */
  endpoint: string;
  /** From the payload (unverified when `verified` is false). */
  order_id: string | null;
  client_order_id: string | null;
  status: string | null;
  verified: boolean;
  outcome: WebhookOutcome;
  /** Why it was refused or failed. */
  detail: string | null;
  /** What the merchant server answered. */
  http_status: number;
}

/** The order's fields at the provider, read when the page asked (the customer's account masked). */
export interface ProviderOrderView {
  id: string;
  client_order_id: string;
  side: string;
  status: string;
  outcome: OrderOutcome;
  amount: string;
  fee: string;
  currency: string;
  method: { id: string; name: string; type: string };
  /** The requisites the shopper paid to (the trader's), as the provider gave them. */
  holder_name: string;
  holder_account: string;
  /** The payer's or payout destination's account, masked; null when the provider has none. */
  customer_account: string | null;
  customer_bank: string | null;
  payment_link: string | null;
  webhook_url: string | null;
  created_at: string;
  updated_at: string;
  expires_at: string;
}

/** A dispute receipt the console serves (`url`, behind the login). */
export interface ReceiptView {
  index: number;
  name: string;
  content_type: string;
  size: number;
  /** `image`: shown in the page (JPEG, PNG, WebP); `document`: linked (PDF, HEIC), downloaded. */
  kind: 'image' | 'document';
  url: string;
}

/** The provider's `deposit` transaction that names an order: the money a dispute was about. */
export interface DepositView {
  id: string;
  /** Decimal string. */
  amount: string;
  created_at: string;
}

/** A dispute with its order and receipts. */
export interface DisputeView {
  dispute_id: string;
  order_id: string;
  client_order_id: string;
  /** The order's amount (decimal string, in the currency's minor units). */
  amount: string;
  currency: string;
  processed: boolean;
  created_at: string;
  /**
   * The shop server's view of it, for an order of this shop: `outcome` `paid` (the money was found:
   * `deposit` is the provider's record of it), `unconfirmed` (processed, no record of the money after
   * the grace), or null (open, or processed and the money still looked for).
   */
  shop: { endpoint: string; order_ref: string; outcome: 'paid' | 'unconfirmed' | null; deposit: DepositView | null; via: 'widget' | 'provider' } | null;
  /** The receipts; null when the console cannot read them (a real provider does not give them out). */
  files: ReceiptView[] | null;
}

/** `GET /disputes`. */
export interface DisputesPage extends ListPage<DisputeView> {
  /** False with a real provider: the receipts are not available to the console. */
  receipts_available: boolean;
}

/** `GET /orders/{key}`: one order, everything the shop's server and the provider know of it. */
export interface OrderDetail {
  key: string;
  id: string | null;
  client_order_id: string;
  shop: (ShopView & { history: HistoryView[]; hooks: { paid: HookView; closed: HookView; flagged: HookView }; refreshed_at: string }) | null;
  /** Read from the provider now; `error` when that read failed; null when there is no provider order yet. */
  provider: { order: ProviderOrderView; read_at: string } | { error: ConsoleErrorBody['error'] } | null;
  webhooks: WebhookView[];
  disputes: DisputeView[] | { error: ConsoleErrorBody['error'] };
  receipts_available: boolean;
  /** Other provider orders with this client order id (a hosted form's earlier attempts), newest first. */
  others: Array<{ id: string; status: string; created_at: string }>;
  /** The refunds of this order (payouts to the shopper), newest first, each with its payout's status now. */
  refunds: RefundView[];
  /** What may still be refunded: null when the order is not a paid payment. */
  refundable: { amount: string; paid: string; currency: string } | null;
}

/**
 * Where a refund stands: `sending` its payout was asked for and the provider has not confirmed it
 * (it may still land: never sent again), `pending` the payout is on its way, `paid` the shopper got
 * it, `failed` the payout ended without paying (the amount may be refunded again).
 */
export type RefundStatus = 'sending' | 'pending' | 'paid' | 'failed';
export const REFUND_STATUSES: readonly RefundStatus[] = ['sending', 'pending', 'paid', 'failed'];

export interface RefundView {
  id: string;
  order_id: string;
  /** The payout's client order id (`refund-<order id>-<hash>`). */
  client_order_id: string;
  /** The payout (a Sell order) once the provider confirmed it, else null. */
  payout_id: string | null;
  amount: string;
  currency: string;
  status: RefundStatus;
  /** Masked account the money goes to, and its kind. */
  account: string;
  account_kind: DestinationKind;
  method: { id: string; name: string; type: string };
  created_at: string;
}

/** `POST {basePath}/api/refunds`: 201 (made now) or 200 (the same refund asked again: `replayed`). */
export interface RefundResponse {
  refund: RefundView;
  replayed: boolean;
}

/** Why an order is in "To refund". */
export type RefundDueReason = 'double_payment' | 'late_payment' | 'dispute_accepted';
export const REFUND_DUE_REASONS: readonly RefundDueReason[] = ['double_payment', 'late_payment', 'dispute_accepted'];

/** An order whose money goes back: it paid a purchase another order had already paid. */
export interface RefundDue {
  order_id: string;
  client_order_id: string;
  order_ref: string;
  reason: RefundDueReason;
  /** Left to refund: what it paid less its refunds (not failed). */
  amount: string;
  paid: string;
  refunded: string;
  currency: string;
  paid_at: string;
  /** The order that paid the purchase first (fulfilled). */
  first_order_id: string;
  /** The token endpoint it came through. */
  endpoint: string;
}

export interface RefundsDueResponse {
  items: RefundDue[];
}

export interface OrderDetailResponse {
  order: OrderDetail;
}
