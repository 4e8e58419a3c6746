/**
 * What only the element's own code does with the stored record of a purchase (storage.ts), after the
 * first request: how long an order is kept for a reload, and forgetting it. Apart from storage.ts so
 * that the CDN entry, which reads and claims the record before the element's code arrives, does not
 * carry it.
 */
import { loadCheckout, type KeyValueStorage } from './storage.js';

/** How long an order is resumed after it ended (a receipt can still be sent; a late payment shown). */
export const ENDED_MS = 24 * 60 * 60_000;
/** How long a paid order is resumed (a reload shows "paid" instead of a new order for the same ref). */
export const PAID_MS = 60 * 60_000;

/**
 * Removes the record. With `mine`, only when it is this element's: it holds `mine.session`, or no
 * session and `mine.key`'s attempt (never another tab's newer order); null removes whatever is there.
 */
export function forgetCheckout(storage: KeyValueStorage | null | undefined, key: string, mine: { session: string | null; key: string | null } | null = null): void {
  try {
    // The record as it is (0: whatever its expiry).
    const v = mine && loadCheckout(storage, key, 0);
    if (v && (v.session ? v.session !== mine.session : v.attempt!.key !== mine.key)) return;
    storage?.removeItem(key);
  } catch {
    // see saveCheckout
  }
}
