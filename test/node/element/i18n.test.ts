import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fill, localeChain, messagesFor, missingTables, plural, resolveLanguage, loadLanguage } from '../../../src/element/i18n/index.js';
import en from '../../../src/element/i18n/en.js';
import ru from '../../../src/element/i18n/ru.js';

describe('language resolution', () => {
  test('the chain goes from region to language', () => {
    assert.deepEqual(localeChain('uz-Cyrl-UZ'), ['uz-cyrl-uz', 'uz-cyrl', 'uz']);
    assert.deepEqual(localeChain('ru_KZ'), ['ru-kz', 'ru']);
    assert.deepEqual(localeChain(''), []);
    assert.deepEqual(localeChain('!!'), []);
  });

  test('region falls back to the language, an unknown language to English', () => {
    assert.equal(resolveLanguage('ru-KZ'), 'ru');
    assert.equal(resolveLanguage('kk-KZ'), 'kk');
    assert.equal(resolveLanguage('de-DE'), 'en');
    assert.equal(resolveLanguage('garbage tag'), 'en');
  });

  test('Russian and English are bundled; the others are loaded on demand', async () => {
    assert.deepEqual(missingTables('ru-RU'), []);
    assert.deepEqual(missingTables('en'), []);
    assert.deepEqual(missingTables('be-BY'), ['be']);
    assert.equal(messagesFor('be').payTitle, en.payTitle, 'English until the table arrives');
    assert.equal(await loadLanguage('be-BY'), true);
    assert.deepEqual(missingTables('be-BY'), []);
    assert.notEqual(messagesFor('be-BY').payTitle, en.payTitle);
  });
});

describe('merged tables', () => {
  test('a language table wins over English, the merchant wins over both, key by key', () => {
    const m = messagesFor('ru', { iPaid: 'Готово', errors: { no_traders: 'Попробуйте позже' } });
    assert.equal(m.iPaid, 'Готово');
    assert.equal(m.payTitle, ru.payTitle);
    assert.equal(m.errors.no_traders, 'Попробуйте позже');
    assert.equal(m.errors.network, ru.errors.network);
  });

  test('a merchant can add a sentence for an error code of its own', () => {
    const m = messagesFor('en', { errors: { shop_closed: 'The shop is closed tonight.' } });
    assert.equal((m.errors as Record<string, string>).shop_closed, 'The shop is closed tonight.');
  });

  test('undefined overrides do not erase a message', () => {
    assert.equal(messagesFor('en', { iPaid: undefined }).iPaid, en.iPaid);
  });
});

describe('placeholders and plurals', () => {
  test('fills named placeholders and leaves unknown ones', () => {
    assert.equal(fill('Pay {amount} by {time}', { amount: '5 ₽' }), 'Pay 5 ₽ by {time}');
  });

  test('Russian plural forms through Intl.PluralRules', () => {
    assert.equal(plural('ru', ru.redirectIn, 1), 'Возвращаемся в магазин через 1 секунду');
    assert.equal(plural('ru', ru.redirectIn, 3), 'Возвращаемся в магазин через 3 секунды');
    assert.equal(plural('ru', ru.redirectIn, 5), 'Возвращаемся в магазин через 5 секунд');
    assert.equal(plural('ru', ru.minutesLeft, 21), 'На оплату осталась 21 минута');
  });

  test('English plural forms, and a malformed locale falls back to English rules', () => {
    assert.equal(plural('en', en.redirectIn, 1), 'Returning to the shop in 1 second');
    assert.equal(plural('en', en.redirectIn, 5), 'Returning to the shop in 5 seconds');
    assert.equal(plural('not a locale!', en.minutesLeft, 1), '1 minute left to pay');
  });

  test('numbers in plurals are formatted for the locale', () => {
    assert.equal(plural('en', { other: '{n} s' }, 1000), '1,000 s');
  });
});
