/**
 * Money as decimal strings, end to end.
 *
 * Every amount that crosses a boundary (provider JSON, widget protocol, UI) is a decimal string such
 * as `"1500.50"`. Arithmetic happens on `bigint` minor units at a fixed scale, so no binary float
 * ever touches money. All functions are pure.
 */

import { currencyDigits, decompose, DEFAULT_DIGITS, fromMinor, MoneyError, roundHalfUp } from './display.js';

export { CURRENCY_DIGITS, currencyDigits, DEFAULT_DIGITS, formatMoney, fromMinor, MoneyError, roundHalfUp, WHOLE_UNIT_CURRENCIES } from './display.js';

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
