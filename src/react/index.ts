/**
 * `paydesk/react`: `<paydesk-checkout>` as a React component, made with `@lit/react`.
 *
 * Properties are set as DOM properties (so `messages` takes an object), attributes as attributes, and
 * the element's DOM events arrive through typed props: `onPaydeskPaid={(e) => e.detail.order}`.
 * Importing this module registers the element (through `paydesk`), like importing `paydesk` does.
 *
 * @example
 * ```tsx
 * import { PaydeskCheckout } from 'paydesk/react';
 *
 * <PaydeskCheckout
 *   endpoint="/api/paydesk"
 *   orderRef="tee-black-m"
 *   onPaydeskPaid={(e) => console.log('paid', e.detail.order.id)}
 *   onPaydeskError={(e) => console.warn(e.detail.code, e.detail.message)}
 * />
 * ```
 */
// React 19 ships CommonJS only: the default import (module.exports) is the one every bundler and Node agree on.
import React from 'react';
import { createComponent, type EventName, type ReactWebComponent } from '@lit/react';
import '../index.js';
import { PaydeskCheckout as PaydeskCheckoutElement } from '../element/paydesk-checkout.js';
import { TAG } from '../element/define.js';
import type { PaydeskEventMap } from '../element/events.js';

/** React prop name → DOM event name of every event the element fires. */
export const PAYDESK_REACT_EVENTS = {
  onPaydeskReady: 'paydesk-ready' as EventName<PaydeskEventMap['paydesk-ready']>,
  onPaydeskSession: 'paydesk-session' as EventName<PaydeskEventMap['paydesk-session']>,
  onPaydeskStatus: 'paydesk-status' as EventName<PaydeskEventMap['paydesk-status']>,
  onPaydeskPaid: 'paydesk-paid' as EventName<PaydeskEventMap['paydesk-paid']>,
  onPaydeskExpired: 'paydesk-expired' as EventName<PaydeskEventMap['paydesk-expired']>,
  onPaydeskError: 'paydesk-error' as EventName<PaydeskEventMap['paydesk-error']>,
  onPaydeskRedirect: 'paydesk-redirect' as EventName<PaydeskEventMap['paydesk-redirect']>,
  onPaydeskMethod: 'paydesk-method' as EventName<PaydeskEventMap['paydesk-method']>,
  onPaydeskCopy: 'paydesk-copy' as EventName<PaydeskEventMap['paydesk-copy']>,
  onPaydeskBankApp: 'paydesk-bank-app' as EventName<PaydeskEventMap['paydesk-bank-app']>,
  onPaydeskReceipt: 'paydesk-receipt' as EventName<PaydeskEventMap['paydesk-receipt']>,
} as const;

export type PaydeskReactEvents = typeof PAYDESK_REACT_EVENTS;

/** The React component of `<paydesk-checkout>`; a `ref` gives the element (`result`, `start()`, `reset()`). */
export const PaydeskCheckout: ReactWebComponent<PaydeskCheckoutElement, PaydeskReactEvents> = createComponent({
  react: React,
  tagName: TAG,
  elementClass: PaydeskCheckoutElement,
  events: PAYDESK_REACT_EVENTS,
  displayName: 'PaydeskCheckout',
});

/** Props of {@link PaydeskCheckout}. */
export type PaydeskCheckoutProps = React.ComponentProps<typeof PaydeskCheckout>;

export type { PaydeskCheckoutElement };
export type {
  CheckoutState,
  PaydeskEventMap,
  PaydeskEventName,
  PaydeskReadyDetail,
  PaydeskSessionDetail,
  PaydeskStatusDetail,
  PaydeskOrderDetail,
  PaydeskErrorDetail,
  PaydeskRedirectDetail,
  PaydeskFunnelDetail,
  PaydeskMethodDetail,
  PaydeskCopyField,
  PaydeskCopyDetail,
  PaydeskBankAppDetail,
  PaydeskReceiptDetail,
  PaydeskLanguage,
  PaydeskLocale,
  OrderView,
} from '../element/index.js';
