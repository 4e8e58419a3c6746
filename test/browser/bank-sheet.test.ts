/**
 * The bank sheet: every SBP bank on a phone (the most used first, search in Russian and Latin, the
 * last bank remembered), the platform's link with its fallback, transfer templates for phone and
 * card numbers, the online banks on a desktop; the table is loaded only when the sheet opens.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { byText, mount, norm, type Harness } from './helpers/mount.js';
import { FakeEndpoint } from './helpers/fake-endpoint.js';
import { FakeClock } from './helpers/fake-clock.js';
import { orderView, PAYMENT_LINK } from './helpers/orders.js';
import type { OrderView } from '../../src/protocol/index.js';
import { LAST_BANK_KEY } from '../../src/element/banks.js';

const tableLoads = () => performance.getEntriesByType('resource').filter((e) => /bank-table/.test(e.name)).length;

async function pay(platform: 'ios' | 'android' | 'desktop', patch: Partial<OrderView> = {}, props = {}): Promise<Harness> {
  const server = new FakeEndpoint();
  const clock = new FakeClock(Date.now());
  server.serverNow = () => clock.now();
  server.makeOrder = (_b, n) => orderView({ id: `ord-${n}`, ...patch }, clock.now());
  const h = await mount({ paymentMethodId: 'm-sbp', ...props }, { server, clock, env: { platform } });
  await h.until('pay');
  return h;
}

async function open(h: Harness, label = 'Pay in bank app'): Promise<HTMLDialogElement> {
  byText(h.root, label).click();
  await waitUntil(() => h.root.querySelector('dialog[open] [part="banks"]'), 'the bank sheet with its list', { timeout: 6000 });
  await h.el.updateComplete;
  return h.root.querySelector('dialog')!;
}

const names = (dialog: HTMLDialogElement) => [...dialog.querySelectorAll<HTMLElement>('.bank')].map((a) => norm(a.innerText));

describe('the bank sheet', () => {
  it('loads the bank table only when a shopper opens it', async () => {
    const before = tableLoads();
    const h = await pay('ios');
    expect(tableLoads()).to.equal(before, 'not with the pay view');
    await open(h);
    expect(tableLoads()).to.be.at.most(before + 1);
    expect(h.root.querySelectorAll('dialog .bank').length).to.equal(192);
  });

  it('iPhone: a modal sheet, the most used banks first, monograms, the snapshot date, focus in the search', async () => {
    const h = await pay('ios');
    const dialog = await open(h);
    expect(dialog.open).to.equal(true);
    expect(h.root.activeElement?.tagName).to.equal('INPUT');
    expect(names(dialog).slice(0, 4)).to.deep.equal(['S Sber', 'T T-Bank', 'V VTB', 'A Alfa-Bank']);
    expect(dialog.querySelector('img')).to.equal(null, 'no third-party logos');
    expect(norm(dialog.textContent!)).to.include('SBP banks as of April 29, 2026');
    const tbank = [...dialog.querySelectorAll<HTMLAnchorElement>('.bank')].find((a) => a.textContent!.includes('T-Bank'))!;
    expect(tbank.getAttribute('href')).to.equal(PAYMENT_LINK.replace('https://', 'bank100000000004://'));
  });

  it('search by Russian and Latin names; nothing found is said', async () => {
    const h = await pay('ios', {}, { locale: 'ru' });
    const dialog = await open(h, 'Оплатить в приложении банка');
    const search = dialog.querySelector('input')!;
    for (const [q, first] of [['альфа', 'Альфа-Банк'], ['alfa', 'Альфа-Банк'], ['тинькофф', 'Т-Банк'], ['Yandex', 'Яндекс Банк']] as const) {
      search.value = q;
      search.dispatchEvent(new Event('input'));
      await h.el.updateComplete;
      expect(names(dialog)[0], q).to.include(first);
    }
    search.value = 'zzzz';
    search.dispatchEvent(new Event('input'));
    await h.el.updateComplete;
    expect(names(dialog)).to.deep.equal([]);
    expect(dialog.querySelector('[role="status"]')!.textContent).to.equal('Банк с таким названием не найден. Попробуйте написать иначе.');
  });

  it('iOS: opens the bank’s scheme; when the app does not open (the page stays in front) the https link', async () => {
    const h = await pay('ios');
    const dialog = await open(h);
    const opener = byText(h.root, 'Pay in bank app');
    [...dialog.querySelectorAll<HTMLAnchorElement>('.bank')].find((a) => a.textContent!.includes('T-Bank'))!.click();
    await h.el.updateComplete;
    expect(h.navigations).to.deep.equal([PAYMENT_LINK.replace('https://', 'bank100000000004://')]);
    expect(dialog.open).to.equal(false);
    expect(h.root.activeElement).to.equal(opener, 'focus back on the button');
    await h.advance(1500);
    expect(h.navigations).to.deep.equal([PAYMENT_LINK.replace('https://', 'bank100000000004://'), PAYMENT_LINK]);
  });

  it('iOS: no fallback when the app opened (the page went to the background)', async () => {
    const h = await pay('ios');
    const dialog = await open(h);
    dialog.querySelector<HTMLAnchorElement>('.bank')!.click();
    h.page.hide();
    await h.advance(3000);
    expect(h.navigations).to.have.length(1);
    h.page.show();
  });

  it('remembers the last bank and shows it first', async () => {
    localStorage.removeItem(LAST_BANK_KEY);
    const h = await pay('ios');
    let dialog = await open(h);
    [...dialog.querySelectorAll<HTMLAnchorElement>('.bank')].find((a) => a.textContent!.includes('Gazprombank'))!.click();
    expect(h.storage.getItem(LAST_BANK_KEY)).to.equal('100000000001');
    dialog = await open(h);
    expect(names(dialog)[0]).to.equal('G Gazprombank Last used');
  });

  it('Android: an intent with the bank’s package, the https link as its fallback', async () => {
    const h = await pay('android');
    const dialog = await open(h);
    dialog.querySelector<HTMLAnchorElement>('.bank')!.click();
    expect(h.navigations[0]).to.equal(
      `intent://${PAYMENT_LINK.slice(8)}#Intent;scheme=https;package=ru.sberbankmobile;S.browser_fallback_url=${encodeURIComponent(PAYMENT_LINK)};end`,
    );
    await h.advance(3000);
    expect(h.navigations).to.have.length(1, 'the intent carries its own fallback');
  });

  it('offers a bank’s web client beside its app', async () => {
    const h = await pay('android');
    const dialog = await open(h);
    const vtbRow = [...dialog.querySelectorAll('li')].find((li) => li.textContent!.includes('VTB'))!;
    const web = vtbRow.querySelector<HTMLAnchorElement>('.web')!;
    expect(web.getAttribute('href')).to.equal(`https://online.vtb.ru/i/paymentSbp${new URL(PAYMENT_LINK).pathname}${new URL(PAYMENT_LINK).search}`);
    expect(web.target).to.equal('_blank');
  });

  it('a transfer by phone number: every bank (the shopper’s own), those with a known template filled in and marked', async () => {
    const h = await pay('ios', { payment_link: null, bank: 'vtb' });
    const dialog = await open(h);
    expect(!!dialog.querySelector('input'), 'a search').to.equal(true);
    expect(names(dialog).length).to.equal(192);
    expect(names(dialog).slice(0, 5)).to.deep.equal([
      'S Sber Details filled in',
      'T T-Bank Details filled in',
      'V VTB Details filled in',
      'A Alfa-Bank Details filled in',
      'O Ozon Bank',
    ]);
    expect(norm(dialog.querySelector('.sheet-note')!.textContent!)).to.include('open empty');
    dialog.querySelector<HTMLAnchorElement>('.bank')!.click();
    expect(h.navigations).to.deep.equal(['sberbankonline://payments/p2p?type=phone_number&requisiteNumber=79991234567&amount=1500.00']);
  });

  it('the NSPK link method: a link, not a 32-character code; the sheet on a phone', async () => {
    const h = await pay('ios', { method: { id: 'm-qr', name: 'QR-код НСПК', type: 'NSPKLink' }, requisites: { holder_name: '', holder_account: 'AS1000670LSS7DN18SJQDNP4B05KLJL2', kind: 'link' } });
    expect(h.text()).not.to.include('AS1000670LSS7DN18SJQDNP4B05KLJL2');
    expect(norm(h.root.querySelector<HTMLElement>('[part="requisites"]')!.innerText)).to.include('Payment link qr.nspk.ru');
    const dialog = await open(h);
    expect(dialog.querySelectorAll('.bank').length).to.equal(192);
  });

  it('desktop: "Pay in your online bank" lists the banks with a web client, opened in a new tab', async () => {
    const h = await pay('desktop');
    const dialog = await open(h, 'Pay in your online bank');
    const links = [...dialog.querySelectorAll<HTMLAnchorElement>('.bank')];
    expect(links.length).to.be.within(40, 60);
    expect(links.every((a) => a.target === '_blank' && a.href.startsWith('http'))).to.equal(true);
    expect(dialog.querySelector('h3')!.textContent).to.equal('Pay in your online bank');
  });

  it('by keyboard alone: open, search, choose; Escape closes and gives the focus back', async () => {
    const h = await pay('ios');
    const opener = byText(h.root, 'Pay in bank app');
    for (let i = 0; i < 30 && h.root.activeElement !== opener; i++) await sendKeys({ press: 'Tab' });
    expect(h.root.activeElement).to.equal(opener);
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => h.root.querySelector('dialog[open] [part="banks"]'), 'the sheet', { timeout: 6000 });
    await h.el.updateComplete;
    await waitUntil(() => h.root.activeElement?.tagName === 'INPUT', 'focus in the search');
    await sendKeys({ type: 'raiff' });
    await h.el.updateComplete;
    await sendKeys({ press: 'Tab' });
    expect(norm((h.root.activeElement as HTMLElement).innerText)).to.equal('R Raiffeisenbank');
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => h.navigations.length === 1);
    expect(h.navigations[0]).to.equal(PAYMENT_LINK.replace('https://', 'bank100000000007://'));
    await waitUntil(() => h.root.activeElement === opener, 'focus back');
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => h.root.querySelector('dialog[open]'));
    await sendKeys({ press: 'Escape' });
    await waitUntil(() => !h.root.querySelector('dialog[open]') && h.root.activeElement === opener, 'closed, focus back');
  });
});
