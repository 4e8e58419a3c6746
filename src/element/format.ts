/**
 * Pure formatting of what every step shows: amounts and the countdown (requisites: requisites.ts).
 * Amounts stay decimal strings: they are rounded as text and handed to `Intl.NumberFormat` as
 * strings, never as binary floats.
 */
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

/** `mm:ss` below an hour, `h:mm:ss` above; negative values read `0:00`. Rounds up to whole seconds. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const pad = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(total / 3600);
  const m = Math.floor(total / 60) % 60;
  return `${h ? `${h}:${pad(m)}` : m}:${pad(total % 60)}`;
}
