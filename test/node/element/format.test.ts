import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { formatCountdown } from '../../../src/element/format.js';
import { changedFrom, copyValue, DECIMAL, formatAccount, russianPhoneDigits } from '../../../src/element/requisites.js';
import { DECIMAL as PROTOCOL_DECIMAL } from '../../../src/protocol/answers.js';
import { formatMoney } from '../../../src/money/index.js';

describe('requisites formatting', () => {
  test('a card number is shown in groups of four and copied as digits', () => {
    assert.equal(formatAccount('4627100101654724', 'card'), '4627 1001 0165 4724');
    assert.equal(formatAccount('4627 1001-0165 4724', 'card'), '4627 1001 0165 4724');
    assert.equal(copyValue('4627 1001 0165 4724', 'card'), '4627100101654724');
  });

  test('a 19-digit card keeps its last group short', () => {
    assert.equal(formatAccount('2200123456789012345', 'card'), '2200 1234 5678 9012 345');
  });

  test('a Russian phone is shown as +7 (999) 123-45-67 and copied as +7 and ten digits', () => {
    for (const input of ['+79991234567', '79991234567', '89991234567', '+7 999 123-45-67', '9991234567']) {
      assert.equal(formatAccount(input, 'phone'), '+7 (999) 123-45-67', input);
      assert.equal(copyValue(input, 'phone'), '+79991234567', input);
    }
  });

  test('a foreign phone is shown as sent', () => {
    assert.equal(formatAccount('+998901234567', 'phone'), '+998901234567');
    assert.equal(russianPhoneDigits('+998901234567'), null);
    assert.equal(copyValue(' +998901234567 ', 'phone'), '+998901234567');
  });

  test('a 20-digit account is grouped by its structure (balance, currency, key, branch, number)', () => {
    assert.equal(formatAccount('40817810099991234567', 'account'), '40817 810 0 9999 1234567');
    assert.equal(copyValue('40817 810 0 9999 1234567', 'account'), '40817810099991234567');
  });

  test('values that do not fit their kind are shown unchanged', () => {
    assert.equal(formatAccount('1234', 'card'), '1234');
    assert.equal(formatAccount('ACC-12', 'account'), 'ACC-12');
    assert.equal(formatAccount('https://pay.example/x', 'link'), 'https://pay.example/x');
    assert.equal(copyValue('IBAN KZ12', 'account'), 'IBAN KZ12');
  });
});

describe('amounts for people', () => {
  const norm = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

  test('in the locale, with the currency and two fractional digits', () => {
    assert.equal(norm(formatMoney('1500', 'RUB', 'ru')), '1 500,00 ₽');
    assert.equal(norm(formatMoney('1500.5', 'RUB', 'en')), 'RUB 1,500.50');
  });

  test('the views format amounts with formatMoney of src/money alone (issue 22: one formatter)', () => {
    const dir = new URL('../../../src/element/', import.meta.url);
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    const users = files.filter((f) => readFileSync(new URL(f, dir), 'utf8').includes('formatMoney('));
    assert.deepEqual(users.sort(), ['choose-view.ts', 'pay-view.ts', 'views.ts']);
    for (const f of files) assert.doesNotMatch(readFileSync(new URL(f, dir), 'utf8'), /formatAmount|style: 'currency'/, f);
  });

  test('digits beyond kopecks are rounded half-up on the string, exactly', () => {
    assert.equal(formatMoney('2.675', 'RUB', 'en'), formatMoney('2.68', 'RUB', 'en'));
    assert.equal(formatMoney('0.994999999', 'RUB', 'en'), formatMoney('0.99', 'RUB', 'en'));
    assert.equal(formatMoney('9999999999999.995', 'RUB', 'en'), formatMoney('10000000000000.00', 'RUB', 'en'));
    assert.equal(formatMoney('0.005', 'RUB', 'en'), formatMoney('0.01', 'RUB', 'en'));
  });

  test('a locale or currency Intl refuses falls back to plain English digits', () => {
    assert.equal(formatMoney('1500', 'RUB', 'not a locale!'), '1,500.00');
    assert.equal(formatMoney('1500', 'R U B', 'ru'), '1,500.00');
  });
});

describe('amount changed by unique_amount', () => {
  test('reports the requested amount when it differs', () => {
    assert.equal(changedFrom({ amount: '1503.00', requested_amount: '1500.00' }), '1500.00');
  });

  test('nothing when equal (also at different scales), absent or malformed', () => {
    assert.equal(changedFrom({ amount: '1500.00', requested_amount: '1500' }), null);
    assert.equal(changedFrom({ amount: '1500.00' }), null);
    assert.equal(changedFrom({ amount: '1500.00', requested_amount: null }), null);
    assert.equal(changedFrom({ amount: '1500.00', requested_amount: 'abc' }), null);
    assert.equal(changedFrom({ amount: '0100.10', requested_amount: '100.1000' }), null);
    assert.equal(changedFrom({ amount: '1500', requested_amount: '150' }), '150');
    assert.equal(changedFrom({ amount: '1500.00', requested_amount: '1500.001' }), '1500.001');
  });
});

