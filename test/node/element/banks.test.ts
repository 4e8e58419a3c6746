import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { APP_SCHEMES, BANK_APPS, bankLinks, detectPlatform, sbpAppLink } from '../../../src/element/banks.js';
import { NSPK_MEMBER_IDS } from '../../../src/provider/facts.js';
import { orderView, PAYMENT_LINK } from '../../browser/helpers/orders.js';

const phoneOrder = orderView({ payment_link: null });
const cardOrder = orderView({ payment_link: null, requisites: { holder_name: 'X', holder_account: '4627 1001 0165 4724', kind: 'card' } });

describe('bank table', () => {
  test('has every NSPK member of facts.ts with its member id and a name in both languages', () => {
    assert.deepEqual(BANK_APPS.map((b) => b.memberId).sort(), Object.values(NSPK_MEMBER_IDS).sort());
    for (const b of BANK_APPS) assert.ok(b.name.ru && b.name.en && b.name.en !== b.key, b.key);
  });

  test('the four provider banks carry their customer_bank value', () => {
    const named = BANK_APPS.filter((b) => b.customerBank).map((b) => `${b.key}=${b.customerBank}`).sort();
    assert.deepEqual(named, ['alfa=alfabank', 'sber=sberbank', 'tbank=tinkoff', 'vtb=vtb']);
  });

  test('the scheme allowlist is exactly the bank schemes and the bank{member id} schemes', () => {
    assert.ok(APP_SCHEMES.has('sberbankonline:') && APP_SCHEMES.has('tinkoffbank:') && APP_SCHEMES.has('alfabank:'));
    assert.ok(APP_SCHEMES.has('bank100000000004:'));
    assert.equal(APP_SCHEMES.size, 3 + BANK_APPS.length);
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

describe('SBP links', () => {
  test('on iOS the https of the NSPK link becomes bank{member id}://', () => {
    assert.equal(sbpAppLink(PAYMENT_LINK, '100000000004', 'ios'), PAYMENT_LINK.replace('https://', 'bank100000000004://'));
  });

  test('on Android the link itself', () => {
    assert.equal(sbpAppLink(PAYMENT_LINK, '100000000004', 'android'), PAYMENT_LINK);
  });

  test('an unsafe payment link gives nothing', () => {
    assert.equal(sbpAppLink('javascript:alert(1)', '100000000004', 'ios'), null);
  });

  test('iOS: one link per bank app; Android: one "open in bank app" link; desktop: none', () => {
    const order = orderView();
    const ios = bankLinks(order, 'ios');
    assert.equal(ios.primary, null);
    assert.equal(ios.banks.length, BANK_APPS.length);
    assert.ok(ios.banks.every((b) => b.href.startsWith('bank1000000') && b.href.includes('://qr.nspk.ru/')));
    assert.deepEqual(bankLinks(order, 'android'), { primary: PAYMENT_LINK, banks: [] });
    assert.deepEqual(bankLinks(order, 'desktop'), { primary: null, banks: [] });
  });

  test('a preselected bank limits the links to that bank', () => {
    const ios = bankLinks(orderView(), 'ios', 'tinkoff');
    assert.deepEqual(ios.banks.map((b) => b.key), ['tbank']);
    const android = bankLinks(orderView(), 'android', 'sberbank');
    assert.equal(android.primary, null);
    assert.deepEqual(android.banks.map((b) => [b.key, b.href]), [['sber', PAYMENT_LINK]]);
  });
});

describe('transfer links by requisites', () => {
  test('phone: Sber, T-Bank, VTB and Alfa templates with the amount', () => {
    const links = Object.fromEntries(bankLinks(phoneOrder, 'ios').banks.map((b) => [b.key, b.href]));
    assert.deepEqual(Object.keys(links).sort(), ['alfa', 'sber', 'tbank', 'vtb']);
    assert.equal(links.sber, 'sberbankonline://payments/p2p?type=phone_number&requisiteNumber=79991234567&amount=1500.00');
    assert.equal(links.tbank, 'tinkoffbank://Main/PayByMobileNumber?amount=1500.00&numberPhone=%2B79991234567&workflowType=RTLNTransfer');
    assert.equal(links.vtb, 'https://online.vtb.ru/i/transfers?phoneNumber=%2B79991234567&amount=1500.00&bankCode=100000000111');
    assert.equal(links.alfa, 'alfabank://payments/phone?number=%2B79991234567');
  });

  test('VTB link without bankCode when the recipient bank is unknown', () => {
    const links = bankLinks({ ...phoneOrder, bank: null }, 'android').banks;
    assert.equal(links.find((b) => b.key === 'vtb')!.href, 'https://online.vtb.ru/i/transfers?phoneNumber=%2B79991234567&amount=1500.00');
  });

  test('card: the Sber card template only', () => {
    const links = bankLinks(cardOrder, 'android').banks;
    assert.deepEqual(links.map((b) => b.href), ['sberbankonline://payments/p2p?type=card_number&requisiteNumber=4627100101654724&amount=1500.00']);
  });

  test('an account, a malformed phone or a card that is not digits gives no links', () => {
    assert.deepEqual(bankLinks({ ...phoneOrder, requisites: { holder_name: 'X', holder_account: '40817810099991234567', kind: 'account' } }, 'ios').banks, []);
    assert.deepEqual(bankLinks({ ...phoneOrder, requisites: { holder_name: 'X', holder_account: '+1 555', kind: 'phone' } }, 'ios').banks, []);
    assert.deepEqual(bankLinks({ ...phoneOrder, requisites: { holder_name: 'X', holder_account: '4627"><x', kind: 'card' } }, 'ios').banks, []);
  });

  test('a hostile amount is URL-encoded, never breaking out of the parameter', () => {
    const links = bankLinks({ ...phoneOrder, amount: '1&x=javascript:1' }, 'ios').banks;
    assert.ok(links.every((b) => !b.href.includes('&x=')));
  });
});
