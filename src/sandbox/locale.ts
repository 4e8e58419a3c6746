/**
 * The hosted form's language: `?lang=` on `form_url` first, then the browser's `Accept-Language`
 * (by quality), limited to the languages the widget has tables for; null when neither names one
 * (the page then stays in the provider's default language).
 */
import { HOSTED_FORM_LOCALES, type HostedFormLocale } from './constants.js';

const SUPPORTED: ReadonlySet<string> = new Set(HOSTED_FORM_LOCALES);
/** Longest Accept-Language header read, and most entries considered (a hostile header costs nothing). */
const MAX_HEADER_CHARS = 1024;
const MAX_ENTRIES = 32;

/** `kk`, `kk-KZ`, `uz_Cyrl` → the supported language it names, or null. */
export function supportedLocale(tag: string | null | undefined): HostedFormLocale | null {
  if (typeof tag !== 'string') return null;
  const m = /^\s*([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{1,8})*\s*$/.exec(tag);
  if (!m) return null;
  const language = m[1]!.toLowerCase();
  return SUPPORTED.has(language) ? (language as HostedFormLocale) : null;
}

/** The best supported language of an `Accept-Language` header (`q=0` means "not this one"), or null. */
export function localeFromAcceptLanguage(header: string | null | undefined): HostedFormLocale | null {
  if (!header) return null;
  const entries = header
    .slice(0, MAX_HEADER_CHARS)
    .split(',')
    .slice(0, MAX_ENTRIES)
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      let q = 1;
      for (const p of params) {
        const qm = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p);
        if (qm) q = Math.min(1, Number(qm[1]));
      }
      return { tag: tag.trim(), q, index };
    })
    .filter((e) => e.q > 0 && e.tag !== '')
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const e of entries) {
    const locale = supportedLocale(e.tag);
    if (locale) return locale;
  }
  return null;
}

/** `?lang=` (when supported) wins over `Accept-Language`. */
export function hostedFormLocale(langParam: string | null | undefined, acceptLanguage: string | null | undefined): HostedFormLocale | null {
  return supportedLocale(langParam) ?? localeFromAcceptLanguage(acceptLanguage);
}
