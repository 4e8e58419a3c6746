/**
 * Facts about the provider that provider-api.md leaves "not shown", taken from provider-notes.md.
 * Every such value lives here, in one place, so it is easy to change when the provider says more.
 */

/** Order statuses seen in the current API. */
export const ORDER_STATUSES = ['Unpaid', 'Completed', 'CanceledByTimeout', 'CanceledByService'] as const;
/** Statuses of an older API of the same provider; still mapped so a surprise never crashes a client. */
export const LEGACY_ORDER_STATUSES = [
  'Processing',
  'Queued',
  'Paid',
  'CanceledByAdmin',
  'CanceledByTrader',
  'CanceledByMerchant',
  'CanceledByCustomer',
] as const;
export type KnownOrderStatus = (typeof ORDER_STATUSES)[number] | (typeof LEGACY_ORDER_STATUSES)[number];
declare const unknownValue: unique symbol;
/**
 * A value of a provider enum that this version does not know (a new status, a new method type). At
 * runtime it stays the provider's string, so nothing is lost and nothing crashes; its type is apart
 * from the known literals, so a typo (`status === 'Complete'`) or a plain `string` does not compile,
 * and a `switch` over the known values needs its `default` for it. Narrow with {@link isKnown}.
 */
export type UnknownValue = string & { readonly [unknownValue]: 'UnknownValue' };
/** True when `value` is one of `known` (narrows away {@link UnknownValue}). */
export function isKnown<T extends string>(known: readonly T[], value: T | UnknownValue | string): value is T {
  return (known as readonly string[]).includes(value);
}
/** An order status: a known value, or {@link UnknownValue} for any other string the provider sends. */
export type OrderStatus = KnownOrderStatus | UnknownValue;

/** What a status means for the shopper and the merchant. `unknown` is treated as still pending. */
export type OrderOutcome = 'pending' | 'paid' | 'expired' | 'cancelled';

// Made at the first look-up: a module-level `new Map(list.map(…))` is kept by bundlers even where
// nothing reads it (it was 100 B gzip of the element's pay-view chunk, which imports this module).
let knownByLowerCase: ReadonlyMap<string, KnownOrderStatus> | undefined;

/**
 * The known status a provider status names, as the document spells it, or null. The case is not
 * relied on (provider-notes.md: merchants compare the status case-insensitively): `COMPLETED` is
 * `Completed`, not an unknown word.
 */
export function knownStatus(status: string): KnownOrderStatus | null {
  knownByLowerCase ??= new Map([...ORDER_STATUSES, ...LEGACY_ORDER_STATUSES].map((s): [string, KnownOrderStatus] => [s.toLowerCase(), s]));
  return knownByLowerCase.get(status.trim().toLowerCase()) ?? null;
}

/** Maps any provider status (known in any case, legacy or unknown) to a safe outcome; unknown → pending. */
export function orderOutcome(status: string): OrderOutcome {
  switch (knownStatus(status)) {
    case 'Completed':
    case 'Paid':
      return 'paid';
    case 'CanceledByTimeout':
      return 'expired';
    case 'CanceledByService':
    case 'CanceledByAdmin':
    case 'CanceledByTrader':
    case 'CanceledByMerchant':
    case 'CanceledByCustomer':
      return 'cancelled';
    default:
      return 'pending';
  }
}

export const ORDER_SIDES = ['Buy', 'Sell'] as const;
export type OrderSide = (typeof ORDER_SIDES)[number];

/** `method_type` values seen; only `SBP` and `BankCard` are in the document itself. */
export const METHOD_TYPES = ['BankCard', 'TransBankCard', 'SBP', 'TransSBP', 'BankAccount', 'NSPKLink'] as const;
export type KnownMethodType = (typeof METHOD_TYPES)[number];
export type MethodType = KnownMethodType | UnknownValue;

export const BUTTON_NAMES = ['AlfaPay', 'SberPay', 'TPay', 'VTBPay'] as const;
export type ButtonName = (typeof BUTTON_NAMES)[number];

export const CUSTOMER_BANKS = ['sberbank', 'vtb', 'tinkoff', 'alfabank'] as const;
export type CustomerBank = (typeof CUSTOMER_BANKS)[number];

