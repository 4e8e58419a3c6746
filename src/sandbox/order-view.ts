/** An order as the widget protocol's OrderView (DESIGN.md), for the hosted form. */
import { orderOutcome } from '../provider/facts.js';
import type { BankCode, OrderView, PaymentMethodView } from '../protocol/index.js';
import { addAmounts } from '../money/index.js';
import { requisitesKind, rangeFor, type MethodDef } from './catalog.js';
import { feeFor } from './engine.js';
import { isoMillis } from './format.js';
import type { OrderRecord, SessionRecord } from './terminal.js';

const BANK_CODES: readonly string[] = ['sberbank', 'tinkoff', 'vtb', 'alfabank'];

function bankCode(value: string | null | undefined): BankCode | null {
  return value && BANK_CODES.includes(value) ? (value as BankCode) : null;
}

export function orderView(order: OrderRecord, session: SessionRecord | null, formUrl: string | null): OrderView {
  return {
    id: order.id,
    client_order_id: order.clientOrderId,
    status: orderOutcome(order.status),
    provider_status: order.status,
    amount: order.amount,
    currency: order.method.currency,
    fee: order.fee,
    method: { id: order.method.id, name: order.method.name, type: order.method.type },
    bank: bankCode(order.method.bank?.customerBank) ?? bankCode(order.customerBank),
    requisites: { holder_name: order.holderName, holder_account: order.holderAccount, kind: requisitesKind(order.method.type) },
    payment_link: order.paymentLink,
    form_url: order.formUrl ?? formUrl,
    created_at: isoMillis(order.createdMs),
    expires_at: isoMillis(order.expiresMs),
    redirect_url: session?.redirectUrl ?? null,
    support_url: session?.supportUrl ?? null,
    return_url: session?.returnUrl ?? null,
    requested_amount: order.requestedAmount !== order.amount ? order.requestedAmount : null,
    dispute: null,
    late: false,
  };
}

/** A method offered on the hosted form, with the fee for the session's amount. */
export function methodView(method: MethodDef, amount: string): PaymentMethodView | null {
  const range = rangeFor(method, 'Buy', amount);
  if (!range) return null;
  const fee = feeFor(amount, range);
  return {
    id: method.id,
    name: method.name,
    type: method.type,
    bank: bankCode(method.bank?.customerBank),
    fee,
    fixed_fee: range.fixed === null ? null : addAmounts(range.fixed, '0', 2),
    total: addAmounts(amount, fee, 2),
  };
}
