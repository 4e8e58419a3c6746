/**
 * The rules of a payout (a `Sell` order: the provider sends money from the merchant's balance to a
 * card, phone or account), as pure functions shared by the console API (src/console/api.ts), which
 * enforces them, and the console page, which shows them before the operator confirms:
 *
 *   - which payment methods make payouts (those with a `Sell` fee range) and what they pay out to
 *     (provider facts: card, phone or account per method type);
 *   - the Sell range that holds an amount, and the fee and total (amount + fee) it gives, computed
 *     with src/money exactly as the provider does (percent rounded half-up, plus the fixed fee);
 *   - the destination checked by kind: a card number (16 to 19 digits, Luhn), a phone number (Russian
 *     for SBP, international for the cross-border TransSBP), a 20-digit account; and masked for lists
 *     and logs;
 *   - the idempotency key of a payout form and the `client_order_id` it becomes, so a form submitted
 *     twice makes one provider order;
 *   - the method a refund goes by: a phone refund names the shopper's bank (an SBP payout goes to
 *     one bank) whenever several banks pay out by SBP, and a method named pays out to the account's kind.
 *
 * No Node and no browser APIs here: both sides import it.
 */
import { applyFee, compareAmounts, numberToDecimal } from '../money/index.js';
import { AGGREGATE_METHOD_IDS, bankByCustomerBank, bankByNspkCode, requisitesKindOf } from '../provider/facts.js';

/** What a payout method pays out to. */
export type DestinationKind = 'card' | 'phone' | 'account';
export const DESTINATION_KINDS: readonly DestinationKind[] = ['card', 'phone', 'account'];

/** One `Sell` fee range of a method, as exact decimal strings. */
export interface SellRange {
  min: string;
  max: string;
  /** Variable fee, percent of the amount. */
  fee: string;
  fixed_fee: string | null;
}

/** A payment method that makes payouts (the console API's `GET /payout-methods`). */
export interface PayoutMethod {
  id: string;
  name: string;
  type: string;
  kind: DestinationKind;
  currency: string;
  nspk_code: string | null;
  ranges: SellRange[];
}

/** The provider's payment method as `GET /api/v1/finance/payment_methods` writes it. */
export interface ProviderMethodLike {
  method_id: string;
  method_name: string;
  method_type: string;
  method_currency: string;
  nspk_code: string | null;
  ranges: ReadonlyArray<{ fee_side: string; min_amount: number; max_amount: number; fee: number; fixed_fee: number | null }>;
}

/** The method as a payout method, or null when it makes no payouts (no Sell range, or it pays to a link). */
export function payoutMethodOf(m: ProviderMethodLike): PayoutMethod | null {
  const kind = requisitesKindOf(m.method_type);
  if (kind === 'link') return null;
  const ranges = m.ranges
    .filter((r) => r.fee_side === 'Sell')
    .map((r) => ({
      min: numberToDecimal(r.min_amount),
      max: numberToDecimal(r.max_amount),
      fee: numberToDecimal(r.fee),
      fixed_fee: r.fixed_fee ? numberToDecimal(r.fixed_fee) : null,
    }))
    .sort((a, b) => compareAmounts(a.min, b.min));
  if (ranges.length === 0) return null;
  return { id: m.method_id, name: m.method_name, type: m.method_type, kind, currency: m.method_currency, nspk_code: m.nspk_code, ranges };
}

/** The lowest minimum and highest maximum of a method's Sell ranges. */
export function payoutLimits(method: PayoutMethod): { min: string; max: string } {
  const min = method.ranges.reduce((a, r) => (compareAmounts(r.min, a) < 0 ? r.min : a), method.ranges[0]!.min);
  const max = method.ranges.reduce((a, r) => (compareAmounts(r.max, a) > 0 ? r.max : a), method.ranges[0]!.max);
  return { min, max };
}

export interface PayoutQuote {
  amount: string;
  fee: string;
  /** amount + fee: what leaves the balance (the provider freezes it, then withdraws it). */
  total: string;
  currency: string;
  range: SellRange;
}

