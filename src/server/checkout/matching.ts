/** Does a provider order belong to a session: its client order id, currency and amount. */
import { compareAmounts } from '../../money/index.js';
import { amountFitsRequest } from '../../provider/matching.js';
import type { Order } from '../../provider/schemas.js';
import { normaliseDecimal } from '../order-view.js';

export interface AmountTerms {
  requested_amount: string;
  currency: string;
  unique_amount: boolean;
  /** The amount the provider fixed at creation; once known, only exactly it fits. */
  expected_amount: string | null;
}

/** Does `amount` fit: the expected amount once known, else the requested one (within +9 with unique_amount)? */
export function amountAcceptable(amount: string, s: AmountTerms): boolean {
  const normal = normaliseDecimal(amount, s.currency);
  if (normal === null) return false;
  if (s.expected_amount !== null) {
    try {
      return compareAmounts(normal, s.expected_amount) === 0;
    } catch {
      return false;
    }
  }
  return amountFitsRequest(normal, s.requested_amount, s.unique_amount);
}

export type OrderProblem = 'client_order_id differs' | 'currency_mismatch' | 'amount_mismatch';

/** Why a provider order does not belong to the session, or null. */
export function orderProblem(order: Order, s: AmountTerms, coid: string): OrderProblem | null {
  if (order.client_order_id !== coid) return 'client_order_id differs';
  if (order.currency.toUpperCase() !== s.currency.toUpperCase()) return 'currency_mismatch';
  if (!amountAcceptable(order.amount, s)) return 'amount_mismatch';
  return null;
}
