import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fill, localeChain, messagesFor, missingTables, resolveLanguage } from '../../../src/element/i18n/index.js';
import { loadLanguage } from '../../../src/element/i18n/load.js';
import { plural } from '../../../src/element/i18n/plural.js';
import en from '../../../src/element/i18n/en.js';
import offline from '../../../src/element/i18n/en-offline.js';
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

  test('every table is loaded on demand; until then only the offline English messages are there', async () => {
    assert.deepEqual(missingTables('ru-RU'), ['ru']);
    assert.deepEqual(missingTables('en-GB'), ['en']);
    assert.deepEqual(missingTables('de-DE'), ['en'], 'a language without a table needs English');
    assert.deepEqual(missingTables(''), ['en']);
    const before = messagesFor('ru');
    assert.equal(before.payTitle, undefined, 'no text of a table not loaded');
    assert.equal(before.errors.network, offline.errors.network);
    assert.equal(before.retry, offline.retry);
    assert.equal(await loadLanguage('ru-RU'), true);
    assert.deepEqual(missingTables('ru-RU'), []);
    assert.equal(messagesFor('ru-RU').payTitle, ru.payTitle);
    assert.equal(messagesFor('ru-RU').retry, ru.retry, 'the language wins over the offline English');
    assert.deepEqual(missingTables('de-DE'), ['en'], 'Russian does not stand in for English');
    assert.equal(await loadLanguage('de-DE'), true);
    assert.deepEqual(missingTables('de-DE'), []);
    assert.equal(messagesFor('de-DE').payTitle, en.payTitle);
    assert.equal(await loadLanguage('de-DE'), false, 'nothing new arrives the second time');
  });

  test('a partial table is completed by English, key by key', async () => {
    await loadLanguage('be-BY');
    assert.notEqual(messagesFor('be-BY').payTitle, en.payTitle);
    assert.deepEqual(Object.keys(messagesFor('be-BY')).sort(), Object.keys(en).sort());
  });

  test('the offline messages are the English ones, and few', () => {
    for (const [key, text] of Object.entries(offline)) {
      if (key === 'errors') continue;
      assert.equal(text, en[key as keyof typeof en], key);
    }
    for (const [code, text] of Object.entries(offline.errors)) assert.equal(text, en.errors[code as keyof typeof en.errors], code);
    assert.ok(Object.keys(offline).length < Object.keys(en).length / 4);
  });
});

describe('merged tables', () => {
  before(async () => {
    await loadLanguage('ru');
    await loadLanguage('en');
  });

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
