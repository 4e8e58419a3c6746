/**
 * Pure formatting of what the shopper reads and copies: requisites by kind, the countdown, and the
 * "amount was changed" check. Money itself is formatted by `formatMoney` of src/money (Intl).
 */
import { compareAmounts } from '../money/index.js';
import type { OrderView, RequisitesKind } from '../protocol/index.js';

const digitsOf = (s: string): string => s.replace(/\D/g, '');

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
  switch (kind) {
    case 'card':
      return d.length >= 12 && d.length <= 19 && /^[\d\s-]+$/.test(value) ? d.replace(/(\d{4})(?=\d)/g, '$1 ') : value;
    case 'phone': {
      const p = russianPhoneDigits(value);
      if (!p) return value;
      return `+7 (${p.slice(1, 4)}) ${p.slice(4, 7)}-${p.slice(7, 9)}-${p.slice(9)}`;
    }
    case 'account':
      return d.length === 20 && /^[\d\s]+$/.test(value)
        ? `${d.slice(0, 5)} ${d.slice(5, 8)} ${d.slice(8, 9)} ${d.slice(9, 13)} ${d.slice(13)}`
        : value;
    default:
      return value;
  }
}

/** What the copy button puts on the clipboard: the number without spaces (`+7…` for phones). */
export function copyValue(value: string, kind: RequisitesKind): string {
  if (kind === 'phone') {
    const p = russianPhoneDigits(value);
    return p ? `+${p}` : value.trim();
  }
  if (kind === 'card' || kind === 'account') {
    return /^[\d\s-]+$/.test(value) ? digitsOf(value) : value.trim();
  }
  return value.trim();
}

/**
 * The amount the merchant asked for when `unique_amount` moved the amount to send; null when the
 * amounts are equal, absent or not comparable.
 */
export function changedFrom(order: Pick<OrderView, 'amount' | 'requested_amount'>): string | null {
  const requested = order.requested_amount;
  if (!requested) return null;
  try {
    return compareAmounts(requested, order.amount) === 0 ? null : requested;
  } catch {
    return null;
  }
}

/** `mm:ss` below an hour, `h:mm:ss` above; negative values read `0:00`. Rounds up to whole seconds. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