/**
 * The fee and total of paying out `amount` with `method`, or why not. `amount` is a decimal string
 * already normalised to the currency's digits (src/money `parseAmount`).
 */
export function quotePayout(
  method: PayoutMethod,
  amount: string,
): { ok: true; quote: PayoutQuote } | { ok: false; problem: 'out_of_limits'; min: string; max: string } {
  const range = method.ranges.find((r) => compareAmounts(amount, r.min) >= 0 && compareAmounts(amount, r.max) <= 0);
  if (!range) return { ok: false, problem: 'out_of_limits', ...payoutLimits(method) };
  const { fee, total } = applyFee(amount, { percent: range.fee, fixed: range.fixed_fee }, method.currency);
  return { ok: true, quote: { amount, fee, total, currency: method.currency, range } };
}

// ---------------------------------------------------------------------------------------------
// Refunds: which method, and which bank

/**
 * What an account typed for a refund is, by its shape: a phone (`+…`, or 11 digits from 7 or 8), a
 * card number (16 to 19 digits), a bank account (20 digits); null for anything else.
 */
export function accountKindOf(account: string): DestinationKind | null {
  const compact = account.trim().replace(/[\s\-().\u00a0]/g, '');
  if (/^\+/.test(compact) || /^[78]\d{10}$/.test(compact)) return 'phone';
  if (/^\d{16,19}$/.test(compact)) return 'card';
  if (/^\d{20}$/.test(compact)) return 'account';
  return null;
}

/** The aggregate SBP method routes a payment to some bank; it pays out to none (provider-api.md: Buy only). */
const toNoBank = (m: PayoutMethod) => m.id === AGGREGATE_METHOD_IDS.SBP;

/**
 * The methods a refund to a phone may go by, one per bank: an SBP payout goes to one bank, the one
 * the shopper's phone is registered at, so the merchant names it. With `account`, only the methods
 * that take that number (SBP: Russian numbers); the banks' SBP methods when any pays out, else the
 * other phone methods (the cross-border TransSBP).
 */
export function phoneRefundChoices(methods: readonly PayoutMethod[], account?: string): PayoutMethod[] {
  const phone = methods.filter((m) => m.kind === 'phone' && !toNoBank(m) && (account === undefined || normalizeDestination('phone', account, m.type).ok));
  const sbp = phone.filter((m) => m.type === 'SBP');
  return sbp.length > 0 ? sbp : phone;
}

/**
 * The phone payout method of the bank a payment order names as the shopper's (`customer_bank`:
 * sberbank, vtb, tinkoff, alfabank), matched by the bank's NSPK identity; undefined when the order
 * names none or no choice is of that bank.
 */
export function choiceOfCustomerBank(choices: readonly PayoutMethod[], customerBank: string | null | undefined): PayoutMethod | undefined {
  const bank = customerBank ? bankByCustomerBank(customerBank) : undefined;
  return bank && choices.find((m) => bankByNspkCode(m.nspk_code) === bank);
}

/** The bank of a payout method by its NSPK identity, in `lang`, else the method's name. */
export function payoutBankName(m: Pick<PayoutMethod, 'name' | 'nspk_code'>, lang: 'en' | 'ru'): string {
  return bankByNspkCode(m.nspk_code)?.name[lang] ?? m.name;
}

export type RefundMethodProblem =
  /** The account is neither a phone nor a card number. */
  | 'account_shape'
  /** No active method pays out to this kind of account. */
  | 'no_method'
  /** A phone refund that does not name its bank while several banks pay out by SBP (`choices`). */
  | 'choose_bank'
  /** The method named pays out to another kind of account (a card method with a phone, or the reverse). */
  | 'wrong_kind'
  | 'unknown_method'
  | 'unknown_type';

export type RefundMethodPick =
  | { ok: true; kind: DestinationKind | null; method: PayoutMethod }
  | { ok: false; kind: DestinationKind | null; field: 'account' | 'method_type' | 'payment_method_id'; problem: RefundMethodProblem; method?: PayoutMethod; choices: PayoutMethod[] };

