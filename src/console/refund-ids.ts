/**
 * A refund's names: its id and its payout's client order id, `refund-<order id>-<16 hex>`, which
 * names the order it refunds, so any payout says which order it gives money back for.
 */
import { createHash } from 'node:crypto';

/** An order id a refund's payout can carry in its client order id (64 characters at most in all). */
export const REFUNDABLE_ORDER_ID = /^[A-Za-z0-9-]{1,40}$/;
const REFUND_CLIENT_ORDER_ID = /^refund-([A-Za-z0-9-]{1,40})-([0-9a-f]{16})$/;

/**
 * The refund of `orderId` asked for with an Idempotency-Key, or, without one, for this amount to this
 * account (the same refund asked twice is one refund).
 */
export function refundId(orderId: string, ask: { key: string } | { amount: string; account: string }): string {
  const what = 'key' in ask ? `key\n${ask.key}` : `ask\n${ask.amount}\n${ask.account}`;
  return createHash('sha256').update(`${orderId}\n${what}`).digest('hex').slice(0, 16);
}

export const refundClientOrderId = (orderId: string, id: string) => `refund-${orderId}-${id}`;

/** The order a payout refunds, from its client order id; null for any other payout. */
export function refundOrderOf(clientOrderId: string): string | null {
  return REFUND_CLIENT_ORDER_ID.exec(clientOrderId)?.[1] ?? null;
}
