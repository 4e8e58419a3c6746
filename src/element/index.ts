/**
 * `paydesk/element`: the `<paydesk-checkout>` class and its types, without registering anything.
 * Import `paydesk` (or call `define()`) to register the tag.
 */
export { PaydeskCheckout } from './paydesk-checkout.js';
export type { CheckoutEnv } from './env.js';
export type { PaydeskLanguage, PaydeskLocale, Theme } from './config.js';
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
  PaydeskFunnelDetail,
  PaydeskMethodDetail,
  PaydeskCopyField,
  PaydeskCopyDetail,
  PaydeskBankAppDetail,
  PaydeskReceiptDetail,
} from './events.js';
export type { Messages, MessageOverrides, Plural } from './i18n/index.js';
export { safeHttpUrl } from '../protocol/url.js';
export type { OrderView, PaymentMethodView } from '../protocol/index.js';
