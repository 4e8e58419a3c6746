/** An order as the widget protocol's OrderView (DESIGN.md), for the hosted form. */
import { orderOutcome } from '../provider/facts.js';
import { recipientBankName } from '../provider/recipient-bank.js';
import type { BankCode, DisputeView, OrderView, PaymentMethodView } from '../protocol/index.js';
import { fromMinor } from '../money/index.js';
import { moneyDigits } from './currencies.js';
import { isoMillis } from './format.js';
import { rangeFor, requisitesKind, type MethodDef } from './payment-methods.js';
import type { DisputeRecord, OrderRecord, SessionRecord } from './records.js';

const BANK_CODES: readonly string[] = ['sberbank', 'tinkoff', 'vtb', 'alfabank'];

function bankCode(value: string | null | undefined): BankCode | null {
  return value && BANK_CODES.includes(value) ? (value as BankCode) : null;
}

export interface OrderViewContext {
  session: SessionRecord | null;
  formUrl: string | null;
  /** The order's latest dispute, if any. */
  dispute: DisputeRecord | undefined;
  /** An accepted dispute has credited the money of the order although it stays cancelled. */
  creditedLate: boolean;
}

export function disputeView(d: DisputeRecord): DisputeView {
  // The provider knows its own decision: accepted is the money found (it credits it at once).
  return { id: d.id, status: d.processed ? 'closed' : 'open', created_at: isoMillis(d.createdMs), outcome: !d.processed || d.accepted === null ? null : d.accepted ? 'confirmed' : 'unconfirmed' };
}

/**
 * The OrderView of an order. `late`: paid after it had ended — a `Completed` that followed
 * `CanceledByTimeout`/`CanceledByService`, or an accepted dispute that credited an order which stays
 * cancelled (then `status` is `paid` while `provider_status` keeps the cancelled status).
 */
export function orderView(order: OrderRecord, ctx: OrderViewContext): OrderView {
  const lateByDispute = ctx.creditedLate && order.status !== 'Completed';
  const late = lateByDispute || (order.status === 'Completed' && order.endedAs !== null);
  return {
    id: order.id,
    client_order_id: order.clientOrderId,
    status: lateByDispute ? 'paid' : orderOutcome(order.status),
    provider_status: order.status,
    amount: order.amount,
    currency: order.method.currency,
    fee: order.fee,
    method: { id: order.method.id, name: order.method.name, type: order.method.type },
    bank: bankCode(order.method.bank?.customerBank) ?? bankCode(order.customerBank),
    requisites: {
      holder_name: order.holderName,
      holder_account: order.holderAccount,
      kind: requisitesKind(order.method.type),
      bank_name: recipientBankName({ method_name: order.method.name, payment_link: order.paymentLink }, order.method.nspkCode),
    },
    payment_link: order.paymentLink,
    form_url: order.formUrl ?? ctx.formUrl,
    created_at: isoMillis(order.createdMs),
    expires_at: isoMillis(order.expiresMs),
    redirect_url: ctx.session?.redirectUrl ?? null,
    support_url: ctx.session?.supportUrl ?? null,
    return_url: ctx.session?.returnUrl ?? null,
    requested_amount: order.requestedAmount !== order.amount ? order.requestedAmount : null,
    dispute: ctx.dispute ? disputeView(ctx.dispute) : null,
    late,
  };
}

/**
 * A method offered on the hosted form. The shopper sends exactly the amount: in the sandbox the
 * method's fee is the merchant's cost, so the list shows fee 0 and total = amount, the same amount
 * the form then asks for.
 */
export function methodView(method: MethodDef, amount: string): PaymentMethodView | null {
  if (!rangeFor(method, 'Buy', amount)) return null;
  return {
    id: method.id,
    name: method.name,
    type: method.type,
    bank: bankCode(method.bank?.customerBank),
    fee: fromMinor(0n, moneyDigits(method.currency)),
    fixed_fee: null,
    total: amount,
  };
}
