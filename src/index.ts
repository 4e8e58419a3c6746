/**
 * `paydesk`: registers `<paydesk-checkout>` (safe to import twice, or next to another copy) and
 * re-exports the class, its events and types: the names of `paydesk/element`, listed (api/paydesk.api.md).
 */
import { define } from './element/define.js';

define();

export { define, PaydeskCheckout, safeHttpUrl, TAG } from './element/index.js';
export type {
  CheckoutEnv,
  CheckoutState,
  MessageOverrides,
  Messages,
  OrderView,
  PaydeskBankAppDetail,
  PaydeskCopyDetail,
  PaydeskCopyField,
  PaydeskErrorDetail,
  PaydeskEventMap,
  PaydeskEventName,
  PaydeskFunnelDetail,
  PaydeskLanguage,
  PaydeskLocale,
  PaydeskMethodDetail,
  PaydeskOrderDetail,
  PaydeskReadyDetail,
  PaydeskReceiptDetail,
  PaydeskRedirectDetail,
  PaydeskSessionDetail,
  PaydeskStatusDetail,
  PaymentMethodView,
  Plural,
  Theme,
} from './element/index.js';
