/**
 * Does a provider order belong to a request? The few rules the provider client (finding what a lost
 * create made) and the merchant server (accepting an order for a session) share, kept once.
 */
import { addAmounts, compareAmounts, currencyDigits, numberToDecimal } from '../money/index.js';

/** With `unique_amount` the provider may raise the amount by at most this much (provider-api.md, Limits). */
export const UNIQUE_AMOUNT_SPREAD = '9';

/**
 * True when `found` is the amount asked for: exactly `requested`, or with `unique` anywhere from
 * `requested` to `requested + 9`. Malformed or negative amounts never fit.
 */
export function amountFits(found: string, requested: string | number, unique: boolean, currency?: string): boolean {
  try {
    const want = typeof requested === 'number' ? numberToDecimal(requested) : requested;
    const low = compareAmounts(found, want);
    if (low < 0) return false;
    if (!unique) return low === 0;
    const digits = currency === undefined ? undefined : currencyDigits(currency);
    return compareAmounts(found, addAmounts(want, UNIQUE_AMOUNT_SPREAD, digits)) <= 0;
  } catch {
    return false;
  }
}

/** The most recently created of several items (the later one on a tie); undefined for none. */
export function newest<T extends { created_at: string }>(items: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const item of items) {
    if (!best || (Date.parse(item.created_at) || 0) >= (Date.parse(best.created_at) || 0)) best = item;
  }
  return best;
}

/**
 * Does `text` (e.g. a transaction's `client_description`) name `id` as a whole word? `pd_1` is not
 * named by "pd_12"; letters, digits, `_` and `-` count as part of an id.
 */
export function namesId(text: string, id: string): boolean {
  if (id === '') return false;
  let from = 0;
  for (;;) {
    const at = text.indexOf(id, from);
    if (at < 0) return false;
    const before = at === 0 ? '' : text[at - 1]!;
    const after = text[at + id.length] ?? '';
    if (!/[\p{L}\p{N}_-]/u.test(before) && !/[\p{L}\p{N}_-]/u.test(after)) return true;
    from = at + 1;
  }
}
