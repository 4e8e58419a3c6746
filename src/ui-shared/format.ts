/**
 * Formatting for the console's pages and the demo's: money through src/money (decimal strings straight into Intl, never a
 * float; the same text the widget shows), dates in the page's language.
 */
import { formatMoney, numberToDecimal } from '../money/index.js';
import type { Lang } from './i18n.js';

const LOCALES: Record<Lang, string> = { en: 'en', ru: 'ru' };

/**
 * `1 500,00 ₽` (ru) or `RUB 1,500.00` (en), with the currency's minor units; `—` for no value. A
 * JSON number from the provider (fee ranges, dispute amounts) is turned into its exact decimal first.
 */
export function money(amount: string | number | null | undefined, currency: string, lang: Lang): string {
  if (amount === null || amount === undefined || amount === '') return '—';
  try {
    return formatMoney(typeof amount === 'number' ? numberToDecimal(amount) : amount, currency || 'RUB', LOCALES[lang]);
  } catch {
    return `${amount} ${currency}`;
  }
}

/**
 * A provider timestamp (ISO 8601; one without a zone is UTC, as the provider writes them) as a
 * medium date and short time in the page's language and the browser's time zone.
 */
export function dateTime(iso: string | null | undefined, lang: Lang, options: { seconds?: boolean } = {}): string {
  if (!iso) return '—';
  const d = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : `${iso}Z`);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(lang === 'ru' ? 'ru-RU' : 'en-GB', { dateStyle: 'medium', timeStyle: options.seconds ? 'medium' : 'short' }).format(d);
}

/** A long id shortened for a table cell: `8fe3669a…9d3e`. */
export function shortId(id: string | null | undefined): string {
  if (typeof id !== 'string' || id === '') return '—';
  return id.length > 13 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id;
}
