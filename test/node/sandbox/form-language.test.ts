import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { LANGUAGES } from '../../../src/element/i18n/index.js';
import en from '../../../src/element/i18n/en.js';
import hy from '../../../src/element/i18n/hy.js';
import ru from '../../../src/element/i18n/ru.js';
import { HOSTED_FORM_LOCALES } from '../../../src/sandbox/constants.js';
import { hostedFormLocale, localeFromAcceptLanguage, supportedLocale } from '../../../src/sandbox/locale.js';
import { makeSandbox, type TestSandbox } from './helpers.js';

async function formSession(t: TestSandbox): Promise<string> {
  const r = await t.post('/api/v1/form/create', { order_data: { client_order_id: `lang-${Math.random()}`, order_side: 'Buy', amount: '1500.00' } });
  assert.equal(r.status, 201);
  return r.json.form_data.session_id;
}

function pageOf(t: TestSandbox, path: string, headers: Record<string, string> = {}) {
  return t.call('GET', path, undefined, { key: null, headers });
}

const elementTag = (html: string) => /<paydesk-checkout [^>]*>/.exec(html)?.[0] ?? '';

describe('hosted form language', () => {
  test('the languages offered are exactly the widget’s tables', () => {
    assert.deepEqual([...HOSTED_FORM_LOCALES].sort(), [...LANGUAGES].sort());
  });

  test('?lang= on form_url sets the page language and the element’s locale', async () => {
    const t = makeSandbox({ seed: false });
    const id = await formSession(t);
    const r = await pageOf(t, `/pay?session_id=${id}&lang=kk`);
    assert.equal(r.status, 200);
    assert.match(r.text, /<html lang="kk">/);
    assert.match(elementTag(r.text), / locale="kk"/);
    assert.equal(r.headers.get('Content-Language'), 'kk');
    await t.close();
  });

  test('?lang= wins over Accept-Language', async () => {
    const t = makeSandbox({ seed: false });
    const id = await formSession(t);
    const r = await pageOf(t, `/pay?session_id=${id}&lang=uz`, { 'Accept-Language': 'en-US,en;q=0.9' });
    assert.match(elementTag(r.text), / locale="uz"/);
    await t.close();
  });

  test('without ?lang= the best supported Accept-Language is used, and the plain texts follow it', async () => {
    const t = makeSandbox({ seed: false });
    const id = await formSession(t);
    const r = await pageOf(t, `/pay?session_id=${id}`, { 'Accept-Language': 'de-DE,de;q=0.9,en-GB;q=0.8,ru;q=0.5' });
    assert.match(r.text, /<html lang="en">/);
    assert.match(elementTag(r.text), / locale="en"/);
    assert.match(r.text, new RegExp(`<dt>${en.toPay}</dt><dd>RUB\\s1,500\\.00</dd>`));
    assert.doesNotMatch(r.text, new RegExp(ru.toPay));
    assert.match(r.headers.get('Vary') ?? '', /Accept-Language/);
    await t.close();
  });

  test('an unsupported or hostile ?lang= is ignored: Accept-Language, else Russian', async () => {
    const t = makeSandbox({ seed: false });
    const id = await formSession(t);
    const hostile = await pageOf(t, `/pay?session_id=${id}&lang=${encodeURIComponent('"><script>alert(1)</script>')}`, { 'Accept-Language': 'be' });
    assert.match(elementTag(hostile.text), / locale="be"/);
    assert.doesNotMatch(hostile.text, /<script>alert/);
    const plain = await pageOf(t, `/pay?session_id=${id}&lang=fr`);
    assert.match(plain.text, /<html lang="ru">/);
    assert.doesNotMatch(elementTag(plain.text), /locale=/);
    assert.match(plain.text, new RegExp(`<dt>${ru.toPay}</dt>`));
    await t.close();
  });

  test('the plain texts are the widget’s own, in every language it has (one home for shopper text)', async () => {
    const t = makeSandbox({ seed: false });
    const id = await formSession(t);
    const r = await pageOf(t, `/pay?session_id=${id}&lang=hy`);
    assert.match(r.text, /<html lang="hy">/);
    assert.match(r.text, /<div class="paydesk-fallback" data-state="[a-z_]+">/, 'no part of the page falls back to English');
    for (const text of [hy.chooseTitle, hy.orderLabel, hy.toPay]) assert.ok(r.text.includes(`>${text}<`), text);
    assert.match(r.text, new RegExp(`<title>${hy.region} — `));
    assert.doesNotMatch(r.text, /<dt>[^<]*(State|Состояние)/, 'the session state is for developers (data-state), not shopper text');
    await t.close();
  });

  test('the not-found page speaks the asked language too', async () => {
    const t = makeSandbox({ seed: false });
    const r = await pageOf(t, '/pay?session_id=nope&lang=en');
    assert.equal(r.status, 404);
    assert.match(r.text, /<html lang="en">/);
    assert.ok(r.text.includes(en.errors.session_invalid));
    const inRussian = await pageOf(t, '/pay?session_id=nope');
    assert.ok(inRussian.text.includes(ru.errors.session_invalid));
    await t.close();
  });

  test('the widget’s language tables are served beside its script, and nothing else is', async () => {
    const asked: string[] = [];
    const t = makeSandbox({
      seed: false,
      widgetFile: async (path) => {
        asked.push(path);
        return path === 'chunks/kk.js' ? 'export default {};' : null;
      },
    });
    const r = await t.call('GET', '/pay/chunks/kk.js', undefined, { key: null });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('Content-Type')!, /javascript/);
    assert.equal(r.text, 'export default {};');
    assert.equal((await t.call('GET', '/pay/chunks/xx.js', undefined, { key: null })).status, 404);
    assert.equal((await t.call('GET', '/pay/chunks/..%2Fpaydesk.js', undefined, { key: null })).status, 404);
    assert.equal((await t.call('GET', '/pay/chunks/kk.css', undefined, { key: null })).status, 404);
    assert.deepEqual(asked, ['chunks/kk.js', 'chunks/xx.js'], 'only chunk names reach widgetFile');
    await t.close();
  });
});

describe('language choice (pure)', () => {
  test('a tag names its language; region and script subtags are dropped', () => {
    assert.equal(supportedLocale('kk-KZ'), 'kk');
    assert.equal(supportedLocale('uz_Cyrl'), 'uz');
    assert.equal(supportedLocale('EN'), 'en');
    assert.equal(supportedLocale('fr'), null);
    assert.equal(supportedLocale(''), null);
    assert.equal(supportedLocale('en;drop table'), null);
  });

  test('Accept-Language is read by quality, q=0 refuses a language, order breaks ties', () => {
    assert.equal(localeFromAcceptLanguage('ru;q=0.5, kk;q=0.8'), 'kk');
    assert.equal(localeFromAcceptLanguage('en;q=0, uk'), 'uk');
    assert.equal(localeFromAcceptLanguage('az, ky'), 'az');
    assert.equal(localeFromAcceptLanguage('*'), null);
    assert.equal(localeFromAcceptLanguage(`${'xx,'.repeat(5000)}ru`), null, 'a huge header is cut, not parsed whole');
    assert.equal(hostedFormLocale(null, null), null);
    assert.equal(hostedFormLocale('tg', 'ru'), 'tg');
  });
});