/**
 * The payout method a refund to `account` goes by, or why there is none. A method named
 * (`payment_method_id`, or `method_type` with a single match) must pay out to the account's kind. A
 * phone refund names its bank whenever more than one bank pays out by SBP: never a guessed one. A
 * card refund without a method takes the first card method, as the card number names its bank.
 * Shared by the refund route and the Refund form, so the fee shown is the fee taken. The account's
 * own format is checked after (`normalizeDestination` with the method).
 */
export function refundMethodFor(methods: readonly PayoutMethod[], account: string, named: { method_type?: string | undefined; payment_method_id?: string | undefined } = {}): RefundMethodPick {
  const kind = accountKindOf(account);
  const fail = (field: 'account' | 'method_type' | 'payment_method_id', problem: RefundMethodProblem, extra: { method?: PayoutMethod; choices?: PayoutMethod[] } = {}): RefundMethodPick => ({ ok: false, kind, field, problem, choices: [], ...extra });
  const ok = (method: PayoutMethod): RefundMethodPick => ({ ok: true, kind, method });
  if (named.payment_method_id !== undefined) {
    const m = methods.find((x) => x.id === named.payment_method_id);
    if (!m) return fail('payment_method_id', 'unknown_method');
    if (kind !== null && m.kind !== kind) return fail('payment_method_id', 'wrong_kind', { method: m });
    if (toNoBank(m)) return fail('payment_method_id', 'choose_bank', { choices: phoneRefundChoices(methods) });
    return ok(m);
  }
  if (named.method_type !== undefined) {
    const ofType = methods.filter((x) => x.type === named.method_type);
    if (ofType.length === 0) return fail('method_type', 'unknown_type');
    if (kind !== null && ofType[0]!.kind !== kind) return fail('method_type', 'wrong_kind', { method: ofType[0]! });
    if (ofType[0]!.kind !== 'phone') return ok(ofType[0]!);
    const banks = ofType.filter((x) => !toNoBank(x));
    const taking = banks.filter((x) => normalizeDestination('phone', account, x.type).ok);
    if (taking.length > 1) return fail('payment_method_id', 'choose_bank', { choices: taking });
    // One method takes the number; none: the account check says why (`normalizeDestination`).
    return taking.length === 1 ? ok(taking[0]!) : banks.length > 0 ? ok(banks[0]!) : fail('payment_method_id', 'choose_bank', { choices: phoneRefundChoices(methods) });
  }
  if (kind === null || kind === 'account') return fail('account', 'account_shape');
  if (kind === 'card') {
    const m = methods.find((x) => x.kind === 'card');
    return m ? ok(m) : fail('account', 'no_method');
  }
  if (phoneRefundChoices(methods).length === 0) return fail('account', 'no_method');
  const choices = phoneRefundChoices(methods, account);
  if (choices.length === 0) return fail('account', 'account_shape');
  return choices.length === 1 ? ok(choices[0]!) : fail('payment_method_id', 'choose_bank', { choices });
}

// ---------------------------------------------------------------------------------------------
// Destinations

export type DestinationProblem = 'empty' | 'card_format' | 'card_checksum' | 'phone_format' | 'account_format';

/**
 * The destination in the form the provider takes (`customer_account`): digits only for a card or an
 * account, `+` and digits for a phone. Spaces, dashes, dots and brackets people type are dropped;
 * a Russian phone may start with 8 or 7.
 */