describe('countdown text', () => {
  test('minutes and seconds, rounded up to the displayed second', () => {
    assert.equal(formatCountdown(30 * 60_000), '30:00');
    assert.equal(formatCountdown(29 * 60_000 + 59_001), '30:00');
    assert.equal(formatCountdown(61_000), '1:01');
    assert.equal(formatCountdown(999), '0:01');
  });

  test('hours when over an hour; zero and negative read 0:00', () => {
    assert.equal(formatCountdown(3_600_000 + 65_000), '1:01:05');
    assert.equal(formatCountdown(0), '0:00');
    assert.equal(formatCountdown(-5000), '0:00');
  });
});

describe('amounts in other currencies (issue 20)', () => {
  const norm = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
  /** Like Chromium's reduced ICU: claims `uz` but formats it as English. */
  const RealNumberFormat = Intl.NumberFormat;
  const withoutUz = {
    NumberFormat: function (locale: string, options?: Intl.NumberFormatOptions) {
      return new RealNumberFormat(/^uz\b/i.test(locale) ? 'en' : locale, options);
    } as unknown as typeof Intl.NumberFormat,
  };
  const swapIntl = <T>(fake: object, run: () => T): T => {
    const real = globalThis.Intl;
    Object.defineProperty(globalThis, 'Intl', { value: { ...real, ...fake }, configurable: true, writable: true });
    try {
      return run();
    } finally {
      Object.defineProperty(globalThis, 'Intl', { value: real, configurable: true, writable: true });
    }
  };

  test('sums and tenge show no minor units in uz, kk, ru and en; roubles and euros keep theirs', () => {
    assert.equal(norm(formatMoney('150000.00', 'UZS', 'uz')), '150 000 soʻm');
    assert.equal(norm(formatMoney('150000', 'UZS', 'ru')), '150 000 UZS');
    assert.equal(norm(formatMoney('150000.00', 'UZS', 'en')), 'UZS 150,000');
    assert.equal(norm(formatMoney('25000.00', 'KZT', 'kk')), '25 000 ₸');
    assert.equal(norm(formatMoney('25000.00', 'KZT', 'ru')), '25 000 KZT');
    assert.equal(norm(formatMoney('25000.00', 'KZT', 'en')), 'KZT 25,000');
    assert.equal(norm(formatMoney('1500.00', 'RUB', 'ru')), '1 500,00 ₽');
    assert.equal(norm(formatMoney('1500.00', 'EUR', 'en')), '€1,500.00');
    assert.equal(norm(formatMoney('150000.00', 'UZS', 'uz')), '150 000 soʻm');
  });

  test('a sum that does carry tiyin keeps them (the shopper must send it exactly), rounded half-up', () => {
    assert.equal(norm(formatMoney('150000.50', 'UZS', 'uz')), '150 000,50 soʻm');
    assert.equal(norm(formatMoney('150000.005', 'UZS', 'en')), 'UZS 150,000.01');
    assert.equal(norm(formatMoney('150000.004', 'UZS', 'en')), 'UZS 150,000');
  });

  test('a browser Intl that lacks uz (formats it as English) is detected: our own separators and sign', () => {
    swapIntl(withoutUz, () => {
      assert.equal(norm(new Intl.NumberFormat('uz', { style: 'currency', currency: 'UZS' }).format(150000)), 'UZS 150,000.00', 'the fake is English');
      assert.equal(norm(formatMoney('150000.00', 'UZS', 'uz')), '150 000 soʻm');
      assert.equal(norm(formatMoney('1234567.50', 'UZS', 'uz-Latn-UZ')), '1 234 567,50 soʻm');
      assert.equal(norm(formatMoney('1500.00', 'RUB', 'uz')), '1 500,00 ₽');
      assert.equal(norm(formatMoney('99.00', 'KZT', 'uz')), '99 ₸');
      // Languages the fake knows are Intl's own.
      assert.equal(norm(formatMoney('25000.00', 'KZT', 'kk')), '25 000 ₸');
      assert.equal(norm(formatMoney('150000.00', 'UZS', 'en')), 'UZS 150,000');
    });
  });
});

test('the requisites read an amount as the protocol writes it (requisites.ts DECIMAL is protocol/answers.ts DECIMAL)', () => {
  assert.equal(DECIMAL.source, PROTOCOL_DECIMAL.source);
  assert.equal(DECIMAL.flags, PROTOCOL_DECIMAL.flags);
});
