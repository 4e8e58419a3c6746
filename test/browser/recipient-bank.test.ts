/**
 * The recipient's bank on the requisites (`requisites.bank_name`, issue 20) on an iPhone-width screen:
 * visible and copyable on phone, card and account requisites, in English (the bank's Latin name) and
 * Russian; and a card or account transfer's "Pay in bank app" opens the bank sheet of every bank (the
 * shopper's own bank, not one fixed bank), saying plainly that most apps open without the details.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { byText, mount, norm, type Harness } from './helpers/mount.js';
import { FakeEndpoint } from './helpers/fake-endpoint.js';
import { FakeClock } from './helpers/fake-clock.js';
import { orderView } from './helpers/orders.js';
import type { OrderView, Requisites } from '../../src/protocol/index.js';
import type { PaydeskLocale } from '../../src/element/index.js';

const KINDS: Record<'phone' | 'card' | 'account', Requisites> = {
  phone: { holder_name: 'Иванов Иван Иванович', holder_account: '+79991234567', kind: 'phone', bank_name: 'ВТБ' },
  card: { holder_name: 'Иванов Иван Иванович', holder_account: '4627100101654724', kind: 'card', bank_name: 'ВТБ' },
  account: { holder_name: 'ООО Ромашка', holder_account: '40702810099991234567', kind: 'account', bank_name: 'ВТБ' },
};
const METHOD: Record<keyof typeof KINDS, OrderView['method']> = {
  phone: { id: 'm-sbp', name: 'СБП — ВТБ', type: 'SBP' },
  card: { id: 'm-card', name: 'Карта — ВТБ', type: 'BankCard' },
  account: { id: 'm-acc', name: 'Банковский счёт', type: 'BankAccount' },
};

async function pay(kind: keyof typeof KINDS, locale: PaydeskLocale): Promise<Harness> {
  const server = new FakeEndpoint();
  const clock = new FakeClock(Date.now());
  server.serverNow = () => clock.now();
  server.makeOrder = (_b, n) =>
    orderView({ id: `ord-${n}`, method: METHOD[kind], bank: null, payment_link: null, requisites: KINDS[kind] }, clock.now());
  const h = await mount({ paymentMethodId: METHOD[kind]!.id, locale }, { server, clock, env: { platform: 'ios' } });
  await h.until('pay');
  return h;
}

/** True when the element is laid out on screen with a size (not hidden, not clipped to nothing). */
function visible(el: Element): boolean {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && r.right <= window.innerWidth + 0.5 && getComputedStyle(el).visibility !== 'hidden';
}

describe('the recipient’s bank on the requisites (iPhone width)', () => {
  before(() => setViewport({ width: 390, height: 844 }));
  after(() => setViewport({ width: 800, height: 600 }));

  for (const kind of ['phone', 'card', 'account'] as const) {
    for (const [locale, label, name] of [
      ['en', 'Recipient’s bank', 'VTB'],
      ['ru', 'Банк получателя', 'ВТБ'],
    ] as const) {
      it(`${kind}, ${locale}: "${label}: ${name}", visible, with a copy button that copies it`, async () => {
        const h = await pay(kind, locale);
        const row = h.root.querySelector('[part="requisites"] .recipient-bank');
        expect(row, 'the row of the recipient’s bank').to.exist;
        expect(norm(row!.querySelector('dt')!.textContent!)).to.equal(label);
        const value = row!.querySelector('dd span')!;
        expect(norm(value.textContent!)).to.equal(name);
        expect(visible(value), 'the name is on screen').to.equal(true);
        const copy = row!.querySelector<HTMLButtonElement>('button.copy')!;
        expect(visible(copy), 'the copy button is on screen').to.equal(true);
        expect(copy.getBoundingClientRect().height).to.be.at.least(36);
        copy.click();
        await waitUntil(() => h.copies.length > 0, 'copied');
        expect(h.copies).to.deep.equal([name]);
      });
    }
  }

  it('an older server without bank_name: no recipient row, nothing breaks', async () => {
    const server = new FakeEndpoint();
    const clock = new FakeClock(Date.now());
    server.serverNow = () => clock.now();
    server.makeOrder = (_b, n) => orderView({ id: `ord-${n}`, requisites: { holder_name: 'X', holder_account: '+79991234567', kind: 'phone' } }, clock.now());
    const h = await mount({ paymentMethodId: 'm-sbp' }, { server, clock, env: { platform: 'ios' } });
    await h.until('pay');
    expect(h.root.querySelector('.recipient-bank')).to.equal(null);
    expect(h.text()).to.include('BankSber', 'the bank the server names (order.bank) as before');
  });
});

describe('a card or account transfer’s "Pay in bank app" (iPhone width)', () => {
  before(() => setViewport({ width: 390, height: 844 }));
  after(() => setViewport({ width: 800, height: 600 }));

  for (const kind of ['card', 'account'] as const) {
    it(`${kind}: opens the bank sheet of every bank, with a search; the note says the apps open empty`, async () => {
      const h = await pay(kind, 'en');
      byText(h.root, 'Pay in bank app').click();
      await waitUntil(() => h.root.querySelector('dialog[open] [part="banks"]'), 'the bank sheet', { timeout: 6000 });
      await h.el.updateComplete;
      const dialog = h.root.querySelector('dialog')!;
      const banks = [...dialog.querySelectorAll<HTMLAnchorElement>('.bank')];
      expect(banks.length).to.be.greaterThan(100, 'every bank of the table, not one');
      expect(dialog.querySelector('input[type="search"]')).to.exist;
      expect(norm(dialog.querySelector('.sheet-note')!.textContent!)).to.include('open empty');
      // T-Bank has no link that fills in a transfer: its app opens by its scheme.
      const tbank = banks.find((a) => a.textContent!.includes('T-Bank'))!;
      expect(tbank.getAttribute('href')).to.equal('bank100000000004://');
      expect(tbank.textContent).not.to.include('Details filled in');
      const sber = banks.find((a) => a.textContent!.includes('Sber'))!;
      if (kind === 'card') {
        expect(sber.getAttribute('href')).to.equal('sberbankonline://payments/p2p?type=card_number&requisiteNumber=4627100101654724&amount=1500.00');
        expect(sber.textContent).to.include('Details filled in');
      } else {
        expect(sber.getAttribute('href')).to.equal('bank100000000111://');
      }
      tbank.click();
      await h.el.updateComplete;
      expect(h.navigations).to.deep.equal(['bank100000000004://']);
    });
  }
});
