/**
 * `paydesk/element`: the `<paydesk-checkout>` class and its types, without registering anything.
 * Import `paydesk` (or call `define()`) to register the tag.
 */
export { PaydeskCheckout, type CheckoutEnv, type PaydeskLanguage, type PaydeskLocale, type Theme } from './paydesk-checkout.js';
export { define, TAG } from './define.js';
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
} from './events.js';
export type { Messages, MessageOverrides, Plural } from './i18n/index.js';
export { safeHttpUrl } from './url.js';
export type { OrderView, PaymentMethodView } from '../protocol/index.js';
