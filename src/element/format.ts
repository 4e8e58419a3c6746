/**
 * Pure formatting of what every step shows: amounts and the countdown (requisites: requisites.ts).
 * Amounts stay decimal strings: they are rounded as text and handed to `Intl.NumberFormat` as
 * strings, never as binary floats (src/money formatMoney, loaded with the views, not the element).
 */
import { formatMoney } from '../money/index.js';

/**
 * An amount for people: `formatAmount('1500', 'RUB', 'ru')` → `1 500,00 ₽`, with `en` →
 * `RUB 1,500.00`; sums and tenge without minor units when they are zero (`150 000 soʻm`). Rounded
 * half-up on the string; where the browser's `Intl` lacks the language (Chromium and `uz`), the
 * language's separators and sign come from src/money's own table (formatMoney). Display only.
 */
export function formatAmount(amount: string, currency: string, locale: string): string {
  return formatMoney(amount, currency, locale);
}

/** `mm:ss` below an hour, `h:mm:ss` above; negative values read `0:00`. Rounds up to whole seconds. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const pad = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(total / 3600);
  const m = Math.floor(total / 60) % 60;
  return `${h ? `${h}:${pad(m)}` : m}:${pad(total % 60)}`;
}
