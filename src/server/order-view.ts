/**
 * Pure mapping from the provider's order (and form session) to the widget's OrderView.
 * Status comes from orderOutcome() of facts.ts; redirect/support/return URLs come only from the
 * merchant's resolveOrder, sanitised to http(s).
 */
import { currencyDigits, roundHalfUp } from '../money/index.js';
import { bankByNspkCode, bankByCustomerBank, orderOutcome, requisitesKindOf } from '../provider/facts.js';
import { providerIso } from '../provider/time.js';
import { recipientBankName } from '../provider/recipient-bank.js';
import type { Order } from '../provider/schemas.js';
import { isHttpUrl } from '../provider/schemas.js';
import type { BankCode, OrderView, OrderViewStatus, RequisitesKind } from '../protocol/index.js';

/** What the server knows about an order beyond the provider's answer. */
export interface ViewContext {
  currency: string;
  /** The amount resolveOrder asked for (normalised). */
  requested_amount: string;
  redirect_url: string | null;
  support_url: string | null;
  return_url: string | null;
  /** nspk_code of the chosen payment method, when known (names the bank). */
  nspk_code?: string | null;
  /** Bank chosen in the request (customer_bank / button_name), when any. */
  bank?: BankCode | null;
}

/** An http(s) URL of at most 2048 characters, else null. */
export function sanitizeUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return null;
  return isHttpUrl(value) ? value : null;
}

/** requisites.kind from the method type; for a type not seen yet, from the shape of the account. */
export function requisitesKind(methodType: string, holderAccount: string): RequisitesKind {
  return requisitesKindOf(methodType, holderAccount);
}

/**
 * Renders a provider decimal at the currency's digits when that loses nothing
 * (`"1500.00000"` → `"1500.00"`), else keeps it as given. Negative or malformed → null.
 */
export function normaliseDecimal(value: string, currency: string): string | null {
  if (!/^\d+(\.\d+)?$/.test(value)) return null;
  const digits = currencyDigits(currency);
  const [, fraction = ''] = value.split('.');
  if (fraction.length <= digits || /^0*$/.test(fraction.slice(digits))) return roundHalfUp(value, digits);
  return value;
}

export function bankOf(order: Pick<Order, 'customer_bank'>, ctx: Pick<ViewContext, 'nspk_code' | 'bank'>): BankCode | null {
  if (order.customer_bank && bankByCustomerBank(order.customer_bank)) return order.customer_bank as BankCode;
  if (ctx.bank) return ctx.bank;
  return (bankByNspkCode(ctx.nspk_code)?.customerBank as BankCode | undefined) ?? null;
}

export function orderToView(order: Order, ctx: ViewContext): OrderView {
  const currency = order.currency || ctx.currency;
  const amount = normaliseDecimal(order.amount, currency) ?? ctx.requested_amount;
  const fee = normaliseDecimal(order.fee, currency) ?? roundHalfUp('0', currencyDigits(currency));
  const hasRequisites = order.holder_account.length > 0 || order.holder_name.length > 0;
  return {
    id: order.id,
    client_order_id: order.client_order_id,
    status: orderOutcome(order.status),
    provider_status: order.status,
    amount,
    currency,
    fee,
    method: { id: order.method_id, name: order.method_name, type: order.method_type },
    bank: bankOf(order, ctx),
    requisites: hasRequisites
      ? {
          holder_name: order.holder_name,
          holder_account: order.holder_account,
          kind: requisitesKind(order.method_type, order.holder_account),
          bank_name: recipientBankName(order, ctx.nspk_code),
        }
      : null,
    payment_link: sanitizeUrl(order.payment_link),
    form_url: sanitizeUrl(order.form_url ?? null),
    // With their zone: a zone-less UTC time (provider-notes.md) would be the shopper's local time in a
    // browser, and the countdown to expires_at off by the shopper's offset.
    created_at: providerIso(order.created_at),
    expires_at: providerIso(order.expires_at),
    redirect_url: ctx.redirect_url,
    support_url: ctx.support_url,
    return_url: ctx.return_url,
    requested_amount: amount === ctx.requested_amount ? null : ctx.requested_amount,
    dispute: null,
    late: false,
  };
}

/** The view of a `form` session before the shopper has picked a method (no order at the provider yet). */
export function formPendingView(input: {
  client_order_id: string;
  form_url: string | null;
  amount: string;
  createdAt: Date;
  expiresAt: Date;
  ctx: ViewContext;
  status?: OrderViewStatus;
  provider_status?: string;
}): OrderView {
  const { ctx } = input;
  return {
    id: '',
    client_order_id: input.client_order_id,
    status: input.status ?? 'pending',
    provider_status: input.provider_status ?? 'FormCreated',
    amount: input.amount,
    currency: ctx.currency,
    fee: roundHalfUp('0', currencyDigits(ctx.currency)),
    method: null,
    bank: ctx.bank ?? null,
    requisites: null,
    payment_link: null,
    form_url: input.form_url,
    created_at: input.createdAt.toISOString(),
    expires_at: input.expiresAt.toISOString(),
    redirect_url: ctx.redirect_url,
    support_url: ctx.support_url,
    return_url: ctx.return_url,
    requested_amount: input.amount === ctx.requested_amount ? null : ctx.requested_amount,
    dispute: null,
    late: false,
  };
}

/** True when two views differ in anything the widget shows. */
export function viewsDiffer(a: OrderView, b: OrderView): boolean {
  return JSON.stringify(a) !== JSON.stringify(b);
}
