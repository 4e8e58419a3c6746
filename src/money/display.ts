/**
 * An amount as people read it: the currency's digits, rounding half-up on decimal strings, and
 * {@link formatMoney}. The primitives the arithmetic of index.ts builds on live here too (it
 * re-exports them), so that the requisites a checkout paints first carry this module and not the
 * arithmetic (money/index.ts is the module to import from; only the first paint's path imports this).
 */

/** Fractional digits per ISO 4217 currency. Unknown currencies use {@link DEFAULT_DIGITS}. */
export const CURRENCY_DIGITS: Readonly<Record<string, number>> = Object.freeze({
  RUB: 2,
  KZT: 2,
  UZS: 2,
  AMD: 2,
  AZN: 2,
  KGS: 2,
  BYN: 2,
  UAH: 2,
  TJS: 2,
  USD: 2,
  EUR: 2,
  USDT: 2,
});

export const DEFAULT_DIGITS = 2;

/** The number of fractional digits a currency allows. */
export function currencyDigits(currency: string | undefined): number {
  if (!currency) return DEFAULT_DIGITS;
  return CURRENCY_DIGITS[currency.toUpperCase()] ?? DEFAULT_DIGITS;
}

/** Thrown for any malformed amount; `field` names the input that was wrong. */
export class MoneyError extends Error {
  readonly code = 'invalid_amount';
  readonly field: string;
  constructor(message: string, field = 'amount') {
    super(message);
    this.name = 'MoneyError';
    this.field = field;
  }
}

/** Converts integer minor units back to a decimal string with exactly `digits` fractional digits. */
export function fromMinor(units: bigint, digits = DEFAULT_DIGITS): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const text = abs.toString().padStart(digits + 1, '0');
  const whole = digits === 0 ? text : text.slice(0, -digits);
  const fraction = digits === 0 ? '' : `.${text.slice(-digits)}`;
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

const SIGNED_DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/** Splits any decimal string (sign allowed) into integer units and scale. */
export function decompose(value: string): { units: bigint; scale: number } {
  const m = SIGNED_DECIMAL.exec(value);
  if (!m) throw new MoneyError(`not a decimal number: ${JSON.stringify(value.slice(0, 40))}`);
  const fraction = m[3] ?? '';
  const units = BigInt(`${m[2]}${fraction}`);
  return { units: m[1] ? -units : units, scale: fraction.length };
}

/** Rounds any decimal string half-up (away from zero at .5) to `digits` fractional digits. */
export function roundHalfUp(value: string, digits = DEFAULT_DIGITS): string {
  const { units, scale } = decompose(value);
  if (scale <= digits) return fromMinor(units * 10n ** BigInt(digits - scale), digits);
  const divisor = 10n ** BigInt(scale - digits);
  const negative = units < 0n;
  const abs = negative ? -units : units;
  let quotient = abs / divisor;
  if ((abs % divisor) * 2n >= divisor) quotient += 1n;
  return fromMinor(negative ? -quotient : quotient, digits);
}

/**
 * Currencies shown without minor units when an amount has none (display only: the amount stays a
 * decimal string with the currency's digits). Shoppers paying in sums and tenge never type tiyin or
 * tiyn; an amount that does carry a fraction is still shown with it, since it must be sent exactly.
 */
export const WHOLE_UNIT_CURRENCIES: readonly string[] = ['UZS', 'KZT'];

/**
 * Group and decimal separators of the widget's languages, for a browser whose `Intl` lacks the
 * locale (Chromium formats `uz` as English though it claims to know it). Languages not listed use
 * whatever `Intl` gives.
 */
const SEPARATORS: Readonly<Record<string, string>> = {
  ru: '\u00a0,', uk: '\u00a0,', be: '\u00a0,', kk: '\u00a0,', ky: '\u00a0,', tg: '\u00a0,', uz: '\u00a0,', hy: '\u00a0,', az: '.,',
};
/** Currency signs for that fallback (after the amount); any other currency is shown by its code. */
const SIGNS: Readonly<Record<string, string>> = { RUB: '₽', KZT: '₸', EUR: '€', USD: '$', AZN: '₼', 'uz UZS': 'soʻm' };

type IntlLike = Pick<typeof Intl, 'NumberFormat'>;
type Formatter = (value: string) => string;
const formatters = new WeakMap<IntlLike, Map<string, Formatter>>();

/** True when `intl` formats `locale` like English although the language writes numbers otherwise. */
function lacksLocale(intl: IntlLike, locale: string): boolean {
  try {
    const probe = (l: string) => new intl.NumberFormat(l).format(12345.5);
    return probe(locale) === probe('en');
  } catch {
    return true;
  }
}

function formatterFor(intl: IntlLike, locale: string, currency: string, digits: number): Formatter {
  const lang = locale.split(/[-_]/)[0]!.toLowerCase();
  const seps = SEPARATORS[lang];
  const options = { minimumFractionDigits: digits, maximumFractionDigits: digits };
  let nf: Intl.NumberFormat;
  try {
    nf = new intl.NumberFormat(locale, { ...options, style: 'currency', currency });
  } catch {
    // A locale or currency Intl refuses: English digits without a sign.
    nf = new intl.NumberFormat('en', options);
    return nf.format as unknown as Formatter;
  }
  if (!seps || !lacksLocale(intl, locale)) return nf.format as unknown as Formatter;
  // The language's own separators, and its sign after the amount (Intl has already accepted the code).
  const [group, decimal] = [...seps] as [string, string];
  const sign = SIGNS[`${lang} ${currency}`] ?? SIGNS[currency] ?? currency;
  return (value) => {
    const [whole, fraction] = value.split('.') as [string, string?];
    return `${whole.replace(/\B(?=(\d{3})+$)/g, group)}${fraction ? decimal + fraction : ''}\u00a0${sign}`;
  };
}

/**
 * Formats an amount for people, exactly (the decimal string is passed to Intl, never a float):
 * `formatMoney("1500", "RUB", "ru")` → `1 500,00 ₽`, with `"en"` → `RUB 1,500.00`; `("150000.00",
 * "UZS", "uz")` → `150 000 soʻm` (no minor units in sums and tenge, {@link WHOLE_UNIT_CURRENCIES}).
 * Where `Intl` lacks one of the widget's languages (it formats it as English) or refuses the
 * currency, the language's separators and sign come from a small table of our own; a locale nothing
 * knows gets English digits. `intl` is for tests.
 */
export function formatMoney(amount: string, currency: string, locale: string, intl: IntlLike = Intl): string {
  const cur = currency.toUpperCase();
  let value = roundHalfUp(amount, currencyDigits(cur));
  if (WHOLE_UNIT_CURRENCIES.includes(cur)) value = value.replace(/\.0+$/, '');
  const digits = value.split('.')[1]?.length ?? 0;
  let cache = formatters.get(intl);
  if (!cache) formatters.set(intl, (cache = new Map()));
  const key = `${locale}|${cur}|${digits}`;
  let format = cache.get(key);
  if (!format) cache.set(key, (format = formatterFor(intl, locale, cur, digits)));
  return format(value);
}
