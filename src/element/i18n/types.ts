/**
 * The typed message table of `<paydesk-checkout>`.
 *
 * A table is plain data: strings with `{name}` placeholders, and {@link Plural} objects whose forms
 * are chosen with `Intl.PluralRules` (`{n}` is the number, formatted with `Intl.NumberFormat`).
 * Money and times arrive already formatted through `Intl`; a table never formats numbers itself.
 *
 * A language file (`src/element/i18n/<lang>.ts`) has exactly this shape:
 *
 * ```ts
 * import type { Messages } from './types.js';
 * const messages: Messages = { ... every key ... };
 * export default messages;
 * ```
 */

/** Plural forms as `Intl.PluralRules#select` names them; `other` is required. */
export type Plural = { other: string } & Partial<Record<'zero' | 'one' | 'two' | 'few' | 'many', string>>;

/** Error codes that have their own sentence. Any other code shows `error.default` (or the server's text). */
export const MESSAGE_ERROR_CODES = [
  'default',
  'config',
  'network',
  'timeout',
  'invalid_response',
  'provider_unavailable',
  'rate_limited',
  'no_traders',
  'method_unavailable',
  'no_payment_method',
  'payment_method_not_found',
  'amount_out_of_limits',
  'customer_blacklisted',
  'button_not_enabled',
  'form_not_activated',
  'order_not_found',
  'session_invalid',
  'session_expired',
  'forbidden_origin',
  'idempotency_conflict',
] as const;
export type MessageErrorCode = (typeof MESSAGE_ERROR_CODES)[number];

export interface Messages {
  /** Accessible name of the whole checkout region. */
  region: string;
  /** Button in the idle state. */
  start: string;
  loading: string;
  retry: string;
  copy: string;
  /** Visible label of a copy button right after copying. */
  copied: string;
  /** Announced to screen readers after copying; `{what}` is the field label. */
  copiedAnnounce: string;
  copyFailed: string;

  chooseTitle: string;
  chooseHint: string;
  /** `{fee}` formatted money. */
  fee: string;
  noFee: string;
  /** `{total}` formatted money. */
  total: string;

  searchingTitle: string;
  searchingText: string;

  payTitle: string;
  amountLabel: string;
  /** Shown under every amount. */
  amountExact: string;
  /** Shown when `unique_amount` moved the amount: `{amount}` to send, `{requested}` the price. */
  amountChanged: string;
  cardLabel: string;
  phoneLabel: string;
  accountLabel: string;
  linkLabel: string;
  holderLabel: string;
  bankLabel: string;
  methodLabel: string;
  /** Label of the `role="timer"` countdown. */
  timerLabel: string;
  /** `{time}` a wall-clock time formatted with `Intl.DateTimeFormat`. */
  payBy: string;
  /** Announced at a few thresholds. */
  minutesLeft: Plural;
  lastMinute: string;
  /** Text alternative of the QR code; `{amount}` formatted money. */
  qrLabel: string;
  qrHint: string;
  openBankApp: string;
  /** `{bank}` the bank's name. */
  openInBank: string;
  otherBanks: string;
  iPaid: string;
  openForm: string;
  formTitle: string;
  support: string;
  returnToShop: string;

  confirmingTitle: string;
  confirmingText: string;

  paidTitle: string;
  /** `{amount}` formatted money. */
  paidText: string;
  redirectIn: Plural;
  redirectNow: string;

  expiredTitle: string;
  expiredText: string;
  renew: string;

  cancelledTitle: string;
  cancelledText: string;

  errorTitle: string;
  errors: Record<MessageErrorCode, string>;
}

/** What a merchant may override: any top-level key, and any error sentence. */
export type MessageOverrides = Partial<Omit<Messages, 'errors'>> & { errors?: Partial<Record<string, string>> };
