/**
 * The DOM events of `<paydesk-checkout>`: all bubble and are composed (they cross shadow roots).
 * Typed in `GlobalEventHandlersEventMap`, so `el.addEventListener('paydesk-paid', e => e.detail.order)`
 * is checked.
 */
import type { OrderView } from '../protocol/index.js';
import type { ErrorInfo } from './api.js';
import type { StateName } from './machine.js';

export type CheckoutState = StateName;

export interface PaydeskReadyDetail {
  state: CheckoutState;
}
export interface PaydeskSessionDetail {
  /** The opaque session token (resume it with the `session` attribute). */
  session: string;
  order: OrderView;
}
export interface PaydeskStatusDetail {
  state: CheckoutState;
  /** The order's status, when there is an order. */
  status: OrderView['status'] | null;
  order: OrderView | null;
}
export interface PaydeskOrderDetail {
  order: OrderView;
}
export type PaydeskErrorDetail = ErrorInfo;
export interface PaydeskRedirectDetail {
  /** The http(s) address the shopper is about to be sent to; `preventDefault()` keeps them here. */
  url: string;
  order: OrderView;
}

/** The funnel events: what the shopper does on the requisites, for the merchant's analytics (docs/funnel-events.md). */
export interface PaydeskFunnelDetail {
  /** The order on screen, or null before there is one (the method choice). */
  order: OrderView | null;
}
/** `paydesk-method`: the shopper picked a way to pay (a tap on the method choice; a preselected one is no pick). */
export interface PaydeskMethodDetail extends PaydeskFunnelDetail {
  /** The method picked: its `payment_method_id`, its `method_type` (`SBP`, `BankCard`…) and its bank (`sberbank`…, null for any bank). */
  method: { id: string; type: string; bank: string | null };
}
/** What a copy button copied. */
export type PaydeskCopyField = 'amount' | 'account' | 'holder' | 'bank' | 'order';
/** `paydesk-copy`: a copy button put its text on the clipboard (not fired when the text could only be selected). */
export interface PaydeskCopyDetail extends PaydeskFunnelDetail {
  /** Which copy button: the amount, the account (phone, card or account number, or the SBP link), the holder, the recipient's bank, the order number. */
  field: PaydeskCopyField;
}
/** `paydesk-bank-app`: the shopper opened a bank from the bank sheet (its app on a phone, its online bank on a desktop). */
export interface PaydeskBankAppDetail extends PaydeskFunnelDetail {
  /** The bank opened. `name`: the bank's name in NSPK's list (Russian); `nspk_code`: the provider's code of the bank (`bank` + its SBP member id). */
  bank: { name: string; nspk_code: string };
}
/** `paydesk-receipt`: the receipt upload was opened (`started`), or the receipts were accepted by the server (`sent`). */
export interface PaydeskReceiptDetail extends PaydeskFunnelDetail {
  /** `started`: the shopper opened the upload; `sent`: the server accepted the receipts (a dispute is open). */
  stage: 'started' | 'sent';
}

export interface PaydeskEventMap {
  'paydesk-ready': CustomEvent<PaydeskReadyDetail>;
  'paydesk-session': CustomEvent<PaydeskSessionDetail>;
  'paydesk-status': CustomEvent<PaydeskStatusDetail>;
  'paydesk-paid': CustomEvent<PaydeskOrderDetail>;
  'paydesk-expired': CustomEvent<PaydeskOrderDetail>;
  'paydesk-error': CustomEvent<PaydeskErrorDetail>;
  'paydesk-redirect': CustomEvent<PaydeskRedirectDetail>;
  'paydesk-method': CustomEvent<PaydeskMethodDetail>;
  'paydesk-copy': CustomEvent<PaydeskCopyDetail>;
  'paydesk-bank-app': CustomEvent<PaydeskBankAppDetail>;
  'paydesk-receipt': CustomEvent<PaydeskReceiptDetail>;
}

export type PaydeskEventName = keyof PaydeskEventMap;

/** Dispatches a bubbling, composed event; returns false when a listener cancelled it. */
export function emit<K extends PaydeskEventName>(
  target: EventTarget,
  name: K,
  detail: PaydeskEventMap[K]['detail'],
  cancelable = false,
): boolean {
  return target.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable }));
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface GlobalEventHandlersEventMap extends PaydeskEventMap {}
}
