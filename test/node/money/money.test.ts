import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  addAmounts,
  applyFee,
  compareAmounts,
  formatMoney,
  fromMinor,
  MoneyError,
  numberToDecimal,
  parseAmount,
  parseFormattedMoney,
  percentOf,
  roundHalfUp,
  subtractAmounts,
  sumAmounts,
  toMinor,
} from '../../../src/money/index.js';

const NBSP = '\u00a0';
/** Arbitrary amount in kopecks (up to 10^12 roubles) rendered as a decimal string. */
const kopecks = fc.bigInt({ min: 0n, max: 10n ** 14n });
const amount = kopecks.map((k) => fromMinor(k, 2));

describe('parseAmount', () => {
  for (const [input, expected] of [
    ['1500', '1500.00'],
    ['1500.5', '1500.50'],
    ['1500.50', '1500.50'],
    ['0.01', '0.01'],
  ] as const) {
    test(`accepts ${input}`, () => assert.equal(parseAmount(input, { currency: 'RUB' }), expected));
  }

  for (const bad of ['1e3', '1,00', '+1', '-5', 'NaN', '', ' 1', '1 ', '01', '.5', '5.', '1.005', 'Infinity', '0x10', '１']) {
    test(`rejects ${JSON.stringify(bad)} with a clear MoneyError`, () => {
      assert.throws(
        () => parseAmount(bad, { currency: 'RUB', field: 'price' }),
        (err: unknown) => err instanceof MoneyError && err.field === 'price' && /price/.test(err.message),
      );
    });
  }

  test('rejects non-strings (a float never becomes money)', () => {
    assert.throws(() => parseAmount(1500.5), MoneyError);
    assert.throws(() => parseAmount(null), MoneyError);
  });

  test('rejects more fractional digits than the currency allows, naming the limit', () => {
    assert.throws(() => parseAmount('10.123', { currency: 'RUB' }), /at most 2/);
    assert.equal(parseAmount('10.12345', { digits: 5 }), '10.12345');
  });

  test('rejects zero unless allowed', () => {
    assert.throws(() => parseAmount('0.00'), /greater than zero/);
    assert.equal(parseAmount('0', { allowZero: true }), '0.00');
  });
});

describe('arithmetic', () => {
  test('0.10 + 0.20 = 0.30 exactly', () => assert.equal(addAmounts('0.10', '0.20'), '0.30'));
  test('subtraction may go negative and stays exact', () => assert.equal(subtractAmounts('0.10', '0.30'), '-0.20'));
  test('compare', () => {
    assert.equal(compareAmounts('1500', '1500.00'), 0);
    assert.equal(compareAmounts('1500.01', '1500'), 1);
    assert.equal(compareAmounts('-1', '0'), -1);
  });
  test('sums are exact for any list of amounts', () => {
    fc.assert(
      fc.property(fc.array(kopecks, { maxLength: 50 }), (list) => {
        const expected = list.reduce((a, b) => a + b, 0n);
        assert.equal(sumAmounts(list.map((k) => fromMinor(k, 2))), fromMinor(expected, 2));
      }),
    );
  });
  test('a + b - b = a', () => {
    fc.assert(fc.property(amount, amount, (a, b) => assert.equal(subtractAmounts(addAmounts(a, b), b), a)));
  });
  test('toMinor/fromMinor round-trip', () => {
    fc.assert(fc.property(kopecks, (k) => assert.equal(toMinor(fromMinor(k, 2), 2), k)));
  });
});

describe('rounding and fees', () => {
  for (const [input, digits, expected] of [
    ['1.005', 2, '1.01'],
    ['1.004', 2, '1.00'],
    ['2.5', 0, '3'],
    ['-2.5', 0, '-3'],
    ['22.499999', 2, '22.50'],
    ['0.125', 2, '0.13'],
  ] as const) {
    test(`roundHalfUp(${input}, ${digits}) = ${expected}`, () => assert.equal(roundHalfUp(input, digits), expected));
  }

  // Reference cases, computed by hand: fee = round_half_up(amount * percent / 100) + fixed.
  for (const [amt, percent, fixed, fee, total] of [
    ['1500.00', 1.5, null, '22.50', '1522.50'],
    ['1000.00', 2.5, 10, '35.00', '1035.00'],
    ['999.99', 1.5, null, '15.00', '1014.99'], // 14.99985 -> 15.00
    ['100.10', 0.5, null, '0.50', '100.60'], // 0.5005 -> 0.50
    ['100.30', 0.5, null, '0.50', '100.80'], // 0.5015 -> 0.50
    ['101.00', 0.5, null, '0.51', '101.51'], // 0.505 -> 0.51 (half-up)
    ['1234.56', 3, 0.99, '38.03', '1272.59'], // 37.0368 -> 37.04 + 0.99
    ['50.00', 0, 25, '25.00', '75.00'],
  ] as const) {
    test(`fee on ${amt} at ${percent}% + ${fixed ?? 0} is ${fee}`, () => {
      assert.deepEqual(applyFee(amt, { percent, fixed }, 'RUB'), { fee, total });
    });
  }

  test('percent given as a string is exact', () => assert.equal(percentOf('0.10', '33.333'), '0.03'));
  test('numberToDecimal expands provider numbers without float artefacts', () => {
    assert.equal(numberToDecimal(1.5), '1.5');
    assert.equal(numberToDecimal(0.1), '0.1');
    assert.equal(numberToDecimal(1e-7), '0.0000001');
    assert.equal(numberToDecimal(1e21), '1000000000000000000000');
    assert.equal(numberToDecimal(300000), '300000');
  });
});

describe('formatMoney', () => {
  test('ru: 1 500,00 ₽', () => assert.equal(formatMoney('1500', 'RUB', 'ru'), `1${NBSP}500,00${NBSP}₽`));
  test('en: RUB 1,500.00', () => assert.equal(formatMoney('1500', 'RUB', 'en'), `RUB${NBSP}1,500.00`));
  test('large values are formatted exactly (no float rounding)', () =>
    assert.equal(formatMoney('999999999999999.99', 'RUB', 'en'), `RUB${NBSP}999,999,999,999,999.99`));
  for (const locale of ['ru', 'en', 'kk', 'uk']) {
    test(`parse(format(x)) = x for ${locale}`, () => {
      fc.assert(fc.property(amount, (a) => assert.equal(parseFormattedMoney(formatMoney(a, 'RUB', locale), locale, 'RUB'), a)));
    });
  }
  test('parseAmount(format-free text) round-trips', () => {
    fc.assert(fc.property(amount, (a) => assert.equal(parseAmount(a, { allowZero: true }), a)));
  });
});
