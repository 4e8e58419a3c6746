/** The pure parts of the views: the ways to pay, the receipt checks, the frame messages. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { amountToPay, compareDecimal, subtractDecimal, ways, wayHint } from '../../../src/element/choose-view.js';
import { acceptedType, fileProblems, formatSize } from '../../../src/element/receipt.js';
import { heightOf, MAX_HEIGHT, MIN_HEIGHT } from '../../../src/element/frame.js';
import { wayName } from '../../../src/element/views.js';
import en from '../../../src/element/i18n/en.js';
import ru from '../../../src/element/i18n/ru.js';
import uz from '../../../src/element/i18n/uz.js';
import kk from '../../../src/element/i18n/kk.js';
import { DISPUTE_MAX_FILE_BYTES, DISPUTE_MAX_FILES, type PaymentMethodView } from '../../../src/protocol/index.js';

const method = (id: string, type: string, bank: PaymentMethodView['bank'], fee = '0.00', total = '1500.00', name = id): PaymentMethodView => ({ id, name, type, bank, fee, fixed_fee: null, total });

/** The twelve methods the sandbox offers for 1500: aggregates, one per bank, an account and an NSPK link. */
const SANDBOX = [
  method('sbp', 'SBP', null, '67.50', '1567.50', 'СБП'),
  method('card', 'BankCard', null, '75.00', '1575.00', 'Банковская карта'),
  ...(['sberbank', 'tinkoff', 'vtb', 'alfabank'] as const).map((b) => method(`sbp-${b}`, 'SBP', b, '60.00', '1560.00', `СБП — ${b}`)),
  ...(['sberbank', 'tinkoff', 'vtb', 'alfabank'] as const).map((b) => method(`card-${b}`, 'BankCard', b, '67.50', '1567.50', `Карта — ${b}`)),
  method('account', 'BankAccount', null, '45.00', '1545.00', 'Банковский счёт'),
  method('qr', 'NSPKLink', null, '52.50', '1552.50', 'QR-код НСПК'),
];

describe('ways to pay', () => {
  test('twelve raw methods become four ways; the bank is a second step for cards only', () => {
    const list = ways(SANDBOX);
    assert.deepEqual(list.map((w) => w.kind), ['sbp', 'card', 'account', 'link']);
    assert.equal(list[0]!.method.id, 'sbp', 'SBP: the aggregate method (any bank pays any bank)');
    assert.deepEqual(list[0]!.banks, []);
    assert.equal(list[1]!.method.id, 'card', '"another bank" is the aggregate');
    assert.deepEqual(list[1]!.banks.map((m) => m.bank), ['sberbank', 'tinkoff', 'vtb', 'alfabank']);
  });

  test('without an aggregate method the cheapest of a way is chosen; a single card method has no bank step', () => {
    const list = ways([method('a', 'SBP', 'vtb', '9.00', '1509.00'), method('b', 'SBP', 'sberbank', '3.00', '1503.00'), method('c', 'BankCard', 'vtb')]);
    assert.equal(list[0]!.method.id, 'b');
    assert.deepEqual(list[1]!.banks, []);
  });

  test('cross-border types are ways of their own; an unknown type is shown by its own name', () => {
    const list = ways([method('x', 'TransSBP', null), method('y', 'TransBankCard', null), method('z', 'Crypto', null), method('w', 'Crypto', null)]);
    assert.deepEqual(list.map((w) => w.kind), ['sbpAbroad', 'cardAbroad', null, null]);
  });

  test('the amount once: the server’s, else a method’s total without its fee (exact decimals)', () => {
    assert.deepEqual(amountToPay({ methods: SANDBOX, price: { amount: '1500.00', currency: null } }), { amount: '1500.00', currency: 'RUB' });
    assert.deepEqual(amountToPay({ methods: SANDBOX, price: null }), { amount: '1500.00', currency: 'RUB' });
    assert.equal(amountToPay({ methods: [], price: null }), null);
    assert.equal(subtractDecimal('0.30', '0.1'), '0.20');
    assert.equal(subtractDecimal('1', '1.5'), '-0.5');
    assert.equal(compareDecimal('1500.10', '1500.1'), 0);
    assert.equal(compareDecimal('999.99', '1000'), -1);
  });
});

