/**
 * Does a record found by a lookup belong to a create whose answer was lost? One definition, used by
 * the client's lookups (and exported for the merchant server's own).
 */
import { addAmounts, compareAmounts, numberToDecimal } from '../money/index.js';
import { providerTime } from './time.js';
import type { CreateOrderRequest, FormCreateRequest, FormSession, Order } from './schemas.js';

// The provider's times moved to time.ts; the server's checkout still imports them from here.
export { providerIso, providerTime } from './time.js';

/** `unique_amount`: the provider may raise the amount by up to this much (provider-api.md, Limits). */
export const UNIQUE_AMOUNT_SPREAD = '9';

/**
 * How far a found record's `created_at` may lie before the create began and still be its own: the
 * provider's clock and ours differ. Records older than that are an earlier purchase that reused
 * the client_order_id, never this create's.
 */
export const LOOKUP_CLOCK_SLACK_MS = 10 * 60 * 1000;

/**
 * Could the provider have set `amount` for a create that asked for `requested`? Exactly that amount,
 * or with `unique_amount` anything from it to it + {@link UNIQUE_AMOUNT_SPREAD} (the provider raises
 * it to tell payments apart). One question with two uses: the client's lookups take a found record
 * for a lost create's own only when it holds, and the merchant server accepts a provider order's
 * amount for a session only when it holds (once the provider has fixed the amount, only that one:
 * server/checkout/matching.ts). An amount that is not a decimal never fits.
 */
export function amountFitsRequest(amount: string, requested: string | number, unique: boolean): boolean {
  try {
    const want = typeof requested === 'number' ? numberToDecimal(requested) : requested;
    if (!unique) return compareAmounts(amount, want) === 0;
    return compareAmounts(amount, want) >= 0 && compareAmounts(amount, addAmounts(want, UNIQUE_AMOUNT_SPREAD)) <= 0;
  } catch {
    return false;
  }
}

/** A found order is this create's: same client_order_id, side, destination (when both have one) and amount. */
export function orderMatchesRequest(order: Order, req: CreateOrderRequest): boolean {
  if (order.client_order_id !== req.client_order_id || order.order_side !== req.order_side) return false;
  const destination = req.customer_account ?? req.customer_payment_account;
  if (destination != null && order.customer_account != null && order.customer_account !== destination) return false;
  return amountFitsRequest(order.amount, req.amount, req.unique_amount === true);
}

/** A found form session is this create's: same client_order_id, side and amount. */
export function sessionMatchesRequest(session: FormSession, req: FormCreateRequest): boolean {
  const data = req.order_data;
  if (session.client_order_id !== data.client_order_id || session.order_side !== data.order_side) return false;
  return amountFitsRequest(session.amount, data.amount, data.unique_amount === true);
}

/** Created at or after `sinceMs` − {@link LOOKUP_CLOCK_SLACK_MS} (an unreadable `created_at` is not). */
export function createdSince(record: { created_at: string }, sinceMs: number): boolean {
  const at = providerTime(record.created_at);
  return Number.isFinite(at) && at >= sinceMs - LOOKUP_CLOCK_SLACK_MS;
}

/** The most recently created of several records. */
export function latestCreated<T extends { created_at: string }>(items: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const item of items) {
    if (!best || (providerTime(item.created_at) || 0) >= (providerTime(best.created_at) || 0)) best = item;
  }
  return best;
}

/**
 * Does `text` (e.g. a transaction's `client_description`) name `id` as a whole word? `pd_1` is not
 * named by "pd_12"; letters, digits, `_` and `-` count as part of an id.
 */
export function namesId(text: string, id: string): boolean {
  if (id === '') return false;
  let from = 0;
  for (;;) {
    const at = text.indexOf(id, from);
    if (at < 0) return false;
    const before = at === 0 ? '' : text[at - 1]!;
    const after = text[at + id.length] ?? '';
    if (!/[\p{L}\p{N}_-]/u.test(before) && !/[\p{L}\p{N}_-]/u.test(after)) return true;
    from = at + 1;
  }
}
