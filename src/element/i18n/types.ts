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

import { PROTOCOL_ERROR_CODES, type ProtocolErrorCode } from '../../protocol/index.js';

/**
 * Error codes that have their own sentence: every code of the widget protocol (`PROTOCOL_ERROR_CODES`,
 * so a table without one fails the type check), `default` and `config` (the element's own).
 */
export type MessageErrorCode = 'default' | 'config' | ProtocolErrorCode;
export const MESSAGE_ERROR_CODES: readonly MessageErrorCode[] = ['default', 'config', ...PROTOCOL_ERROR_CODES];

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
  close: string;
  back: string;
  /** Label of the order number (`client_order_id`), shown with a copy button. */
  orderLabel: string;

  chooseTitle: string;
  /** Above the amount, shown once. */
  toPay: string;
  /** Ways to pay (by `method_type`) and a line under each. */
  waySbp: string;
  waySbpHint: string;
  wayCard: string;
  wayCardHint: string;
  wayAccount: string;
  wayAccountHint: string;
  wayLink: string;
  wayLinkHint: string;
  waySbpAbroad: string;
  waySbpAbroadHint: string;
  wayCardAbroad: string;
  wayCardAbroadHint: string;
  /** Only when there is a fee: `{fee}` and `{total}` formatted money. */
  feeLine: string;
  /** The second step of a card transfer: the bank of the shopper's card. */
  bankTitle: string;
  bankHint: string;
  otherBank: string;

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
  /** An NSPK-link order whose requisite is a code, not a link. */
  codeLabel: string;
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
  /** Desktop: the QR's heading and the line under it. */
  payFromPhone: string;
  payFromPhoneHint: string;
  /** Phones: opens the bank sheet. */
  payInBankApp: string;
  /** Desktop: opens the sheet of banks with a web client. */
  payOnline: string;
  openLink: string;
  /** `{bank}` the bank's name. */
  openInBank: string;
  iPaid: string;
  openForm: string;
  formTitle: string;
  support: string;
  returnToShop: string;

  sheetTitle: string;
  searchLabel: string;
  noBanks: string;
  lastUsed: string;
  /** The bank's web client, beside its app. */
  onlineBank: string;
  /** `{date}` the day of NSPK's list, formatted. */
  listDate: string;

  confirmingTitle: string;
  confirmingText: string;
  /** Over the requisites or the check while the browser is offline: the status shown may be out of date. */
  offlineStatus: string;
  /** Opens the requisites again while the payment is checked. */
  showDetails: string;
  sendReceipt: string;

  receiptTitle: string;
  /** `{size}` the largest file, formatted. */
  receiptText: string;
  takePhoto: string;
  chooseFiles: string;
  dropHere: string;
  commentLabel: string;
  send: string;
  cancel: string;
  /** `{name}` a file name. */
  remove: string;
  /** `{percent}` 0–100. */
  uploading: string;
  /** `{name}` a file name. */
  fileType: string;
  /** `{name}` a file name, `{size}` the limit. */
  fileSize: string;
  /** `{n}` the most files. */
  tooMany: Plural;
  /** `{size}` the limit for all files. */
  tooLarge: string;
  noFile: string;

  disputeTitle: string;
  disputeText: string;
  disputeClosedTitle: string;
  disputeClosedText: string;

  paidTitle: string;
  /** `{amount}` formatted money. */
  paidText: string;
  /** Paid after the order had ended (a late payment or an accepted receipt); `{amount}` formatted money. */
  paidLateText: string;
  redirectIn: Plural;
  redirectNow: string;

  expiredTitle: string;
  expiredText: string;
  renew: string;

  cancelledTitle: string;
  cancelledText: string;

  goneTitle: string;
  goneText: string;
  newPayment: string;

  errorTitle: string;
  errors: Record<MessageErrorCode, string>;

  // Requisites a shopper can act on (issue 20).
  /** The requisites' row of the recipient's bank (`requisites.bank_name`), as a shopper picks it in a bank app. */
  recipientBank: string;
  /** The bank sheet of a transfer: the apps open without the details, the shopper types them. */
  appsNotFilled: string;
  /** The bank sheet of a transfer: beside an app that opens with the details filled in. */
  filledIn: string;
  // Terminals in other currencies (issue 20).
  /** The line under a cross-border card transfer on a terminal that is not in roubles (not "outside Russia"). */
  wayCardAbroadOtherHint: string;
}

/** What a merchant may override: any top-level key, and any error sentence. */
export type MessageOverrides = Partial<Omit<Messages, 'errors'>> & { errors?: Partial<Record<string, string>> };
