/**
 * Money as decimal strings, end to end.
 *
 * Every amount that crosses a boundary (provider JSON, widget protocol, UI) is a decimal string such
 * as `"1500.50"`. Arithmetic happens on `bigint` minor units at a fixed scale, so no binary float
 * ever touches money. All functions are pure.
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

const DECIMAL = /^(0|[1-9]\d*)(?:\.(\d+))?$/;
/** Upper bound on integer digits: far above any real payment, well inside what tests and JSON handle. */
const MAX_INTEGER_DIGITS = 15;

export interface ParseOptions {
  /** Maximum fractional digits accepted (default: the currency's, else 2). */
  digits?: number;
  currency?: string;
  /** Name of the input, used in error messages. */
  field?: string;
  /** Accept `"0"` (default false: an amount to pay must be positive). */
  allowZero?: boolean;
}

/** True when `value` is a valid non-negative decimal string with at most `digits` fractional digits. */
export function isAmount(value: unknown, digits = DEFAULT_DIGITS): value is string {
  if (typeof value !== 'string') return false;
  const m = DECIMAL.exec(value);
  if (!m) return false;
  return m[1]!.length <= MAX_INTEGER_DIGITS && (m[2]?.length ?? 0) <= digits;
}

/**
 * Validates a decimal amount string and returns it normalised to the currency's digits
 * (`"1500.5"` → `"1500.50"`). Rejects exponents, commas, signs, `NaN`, empty strings, leading zeros,
 * too many fractional digits and (unless `allowZero`) zero.
 */
export function parseAmount(value: unknown, options: ParseOptions = {}): string {
  const field = options.field ?? 'amount';
  const digits = options.digits ?? currencyDigits(options.currency);
  if (typeof value !== 'string') {
    throw new MoneyError(`${field} must be a decimal string such as "1500.00"`, field);
  }
  const m = DECIMAL.exec(value);
  if (!m) {
    throw new MoneyError(
      `${field} must be a plain decimal such as "1500.00" (digits, optional dot and fraction; no sign, exponent, spaces or comma), got ${JSON.stringify(value.slice(0, 40))}`,
      field,
    );
  }
  if (m[1]!.length > MAX_INTEGER_DIGITS) {
    throw new MoneyError(`${field} is too large`, field);
  }
  const fraction = m[2] ?? '';
  if (fraction.length > digits) {
    throw new MoneyError(`${field} has ${fraction.length} fractional digits; at most ${digits} are allowed`, field);
  }
  const normalised = fromMinor(toMinor(value, digits), digits);
  if (!options.allowZero && toMinor(normalised, digits) === 0n) {
    throw new MoneyError(`${field} must be greater than zero`, field);
  }
  return normalised;
}

/**
 * Converts a decimal string (optionally negative) to integer minor units at `digits` scale.
 * The string must have at most `digits` fractional digits; use {@link roundHalfUp} first otherwise.
 */
