/**
 * The bank links per platform, checked against the generated SBP bank table (bank-table.ts): iOS
 * schemes with the https fallback, Android intents with the bank's package and the https fallback,
 * web clients, and the transfer templates for phone and card numbers.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findBanks, parseBanks } from '../../../src/banks/names.js';
import { bankLinks, memberIdOf, safeAppUrl, sbpAppLink, TEMPLATE_SCHEMES, webClientLink } from '../../../src/element/bank-links.js';
import { BANKS, POPULAR_COUNT, SNAPSHOT } from '../../../src/banks/bank-table.js';
import { BANKS as FACTS_BANKS, bankByMemberId } from '../../../src/provider/facts.js';
import { detectPlatform } from '../../../src/element/platform.js';
import { orderView, PAYMENT_LINK } from '../../browser/helpers/orders.js';

const table = parseBanks(BANKS, POPULAR_COUNT);
const byName = (name: string) => table.find((b) => b.name.en === name)!;
const phoneOrder = orderView({ payment_link: null });
const cardOrder = orderView({ payment_link: null, requisites: { holder_name: 'X', holder_account: '4627 1001 0165 4724', kind: 'card' } });
const LINK_TAIL = PAYMENT_LINK.slice('https://'.length);

describe('the SBP bank table (generated)', () => {
  test('has every NSPK member of the snapshot, each once, with a name in both scripts', () => {
    assert.equal(table.length, 192);
    assert.equal(new Set(table.map((b) => b.id)).size, 192);
    for (const b of table) assert.ok(b.name.ru && b.name.en && /^[\x20-\x7e]+$/.test(b.name.en), `${b.id} ${b.name.en}`);
    assert.match(SNAPSHOT, /^\d{4}-\d{2}-\d{2}$/);
  });

  test('the most used banks come first, Sber first', () => {
    assert.ok(POPULAR_COUNT >= 10);
    assert.deepEqual(table.slice(0, 4).map((b) => b.name.en), ['Sber', 'T-Bank', 'VTB', 'Alfa-Bank']);
    assert.ok(table.slice(0, POPULAR_COUNT).every((b) => b.popular) && !table[POPULAR_COUNT]!.popular);
  });

  test('keeps VTB’s own scheme (bank110000000005), packages and web clients as NSPK lists them', () => {
    const vtb = byName('VTB');
    assert.equal(vtb.id, '110000000005');
    assert.equal(vtb.scheme, 'bank110000000005');
    assert.equal(vtb.pkg, 'ru.vtb24.mobilebanking.android');
    assert.equal(vtb.web, 'https://online.vtb.ru/i/paymentSbp');
    assert.equal(byName('Sber').web, null, 'no web client for Sber');
    assert.ok(table.some((b) => b.pkg === null), 'some banks have no Android package');
  });

  test('no third-party logos: only ids, names, schemes, packages and web clients', () => {
    assert.doesNotMatch(BANKS, /\.png|\.svg|proxyapp|qr\.nspk\.ru\/proxy/);
  });

  test('search by Russian and Latin name and by other names, ё as е, case and punctuation aside', () => {
    const names = (q: string) => findBanks(table, q).map((b) => b.name.en);
    assert.deepEqual(names('сбер'), ['Sber']);
    assert.deepEqual(names('SBER'), ['Sber']);
    assert.ok(names('тинькофф').includes('T-Bank') && names('tinkoff').includes('T-Bank'));
    assert.ok(names('t-bank').includes('T-Bank'));
    assert.ok(names('альфа').includes('Alfa-Bank'));
    assert.ok(names('Moskovskiy').includes('MKB'), 'NSPK’s own name, transliterated, finds a bank shown by a shorter one');
    assert.equal(findBanks(table, '').length, 192);
    assert.deepEqual(names('qwertyzzz'), []);
  });
});

describe('bank search ranks: the bank named first, a handful for a full name, "банк" aside', () => {
  const ranked = (q: string) => findBanks(table, q).map((b) => b.name.en);
  test('"Т-Банк" finds T-Bank first and at most 5 banks (not every name that contains "банк")', () => {
    for (const q of ['Т-Банк', 'т-банк', 'Т Банк', 'тбанк', 'T-Bank', 'tbank']) {
      const found = ranked(q);
      assert.equal(found[0], 'T-Bank', q);
      assert.ok(found.length <= 5, `${q}: ${found.length} banks (${found.join(', ')})`);
    }
  });

  test('common names and aliases find their bank first, and only a handful', () => {
    for (const [q, bank] of [
      ['тинькофф', 'T-Bank'],
      ['Тинькофф Банк', 'T-Bank'],
      ['сбер', 'Sber'],
      ['Сбербанк', 'Sber'],
      ['втб', 'VTB'],
      ['Банк ВТБ', 'VTB'],
      ['альфа', 'Alfa-Bank'],
      ['Альфа-Банк', 'Alfa-Bank'],
      ['альфа банк', 'Alfa-Bank'],
      ['озон', 'Ozon Bank'],
      ['Озон Банк', 'Ozon Bank'],
    ] as const) {
      const found = ranked(q);
      assert.equal(found[0], bank, `${q}: ${found.slice(0, 5).join(', ')}`);
      assert.ok(found.length <= 5, `${q}: ${found.length} banks`);
    }
  });

  test('a name’s first letters list that bank among the others that start so, the most used first', () => {
    const found = ranked('т');
    assert.equal(found[0], 'T-Bank');
    assert.ok(found.length > 1);
    assert.deepEqual(ranked('моск кред'), ['MKB']);
  });

  test('"банк" alone is not ignored: it lists the banks with it in their name', () => {
    assert.ok(ranked('банк').length > 100);
  });
});

describe('no payment link over plain http', () => {
  test('the generated table has no http:// web client (NSPK lists one; it is upgraded)', () => {
    assert.doesNotMatch(BANKS, /http:\/\//);
    assert.equal(table.find((b) => b.id === '100000000201')!.web, 'https://dbo.kremlinbank.ru/fps/c2b');
  });

  test('at run time an http web client of a table is upgraded to https, whatever made the table', () => {
    const [bank] = parseBanks('100000000201|Банк Кремлевский|Bank Kremlevskiy||ru.example.app|http://dbo.kremlinbank.ru/fps/c2b|');
    assert.equal(bank!.web, 'https://dbo.kremlinbank.ru/fps/c2b');
    assert.ok(webClientLink(PAYMENT_LINK, { web: 'http://dbo.kremlinbank.ru/fps/c2b' })!.startsWith('https://dbo.kremlinbank.ru/fps/c2b/'));
    for (const l of bankLinks(orderView(), 'desktop', [bank!])) assert.ok(l.href.startsWith('https://'), l.href);
  });
});

describe('SBP payment link, per platform', () => {
  test('iOS: the bank’s scheme on the NSPK link, the https link as fallback', () => {
    const link = sbpAppLink(PAYMENT_LINK, byName('T-Bank'), 'ios');
    assert.deepEqual(link, { href: `bank100000000004://${LINK_TAIL}`, fallback: PAYMENT_LINK });
    assert.equal(sbpAppLink(PAYMENT_LINK, byName('VTB'), 'ios')!.href, `bank110000000005://${LINK_TAIL}`);
  });

  test('Android: an intent with the bank’s package and the https link as browser fallback', () => {
    const { href, fallback } = sbpAppLink(PAYMENT_LINK, byName('Sber'), 'android')!;
    assert.equal(fallback, null, 'the intent carries its own fallback');
    assert.equal(href, `intent://${LINK_TAIL}#Intent;scheme=https;package=ru.sberbankmobile;S.browser_fallback_url=${encodeURIComponent(PAYMENT_LINK)};end`);
    const noPackage = table.find((b) => !b.pkg)!;
    assert.deepEqual(sbpAppLink(PAYMENT_LINK, noPackage, 'android'), { href: PAYMENT_LINK, fallback: null }, 'no package: the https link (the system offers the apps)');
  });

  test('web clients: the link’s path and query after the bank’s web client address', () => {
    assert.equal(webClientLink(PAYMENT_LINK, byName('Raiffeisenbank')), `https://online.raiffeisen.ru/outer/qr/qr.nspk.ru${LINK_TAIL.slice('qr.nspk.ru'.length)}`);
    assert.equal(webClientLink(PAYMENT_LINK, byName('Sber')), null);
  });

  test('bank sheet: every bank on a phone, in table order; only web clients on a desktop', () => {
    const ios = bankLinks(orderView(), 'ios', table);
    assert.equal(ios.length, 192);
    assert.deepEqual(ios.map((l) => l.id), table.map((b) => b.id));
    assert.ok(ios.every((l) => l.fallback === PAYMENT_LINK && /^bank\d{12}:\/\/qr\.nspk\.ru\//.test(l.href)));
    const android = bankLinks(orderView(), 'android', table);
    assert.equal(android.length, 192);
    assert.equal(android.filter((l) => l.href.startsWith('intent://')).length, table.filter((b) => b.pkg).length);
    const desktop = bankLinks(orderView(), 'desktop', table);
    assert.equal(desktop.length, table.filter((b) => b.web).length);
    assert.ok(desktop.every((l) => l.href.startsWith('http') && l.fallback === null));
    const tbank = ios.find((l) => l.id === '100000000004')!;
    assert.ok(tbank.web?.startsWith('https://www.tinkoff.ru/mybank/payments/qr-pay/'), 'a phone entry offers the web client beside the app');
  });

  test('a preselected bank keeps that bank alone (VTB’s two member ids match)', () => {
    assert.deepEqual(bankLinks(orderView(), 'ios', table, memberIdOf('tinkoff')).map((l) => l.name.en), ['T-Bank']);
    assert.deepEqual(bankLinks(orderView(), 'ios', table, memberIdOf('vtb')).map((l) => l.name.en), ['VTB']);
  });

  test('the provider facts are what matches a preselected bank to the table: each of their banks keeps one row, by either of its ids', () => {
    for (const bank of FACTS_BANKS) {
      const kept = bankLinks(orderView(), 'ios', table, bank.memberId);
      assert.deepEqual(kept.map((l) => l.name.en), [bank.name.en], bank.customerBank);
      assert.equal(bankByMemberId(kept[0]!.id), bank, `the facts know ${bank.name.en} by the table's id ${kept[0]!.id}`);
      if (bank.listedMemberId) assert.deepEqual(bankLinks(orderView(), 'ios', table, bank.listedMemberId).map((l) => l.id), [kept[0]!.id]);
    }
    assert.equal(bankByMemberId('110000000005')?.customerBank, 'vtb');
    assert.equal(bankByMemberId('100000000005')?.customerBank, 'vtb');
  });

  test('ids that differ only in their first digits are other banks unless the facts say so', () => {
    const lookalike = { ...byName('T-Bank'), id: '110000000004', name: { ru: 'Другой', en: 'Other' } };
    assert.deepEqual(bankLinks(orderView(), 'ios', [...table, lookalike], memberIdOf('tinkoff')).map((l) => l.name.en), ['T-Bank']);
  });

  test('an unsafe payment link gives nothing', () => {
    assert.equal(sbpAppLink('javascript:alert(1)', byName('Sber'), 'ios'), null);
    assert.deepEqual(bankLinks(orderView({ payment_link: 'data:text/html,x', requisites: null }), 'ios', table), []);
  });
});

describe('transfers by phone or card number', () => {
  test('phone: every known template (Sber, T-Bank, VTB, Alfa) with the amount, without the table', () => {
    const links = Object.fromEntries(bankLinks(phoneOrder, 'ios', []).map((b) => [b.name.en, b.href]));
    assert.deepEqual(Object.keys(links).sort(), ['Alfa-Bank', 'Sber', 'T-Bank', 'VTB']);
    assert.equal(links.Sber, 'sberbankonline://payments/p2p?type=phone_number&requisiteNumber=79991234567&amount=1500.00');
    assert.equal(links['T-Bank'], 'tinkoffbank://Main/PayByMobileNumber?amount=1500.00&numberPhone=%2B79991234567&workflowType=RTLNTransfer');
    assert.equal(links.VTB, 'https://online.vtb.ru/i/transfers?phoneNumber=%2B79991234567&amount=1500.00&bankCode=100000000111');
    assert.equal(links['Alfa-Bank'], 'alfabank://payments/phone?number=%2B79991234567');
  });

  test('a card of any bank (here VTB’s) gets every app with a card template, not only the issuer’s', () => {
    const links = bankLinks({ ...cardOrder, bank: 'vtb' }, 'android', []);
    assert.deepEqual(links.map((b) => b.href), ['sberbankonline://payments/p2p?type=card_number&requisiteNumber=4627100101654724&amount=1500.00']);
  });

  test('a preselected bank does not hide the apps of a transfer (the shopper pays from their own bank)', () => {
    assert.equal(bankLinks(phoneOrder, 'ios', [], memberIdOf('tinkoff')).length, 4);
  });

  test('desktop: no app links for a transfer', () => {
    assert.deepEqual(bankLinks(phoneOrder, 'desktop', []), []);
  });

  test('VTB link without bankCode when the recipient bank is unknown', () => {
    const links = bankLinks({ ...phoneOrder, bank: null }, 'android', []);
    assert.equal(links.find((b) => b.name.en === 'VTB')!.href, 'https://online.vtb.ru/i/transfers?phoneNumber=%2B79991234567&amount=1500.00');
  });

  test('an account, a malformed phone or a card that is not digits gives no links', () => {
    assert.deepEqual(bankLinks({ ...phoneOrder, requisites: { holder_name: 'X', holder_account: '40817810099991234567', kind: 'account' } }, 'ios', []), []);
    assert.deepEqual(bankLinks({ ...phoneOrder, requisites: { holder_name: 'X', holder_account: '+1 555', kind: 'phone' } }, 'ios', []), []);
    assert.deepEqual(bankLinks({ ...phoneOrder, requisites: { holder_name: 'X', holder_account: '4627"><x', kind: 'card' } }, 'ios', []), []);
  });

  test('a hostile amount is URL-encoded, never breaking out of the parameter', () => {
    const links = bankLinks({ ...phoneOrder, amount: '1&x=javascript:1' }, 'ios', []);
    assert.ok(links.length > 0 && links.every((b) => !b.href.includes('&x=')));
  });
});

describe('transfers with the bank table: the shopper’s own bank, whichever it is', () => {
  const accountOrder = orderView({ payment_link: null, requisites: { holder_name: 'X', holder_account: '40702810099991234567', kind: 'account' } });
  test('a card: every bank of the table; Sber’s app filled in, the others opened by their scheme (iOS)', () => {
    const links = bankLinks(cardOrder, 'ios', table);
    assert.equal(links.length, 192);
    assert.deepEqual(links.filter((l) => l.filled).map((l) => l.name.en), ['Sber']);
    assert.equal(links.find((l) => l.name.en === 'T-Bank')!.href, 'bank100000000004://');
    assert.equal(links.find((l) => l.name.en === 'VTB')!.href, 'bank110000000005://');
  });

  test('an account: every bank, none filled in; Android starts the app by its package, banks without one are left out', () => {
    const links = bankLinks(accountOrder, 'android', table);
    assert.equal(links.length, table.filter((b) => b.pkg).length);
    assert.ok(links.every((l) => !l.filled));
    assert.equal(
      links.find((l) => l.name.en === 'T-Bank')!.href,
      'intent:#Intent;action=android.intent.action.MAIN;category=android.intent.category.LAUNCHER;package=com.idamob.tinkoff.android;end',
    );
  });

  test('the recipient’s bank for VTB’s link comes from requisites.bank_name', () => {
    const order = { ...phoneOrder, bank: null, requisites: { ...phoneOrder.requisites!, bank_name: 'Т-Банк' } };
    assert.match(bankLinks(order, 'android', table).find((l) => l.name.en === 'VTB')!.href, /&bankCode=100000000004$/);
  });

  test('not in roubles: no Russian bank apps for a transfer', () => {
    assert.deepEqual(bankLinks({ ...cardOrder, currency: 'UZS' }, 'ios', table), []);
  });
});

describe('app link safety', () => {
  test('allowlisted schemes pass', () => {
    assert.equal(safeAppUrl('sberbankonline://payments/p2p?x=1', TEMPLATE_SCHEMES), 'sberbankonline://payments/p2p?x=1');
    assert.equal(safeAppUrl('https://online.vtb.ru/i/transfers', TEMPLATE_SCHEMES), 'https://online.vtb.ru/i/transfers');
    assert.equal(safeAppUrl('bank100000000111://qr.nspk.ru/AS1', new Set(['bank100000000111:'])), 'bank100000000111://qr.nspk.ru/AS1');
  });

  test('other schemes, unknown banks and scripts are dropped', () => {
    for (const bad of ['intent://x#Intent;end', 'bank999999999999://x', 'javascript://x', 'tinkoffbank:no-slashes', 'sberbankonline://a b', null]) {
      assert.equal(safeAppUrl(bad, TEMPLATE_SCHEMES), null, String(bad));
    }
  });

  test('every scheme and package of the table is a plain identifier (nothing can break out of a link)', () => {
    for (const b of table) {
      assert.match(b.scheme, /^[a-z][a-z0-9+.-]*$/, b.id);
      if (b.pkg) assert.match(b.pkg, /^[A-Za-z][\w]*(\.\w+)+$/, b.id);
    }
  });
});

describe('platform', () => {
  test('iPhone, iPad (also as a Mac with touch), Android and desktop', () => {
    assert.equal(detectPlatform('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)'), 'ios');
    assert.equal(detectPlatform('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', 5), 'ios');
    assert.equal(detectPlatform('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', 0), 'desktop');
    assert.equal(detectPlatform('Mozilla/5.0 (Linux; Android 14; Pixel 8)'), 'android');
    assert.equal(detectPlatform('Mozilla/5.0 (X11; Linux x86_64)'), 'desktop');
  });
});
