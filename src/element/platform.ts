/**
 * The shopper's device kind. Read by the views that show the requisites and the bank apps (loaded on
 * demand), and by paydesk/ssr: not by the element's own module, which needs no platform before them.
 */
export type Platform = 'ios' | 'android' | 'desktop';

/** iOS, Android or anything else, from the user agent (iPadOS reports a Mac with touch). */
export function detectPlatform(userAgent: string, maxTouchPoints = 0): Platform {
  if (/android/i.test(userAgent)) return 'android';
  if (/iphone|ipad|ipod/i.test(userAgent) || (/macintosh/i.test(userAgent) && maxTouchPoints > 1)) return 'ios';
  return 'desktop';
}

/** The platform the element's `env` gives, else the browser's (its user agent). */
export const platformOf = (env: { platform?: Platform | undefined }): Platform =>
  env.platform ?? detectPlatform(navigator.userAgent, navigator.maxTouchPoints);