export function normalizeDestination(
  kind: DestinationKind,
  input: string,
  methodType = '',
): { ok: true; value: string } | { ok: false; problem: DestinationProblem } {
  const compact = input.trim().replace(/[\s\-().\u00a0]/g, '');
  if (compact === '') return { ok: false, problem: 'empty' };
  switch (kind) {
    case 'card':
      if (!/^\d{16,19}$/.test(compact)) return { ok: false, problem: 'card_format' };
      return luhnValid(compact) ? { ok: true, value: compact } : { ok: false, problem: 'card_checksum' };
    case 'phone': {
      // SBP pays to Russian numbers; the cross-border TransSBP to any international number.
      const russian = /^(?:\+7|7|8)(\d{10})$/.exec(compact);
      if (russian) return { ok: true, value: `+7${russian[1]}` };
      if (methodType !== 'SBP' && /^\+[1-9]\d{9,14}$/.test(compact)) return { ok: true, value: compact };
      return { ok: false, problem: 'phone_format' };
    }
    case 'account':
      return /^\d{20}$/.test(compact) ? { ok: true, value: compact } : { ok: false, problem: 'account_format' };
  }
}

/** The Luhn checksum of a card number (digits only). */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const HIDDEN = '•';

/**
 * A destination for lists and logs: a card keeps its first six and last four digits (`2200 00•• ••••
 * 1234`, as card schemes allow), a phone its country code, operator and last two digits
 * (`+7 999 •••-••-67`), an account its first five and last four digits.
 */
export function maskDestination(kind: DestinationKind | string, value: string | null | undefined): string {
  if (!value) return '—';
  if (kind === 'card' && /^\d{12,19}$/.test(value)) {
    const masked = value.slice(0, 6) + HIDDEN.repeat(value.length - 10) + value.slice(-4);
    return masked.replace(/(.{4})(?=.)/g, '$1 ');
  }
  if (kind === 'phone') {
    const ru = /^\+7(\d{3})\d{5}(\d{2})$/.exec(value);
    if (ru) return `+7 ${ru[1]} ${HIDDEN.repeat(3)}-${HIDDEN.repeat(2)}-${ru[2]}`;
    if (/^\+\d{8,15}$/.test(value)) return `${value.slice(0, 4)} ${HIDDEN.repeat(value.length - 6)} ${value.slice(-2)}`;
  }
  if (kind === 'account' && /^\d{20}$/.test(value)) return `${value.slice(0, 5)} ${HIDDEN.repeat(4)} ${HIDDEN.repeat(4)} ${value.slice(-4)}`;
  return value.length > 4 ? `${HIDDEN.repeat(4)} ${value.slice(-4)}` : HIDDEN.repeat(4);
}

/** A destination written out in full for the confirmation step: `2200 0000 0000 1234`, `+7 999 123-45-67`. */
export function formatDestination(kind: DestinationKind, value: string): string {
  if (kind === 'card') return value.replace(/(\d{4})(?=\d)/g, '$1 ');
  if (kind === 'phone') {
    const ru = /^\+7(\d{3})(\d{3})(\d{2})(\d{2})$/.exec(value);
    if (ru) return `+7 ${ru[1]} ${ru[2]}-${ru[3]}-${ru[4]}`;
    return value;
  }
  return value.replace(/^(\d{5})(\d{3})(\d)(\d{4})(\d{7})$/, '$1 $2 $3 $4 $5');
}

/** The kind of destination of a payout order, from its method type (for orders read back from the provider). */
export function destinationKindOf(methodType: string, account = ''): DestinationKind {
  const kind = requisitesKindOf(methodType, account);
  return kind === 'link' ? 'account' : kind;
}

// ---------------------------------------------------------------------------------------------
// Idempotency

/**
 * The key a payout form carries (generated once per form by the page): 16 to 48 URL-safe characters.
 * Its payout's `client_order_id` is `payout-<key>`, so a second submit of the same form finds the
 * order the first one made instead of making another.
 */
export const PAYOUT_KEY = /^[A-Za-z0-9_-]{16,48}$/;
export const PAYOUT_CLIENT_ORDER_PREFIX = 'payout-';

export function payoutClientOrderId(key: string): string {
  if (!PAYOUT_KEY.test(key)) throw new RangeError('a payout key is 16 to 48 characters from A-Z, a-z, 0-9, _ and -');
  return `${PAYOUT_CLIENT_ORDER_PREFIX}${key}`;
}
