/**
 * The JSON shapes of the merchant console's API (demo/console.ts), shared as types by the server and
 * the console page, so a change on one side fails the type check of the other.
 */
import type { OrderOutcome } from '../src/provider/facts.js';
import type { DestinationKind, PayoutMethod } from './payout-rules.js';

/** Where the console's pages and API live; the login cookie is scoped to this path. */
export const CONSOLE_PATH = '/console';
export const CONSOLE_API_PATH = `${CONSOLE_PATH}/api`;

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
  'network',
  'timeout',
  'invalid_response',
  'sandbox_refused',
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
}

export interface PayoutResponse {
  payout: PayoutView;
  /** True when this answer is the payout an earlier submit of the same form made. */
  replayed: boolean;
}
