/**
 * Pure formatting of the requisites the shopper reads and copies (by kind) and the "amount was
 * changed" check. Used by the pay view and the bank-app links, which are loaded on demand, so it is
 * kept apart from format.ts (needed at once). Amounts are compared as text, never as binary floats.
 */
import type { OrderView, RequisitesKind } from '../protocol/index.js';
import { safeHttpUrl } from '../protocol/url.js';

/**
 * The protocol's amount (protocol/answers.ts `DECIMAL`), written out here so that an app's bundler
 * keeps the order's checks with the element's own code rather than in a chunk of their own for the
 * views' sake (test/node/element/format.test.ts checks that they agree).
 */
export const DECIMAL = /^\d+(\.\d+)?$/;

const digitsOf = (s: string): string => s.replace(/\D/g, '');

/** A Russian phone number as 11 digits starting with 7, or null (`8 999…` and `+7…` both count). */
export function russianPhoneDigits(value: string): string | null {
  const d = digitsOf(value);
  if (d.length === 11 && (d[0] === '7' || d[0] === '8')) return `7${d.slice(1)}`;
  if (d.length === 10 && d[0] === '9' && !value.trim().startsWith('+')) return `7${d}`;
  return null;
}

/** A card number as its 12–19 digits (spaces and dashes allowed between them), or null. */
export function cardDigits(value: string): string | null {
  const pan = value.replace(/[\s-]/g, '');
  return /^\d{12,19}$/.test(pan) ? pan : null;
}

/**
 * The holder account as people read it:
 * card `4627 1001 0165 4724`, phone `+7 (999) 123-45-67`, 20-digit account `40817 810 0 9999 1234567`.
 * Anything that does not fit its kind is shown as sent.
 */
export function formatAccount(value: string, kind: RequisitesKind): string {
  const d = digitsOf(value);
  const p = russianPhoneDigits(value);
  return kind === 'card' && d.length > 11 && d.length < 20 && /^[\d\s-]+$/.test(value)
    ? d.replace(/(\d{4})(?=\d)/g, '$1 ')
    : kind === 'phone' && p
      ? p.replace(/7(\d{3})(\d{3})(\d\d)/, '+7 ($1) $2-$3-')
      : kind === 'account' && d.length === 20 && /^[\d\s]+$/.test(value)
        ? d.replace(/(\d{5})(\d{3})(\d)(\d{4})/, '$1 $2 $3 $4 ')
        : value;
}

/** What the copy button puts on the clipboard: the number without spaces (`+7…` for phones). */
export function copyValue(value: string, kind: RequisitesKind): string {
  const p = kind === 'phone' && russianPhoneDigits(value);
  return p ? `+${p}` : kind !== 'phone' && kind !== 'link' && /^[\d\s-]+$/.test(value) ? digitsOf(value) : value.trim();
}

/** A decimal string without leading zeros of the whole part and trailing zeros of the fraction. */
const canonical = (amount: string): string => amount.replace(/^0+(?=\d)/, '').replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');

/**
 * The amount the merchant asked for when `unique_amount` moved the amount to send; null when the
 * amounts are equal, absent or not comparable.
 */
export function changedFrom(order: Pick<OrderView, 'amount' | 'requested_amount'>): string | null {
  const requested = order.requested_amount;
  return requested && DECIMAL.test(requested) && DECIMAL.test(order.amount) && canonical(requested) !== canonical(order.amount) ? requested : null;
}

/** The order's SBP payment link (`payment_link`, else a link-kind requisite that is a link), if safe. */
export function paymentLinkOf(order: Pick<OrderView, 'payment_link' | 'requisites'>): string | null {
  const req = order.requisites;
  return safeHttpUrl(order.payment_link) ?? (req?.kind === 'link' ? safeHttpUrl(req.holder_account) : null);
}

/**
 * True when a bank app can take the shopper to this payment: an SBP link; or a transfer in roubles
 * (the bank table is of Russian banks) to a Russian phone, a card number or an account.
 */
export function hasBankApps(order: Pick<OrderView, 'payment_link' | 'requisites'> & Partial<Pick<OrderView, 'currency'>>): boolean {
  const req = order.requisites;
  if (paymentLinkOf(order) !== null) return true;
  if (!req || (order.currency ?? 'RUB') !== 'RUB') return false;
  return (
    (req.kind === 'phone' && russianPhoneDigits(req.holder_account) !== null) ||
    (req.kind === 'card' && cardDigits(req.holder_account) !== null) ||
    (req.kind === 'account' && req.holder_account.trim() !== '')
  );
}