export function toMinor(value: string, digits = DEFAULT_DIGITS): bigint {
  const { units, scale } = decompose(value);
  if (scale > digits) throw new MoneyError(`${value} has more than ${digits} fractional digits`);
  return units * 10n ** BigInt(digits - scale);
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
function decompose(value: string): { units: bigint; scale: number } {
  const m = SIGNED_DECIMAL.exec(value);
  if (!m) throw new MoneyError(`not a decimal number: ${JSON.stringify(value.slice(0, 40))}`);
  const fraction = m[3] ?? '';
  const units = BigInt(`${m[2]}${fraction}`);
  return { units: m[1] ? -units : units, scale: fraction.length };
}

/**
 * Turns a JSON number from the provider (a fee percentage, a range bound) into an exact decimal
 * string. `String(n)` is the shortest round-tripping text, which is the decimal the provider wrote.
 */
export function numberToDecimal(value: number): string {
  if (!Number.isFinite(value)) throw new MoneyError(`not a finite number: ${value}`);
  const text = String(value);
  if (!/e/i.test(text)) return text;
  // Exponent notation only appears for very small or very large values; expand it exactly.
  const [mantissa, exp] = text.toLowerCase().split('e') as [string, string];
  const exponent = Number(exp);
  const negative = mantissa.startsWith('-');
  const [intPart, fracPart = ''] = mantissa.replace('-', '').split('.') as [string, string?];
  const digits = intPart + fracPart;
  const point = intPart.length + exponent;
  let result: string;
  if (point <= 0) result = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) result = digits + '0'.repeat(point - digits.length);
  else result = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return (negative ? '-' : '') + result;
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

/** Exact sum, at the larger of the two scales or `digits` if given. */
export function addAmounts(a: string, b: string, digits?: number): string {
  const scale = digits ?? Math.max(decompose(a).scale, decompose(b).scale, DEFAULT_DIGITS);
  return fromMinor(toMinor(a, scale) + toMinor(b, scale), scale);
}

/** Exact difference `a - b` (may be negative). */
export function subtractAmounts(a: string, b: string, digits?: number): string {
  const scale = digits ?? Math.max(decompose(a).scale, decompose(b).scale, DEFAULT_DIGITS);
  return fromMinor(toMinor(a, scale) - toMinor(b, scale), scale);
}

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b`. */
export function compareAmounts(a: string, b: string): -1 | 0 | 1 {
  const scale = Math.max(decompose(a).scale, decompose(b).scale);
  const x = toMinor(a, scale);
  const y = toMinor(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Sum of many amounts. */
export function sumAmounts(values: readonly string[], digits = DEFAULT_DIGITS): string {
  return values.reduce((acc, v) => addAmounts(acc, v, digits), fromMinor(0n, digits));
}

/** `amount * percent / 100`, rounded half-up to `digits`. `percent` is e.g. `"1.5"` or `1.5`. */
export function percentOf(amount: string, percent: string | number, digits = DEFAULT_DIGITS): string {
  const a = decompose(amount);
  const p = decompose(typeof percent === 'number' ? numberToDecimal(percent) : percent);
  const product = a.units * p.units; // scale a.scale + p.scale, then divide by 100 (scale + 2)
  return roundHalfUp(fromMinor(product, a.scale + p.scale + 2), digits);
}

export interface FeeRule {
  /** Variable fee in percent of the amount (`1.5` means 1.5 %). */
  percent: string | number;
  /** Fixed fee in currency units, or null/undefined when none. */
  fixed?: string | number | null;
}

export interface FeeResult {
  /** Total fee (variable + fixed), rounded half-up to the currency's digits. */
  fee: string;
  /** amount + fee: what the payer sends. */
  total: string;
}

/**
 * Applies a percentage fee plus an optional fixed fee. The variable part is rounded half-up to the
 * currency's digits, then the fixed part is added exactly.
 */
export function applyFee(amount: string, rule: FeeRule, currency?: string): FeeResult {
  const digits = currencyDigits(currency);
  const variable = percentOf(amount, rule.percent, digits);
  const fixed =
    rule.fixed === null || rule.fixed === undefined
      ? fromMinor(0n, digits)
      : roundHalfUp(typeof rule.fixed === 'number' ? numberToDecimal(rule.fixed) : rule.fixed, digits);
  const fee = addAmounts(variable, fixed, digits);
  return { fee, total: addAmounts(roundHalfUp(amount, digits), fee, digits) };
}

/** Renders an amount with a fixed number of fractional digits (rounded half-up), e.g. 5 for form sessions. */
export function toFixedDigits(value: string, digits: number): string {
  return roundHalfUp(value, digits);
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

/**
 * Parses a human-formatted amount (as produced by {@link formatMoney}) back to a decimal string.
 * Used to prove formatting round-trips; accepts the group and decimal separators of the locale.
 */
export function parseFormattedMoney(text: string, locale: string, currency: string): string {
  const parts = new Intl.NumberFormat(locale, { style: 'currency', currency }).formatToParts(12345.6);
  const group = parts.find((p) => p.type === 'group')?.value ?? ',';
  const decimal = parts.find((p) => p.type === 'decimal')?.value ?? '.';
  let out = '';
  for (const ch of text) {
    if (ch >= '0' && ch <= '9') out += ch;
    else if (ch === decimal) out += '.';
    else if (ch === group || ch === '\u00a0' || ch === '\u202f' || ch === ' ') continue;
  }
  return parseAmount(out, { currency, allowZero: true });
}
