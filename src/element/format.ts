/**
 * Pure formatting of what the shopper reads and copies: amounts, requisites by kind, the countdown,
 * and the "amount was changed" check. Amounts stay decimal strings: they are compared and rounded as
 * text and handed to `Intl.NumberFormat` as strings, never as binary floats.
 */
import { DECIMAL, type OrderView, type RequisitesKind } from '../protocol/index.js';

const digitsOf = (s: string): string => s.replace(/\D/g, '');

const formats = new Map<string, Intl.NumberFormat>();

/**
 * An amount for people, in kopecks: `formatAmount('1500', 'RUB', 'ru')` → `1 500,00 ₽`, with `en` →
 * `RUB 1,500.00`. Rounded half-up on the string (so even an `Intl` that reads strings as floats gets
 * the exact value); a locale or currency `Intl` refuses falls back to English digits without a sign.
 * Every currency the provider uses has two fractional digits (src/money, `CURRENCY_DIGITS`).
 */
export function formatAmount(amount: string, currency: string, locale: string): string {
  const key = `${locale} ${currency}`;
  let nf = formats.get(key);
  if (!nf) {
    const digits = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
    try {
      nf = new Intl.NumberFormat(locale, { ...digits, style: 'currency', currency });
    } catch {
      nf = new Intl.NumberFormat('en', digits);
    }
    formats.set(key, nf);
  }
  const [whole, fraction = ''] = amount.split('.');
  let exact = amount;
  if (fraction.length > 2) {
    // Half-up to two digits: drop the rest, add one kopeck when the first dropped digit is 5 or more.
    const kopecks = String(BigInt(whole! + fraction.slice(0, 2)) + BigInt(fraction[2]! > '4')).padStart(3, '0');
    exact = `${kopecks.slice(0, -2)}.${kopecks.slice(-2)}`;
  }
  return nf.format(exact as unknown as number);
}

/** A Russian phone number as 11 digits starting with 7, or null (`8 999…` and `+7…` both count). */
export function russianPhoneDigits(value: string): string | null {
  const d = digitsOf(value);
  if (d.length === 11 && (d[0] === '7' || d[0] === '8')) return `7${d.slice(1)}`;
  if (d.length === 10 && d[0] === '9' && !value.trim().startsWith('+')) return `7${d}`;
  return null;
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

/** `mm:ss` below an hour, `h:mm:ss` above; negative values read `0:00`. Rounds up to whole seconds. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const pad = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(total / 3600);
  const m = Math.floor(total / 60) % 60;
  return `${h ? `${h}:${pad(m)}` : m}:${pad(total % 60)}`;
}
