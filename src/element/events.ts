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

export interface PaydeskEventMap {
  'paydesk-ready': CustomEvent<PaydeskReadyDetail>;
  'paydesk-session': CustomEvent<PaydeskSessionDetail>;
  'paydesk-status': CustomEvent<PaydeskStatusDetail>;
  'paydesk-paid': CustomEvent<PaydeskOrderDetail>;
  'paydesk-expired': CustomEvent<PaydeskOrderDetail>;
  'paydesk-error': CustomEvent<PaydeskErrorDetail>;
  'paydesk-redirect': CustomEvent<PaydeskRedirectDetail>;
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
