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
 *     twice makes one provider order.
 *
 * No Node and no browser APIs here: both sides import it.
 */
import { applyFee, compareAmounts, numberToDecimal } from '../money/index.js';
import { requisitesKindOf } from '../provider/index.js';

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

/**
 * The payout method a refund to `account` uses when none is named: a phone (`+…`, or 11 digits from
 * 7 or 8) goes by SBP (else another phone method), a card number of 16 to 19 digits by a card method.
 * Shared by the refund route and its confirm step, so the fee shown is the fee taken.
 */
export function refundMethodFor(methods: readonly PayoutMethod[], account: string): { kind: 'phone' | 'card'; method: PayoutMethod | null } | null {
  const compact = account.replace(/[\s\-().\u00a0]/g, '');
  const kind = /^\+/.test(compact) || /^[78]\d{10}$/.test(compact) ? 'phone' : /^\d{16,19}$/.test(compact) ? 'card' : null;
  if (!kind) return null;
  return { kind, method: methods.find((x) => x.kind === kind && (kind !== 'phone' || x.type === 'SBP')) ?? methods.find((x) => x.kind === kind) ?? null };
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
