/**
 * The shopper's device kind. Kept apart from banks.ts, which phones load on demand: the element
 * needs the platform at once, the bank-app table only on a phone.
 */
export type Platform = 'ios' | 'android' | 'desktop';

/** iOS, Android or anything else, from the user agent (iPadOS reports a Mac with touch). */
export function detectPlatform(userAgent: string, maxTouchPoints = 0): Platform {
  if (/android/i.test(userAgent)) return 'android';
  if (/iphone|ipad|ipod/i.test(userAgent) || (/macintosh/i.test(userAgent) && maxTouchPoints > 1)) return 'ios';
  return 'desktop';
}