describe('receipt checks before upload', () => {
  const file = (name: string, type: string, size = 1000) => ({ name, type, size });

  test('JPEG, PNG, WebP, HEIC and PDF by type, or by name when the browser gives no type', () => {
    for (const f of [file('a.jpg', 'image/jpeg'), file('a.png', 'image/png'), file('a.webp', 'image/webp'), file('a.heic', 'image/heic'), file('a.pdf', 'application/pdf'), file('IMG_1.HEIC', ''), file('r.pdf', 'application/octet-stream')]) {
      assert.equal(acceptedType(f), true, f.name);
    }
    for (const f of [file('a.gif', 'image/gif'), file('a.exe', ''), file('a.pdf', 'text/html'), file('noext', '')]) assert.equal(acceptedType(f), false, f.name);
  });

  test('each problem named: type, size, count, total, none', () => {
    assert.deepEqual(fileProblems([]), [{ kind: 'none' }]);
    assert.deepEqual(fileProblems([file('ok.jpg', 'image/jpeg')]), []);
    assert.deepEqual(fileProblems([file('x.gif', 'image/gif')]), [{ kind: 'type', name: 'x.gif' }]);
    assert.deepEqual(fileProblems([file('big.pdf', 'application/pdf', DISPUTE_MAX_FILE_BYTES + 1)]), [{ kind: 'size', name: 'big.pdf' }]);
    assert.deepEqual(fileProblems(Array.from({ length: DISPUTE_MAX_FILES + 1 }, (_, i) => file(`${i}.png`, 'image/png'))), [{ kind: 'count' }]);
    const nine = DISPUTE_MAX_FILE_BYTES - 1;
    assert.deepEqual(fileProblems([file('a.png', 'image/png', nine), file('b.png', 'image/png', nine), file('c.png', 'image/png', nine)]), [{ kind: 'total' }]);
  });

  test('sizes for people, in the shopper’s language', () => {
    assert.equal(formatSize(DISPUTE_MAX_FILE_BYTES, 'en'), '10 MB');
    assert.match(formatSize(DISPUTE_MAX_FILE_BYTES, 'ru'), /^10\s?МБ$/);
    assert.equal(formatSize(2048, 'en'), '2 kB');
  });

  test('a file under 1 kB is "<1 kB" in every language (it was "0 kB" in English for 24 bytes, "0,1 кБ" in Russian for 70)', () => {
    for (const bytes of [24, 70, 1023]) {
      assert.equal(formatSize(bytes, 'en'), '<1 kB');
      assert.match(formatSize(bytes, 'ru'), /^<1\s?кБ$/);
    }
    assert.equal(formatSize(1024, 'en'), '1 kB');
    assert.equal(formatSize(1536, 'en'), '1.5 kB');
  });
});

describe('form frame messages', () => {
  test('a height is taken only from a well-formed message within bounds', () => {
    assert.equal(heightOf({ paydesk: 'height', height: 640.2 }), 641);
    for (const bad of [null, 'height', { paydesk: 'height' }, { paydesk: 'height', height: '640' }, { paydesk: 'height', height: MIN_HEIGHT - 1 }, { paydesk: 'height', height: MAX_HEIGHT + 1 }, { paydesk: 'height', height: Infinity }, { type: 'height', height: 640 }]) {
      assert.equal(heightOf(bad), null, JSON.stringify(bad));
    }
  });
});

describe('method names fit the terminal’s country (issue 20)', () => {
  const RUSSIA = /Russia|Росси|Rossiya|Ресей/i;
  test('a cross-border card transfer on a sums, tenge or euro terminal is not "from a bank outside Russia"', () => {
    for (const [lang, m] of Object.entries({ en, ru, uz, kk })) {
      for (const currency of ['UZS', 'KZT', 'EUR', 'uzs']) {
        const hint = wayHint(m, 'TransBankCard', currency);
        assert.doesNotMatch(hint, RUSSIA, `${lang} ${currency}: ${hint}`);
        assert.equal(hint, m.wayCardAbroadOtherHint);
      }
      assert.equal(wayName(m, { type: 'TransBankCard', name: 'Трансграничный перевод на карту' }), m.wayCardAbroad);
    }
    assert.equal(wayHint(en, 'TransBankCard', 'UZS'), 'From a card of a bank in another country');
    assert.equal(wayHint(uz, 'TransBankCard', 'UZS'), 'Boshqa davlat bankining kartasidan');
  });

  test('on a rouble terminal it still says outside Russia; other ways keep their lines', () => {
    assert.equal(wayHint(en, 'TransBankCard', 'RUB'), 'From a card of a bank outside Russia');
    assert.equal(wayHint(ru, 'TransBankCard'), ru.wayCardAbroadHint);
    assert.equal(wayHint(uz, 'BankCard', 'UZS'), uz.wayCardHint);
    assert.equal(wayHint(en, 'Crypto', 'UZS'), '');
  });
});