export const TRANSACTION_TYPES = ['deposit', 'withdrawal'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export const ORDER_SORT_FIELDS = ['created_at', 'amount'] as const;
export type OrderSortField = (typeof ORDER_SORT_FIELDS)[number];
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/**
 * Terminal currencies seen in merchants' settings (provider-notes.md: one terminal = one currency).
 * The document's own examples are RUB only.
 */
export const CURRENCIES = ['RUB', 'UZS', 'KZT', 'AZN', 'TJS', 'EUR'] as const;

/**
 * Ids of the aggregate payment methods, the same on every terminal (hard-coded by merchants'
 * production clients, provider-notes.md). Bank methods have ids of their own per terminal.
 */
export const AGGREGATE_METHOD_IDS = {
  BankCard: '8fe3669a-a448-4053-bc4b-43bb51cb3e9d',
  TransBankCard: '560a0a52-3531-44b7-8f7b-5b6dbe5c04e1',
  SBP: '2ec6dbd6-49a5-45d0-bd6d-b0134ee4639a',
  TransSBP: 'c154be74-5e4e-4edb-85c2-d2aa175165f5',
  BankAccount: '465b838e-1411-4435-a8d5-b9e0b533e9b6',
  NSPKLink: 'd3a8d0f7-a8c8-43c7-b77e-61018efc4c4d',
} as const satisfies Record<(typeof METHOD_TYPES)[number], string>;

/**
 * Form session states. Only `requisites_found` is in the document; the sandbox defines the full set
 * (see README): method selection → requisites search (may repeat) → requisites_found → payment
 * confirmation → completed | expired | cancelled.
 */
export const FORM_SESSION_STATES = [
  'method_selection',
  'requisites_search',
  'requisites_found',
  'payment_confirmation',
  'completed',
  'expired',
  'cancelled',
] as const;
export type FormSessionState = (typeof FORM_SESSION_STATES)[number] | UnknownValue;

export const WEBHOOK_TYPES = ['buy_update', 'sell_update'] as const;
export type WebhookType = (typeof WEBHOOK_TYPES)[number] | UnknownValue;

/** Unpaid orders expire this long after creation (seen in samples). */
export const ORDER_LIFETIME_SECONDS = 30 * 60;

/** NSPK (SBP) member ids of banks. */
export const NSPK_MEMBER_IDS = {
  sber: '100000000111',
  tbank: '100000000004',
  vtb: '100000000005',
  alfa: '100000000008',
  raiffeisen: '100000000007',
  gazprombank: '100000000001',
  psb: '100000000010',
  sovcombank: '100000000013',
  mtsbank: '100000000017',
  yoomoney: '100000000022',
} as const;

/** The four banks that `button_name` and `customer_bank` both name, with their SBP identities. */
export const BANKS: ReadonlyArray<{
  customerBank: CustomerBank;
  buttonName: ButtonName;
  memberId: string;
  /**
   * The member id in NSPK's list of SBP members (c2bmembers, the bank sheet's table), where it is not
   * `memberId`: VTB is 110000000005 there (its app's scheme `bank110000000005`), 100000000005 in links.
   */
  listedMemberId?: string;
  /** `nspk_code` as the provider writes it (the SBP scheme name of the bank). */
  nspkCode: string;
  name: { ru: string; en: string };
}> = [
  { customerBank: 'sberbank', buttonName: 'SberPay', memberId: NSPK_MEMBER_IDS.sber, nspkCode: `bank${NSPK_MEMBER_IDS.sber}`, name: { ru: 'Сбербанк', en: 'Sber' } },
  { customerBank: 'tinkoff', buttonName: 'TPay', memberId: NSPK_MEMBER_IDS.tbank, nspkCode: `bank${NSPK_MEMBER_IDS.tbank}`, name: { ru: 'Т-Банк', en: 'T-Bank' } },
  { customerBank: 'vtb', buttonName: 'VTBPay', memberId: NSPK_MEMBER_IDS.vtb, listedMemberId: '110000000005', nspkCode: `bank${NSPK_MEMBER_IDS.vtb}`, name: { ru: 'ВТБ', en: 'VTB' } },
  { customerBank: 'alfabank', buttonName: 'AlfaPay', memberId: NSPK_MEMBER_IDS.alfa, nspkCode: `bank${NSPK_MEMBER_IDS.alfa}`, name: { ru: 'Альфа-Банк', en: 'Alfa-Bank' } },
];

export function bankByButtonName(name: string) {
  return BANKS.find((b) => b.buttonName === name);
}
export function bankByCustomerBank(name: string) {
  return BANKS.find((b) => b.customerBank === name);
}
/** The bank of a member id, as payment links or as NSPK's list of SBP members write it. */
export function bankByMemberId(id: string) {
  return BANKS.find((b) => b.memberId === id || b.listedMemberId === id);
}
export function bankByNspkCode(code: string | null | undefined) {
  if (!code) return undefined;
  return BANKS.find((b) => b.nspkCode === code || b.memberId === code);
}

/**
 * CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, xorout 0), as used by the `crc`
 * parameter of NSPK payment links, over the UTF-8 text before `&crc=`. Upper-case hex, 4 digits.
 */
export function crc16ccitt(text: string): string {
  let crc = 0xffff;
  const bytes = new TextEncoder().encode(text);
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** True when an NSPK link's `crc` matches its text. */
export function verifyNspkLinkCrc(link: string): boolean {
  const at = link.lastIndexOf('&crc=');
  if (at < 0) return false;
  return crc16ccitt(link.slice(0, at)) === link.slice(at + 5).toUpperCase();
}

/**
 * Error messages. The H2H ones are the document's exact texts. The form-creation, auth and
 * rate-limit texts are not shown in the document: these are the sandbox's, and the client maps
 * them by status and endpoint as well, so a different wording from the real provider still maps.
 */
export const PROVIDER_MESSAGES = {
  no_payment_method: 'Payment method ID or method type is required',
  customer_account_required: 'Customer account is required',
  insufficient_funds:
    'Insufficient funds. The order amount exceeds the available balance. Please deposit more funds and try again.',
  payment_method_not_found: 'Payment method not found',
  amount_out_of_limits:
    "Expectation Failed. Amount for the chosen payment method doesn't meet limits. Check payment method limits and try again.",
  customer_blacklisted: 'Customer account is blacklisted',
  user_pending_limit: 'User has reached the maximum limit of pending orders. Please try again later.',
  no_traders:
    'No available traders that match order requirements. Please, try again later or change order parameters.',
  // Not shown in the document (sandbox wording):
  form_sell_not_allowed: 'The payment form accepts only order_side Buy',
  button_not_enabled: 'button_name is not enabled in the payment method configuration of the terminal',
  form_not_activated: 'The payment form is not activated on the terminal',
  rate_limited: 'Request limit exceeded. Please try again later.',
  unauthorized: 'Invalid or missing API key',
  /** `GET /api/v1/order/{id}` and `POST /api/v1/disputes/create` for an id the terminal does not have. */
  order_not_found: 'Order not found',
} as const;

/** What a requisite is, for showing it: a card number, a phone, a bank account or a payment link. */
export type RequisitesKind = 'card' | 'phone' | 'account' | 'link';

/**
 * The kind of requisite a method type hands out (provider-notes.md, "Requisites"). For a type not
 * seen yet, the shape of `holderAccount` decides; an unknown shape is an account.
 */
export function requisitesKindOf(methodType: string, holderAccount = ''): RequisitesKind {
  switch (methodType) {
    case 'BankCard':
    case 'TransBankCard':
      return 'card';
    case 'SBP':
    case 'TransSBP':
      return 'phone';
    case 'BankAccount':
      return 'account';
    case 'NSPKLink':
      return 'link';
  }
  const compact = holderAccount.replace(/[\s-]/g, '');
  if (/^https?:\/\//i.test(compact)) return 'link';
  if (/^\+\d{10,15}$/.test(compact)) return 'phone';
  if (/^\d{16,19}$/.test(compact)) return 'card';
  if (/^[78]\d{10}$/.test(compact)) return 'phone';
  return 'account';
}
