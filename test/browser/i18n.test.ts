import { expect } from '@open-wc/testing';
import { mount, norm } from './helpers/mount.js';
import { FakeEndpoint } from './helpers/fake-endpoint.js';
import type { PaydeskCheckout, PaydeskLocale } from '../../src/element/index.js';

describe('<paydesk-checkout> languages', () => {
  it('speaks Russian with money through Intl', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp', locale: 'ru' });
    await h.until('pay');
    expect(h.root.querySelector('h2')!.textContent).to.equal('Сделайте перевод');
    expect(norm(h.root.querySelector('.amount')!.textContent!)).to.equal('1 500,00 ₽');
    expect(h.text()).to.include('Номер телефона');
    expect(h.text()).to.include('Сбербанк');
  });

  it('falls back from a region to its language (ru-KZ → ru)', async () => {
    const h = await mount({ locale: 'ru-KZ' });
    await h.until('choose');
    expect(h.root.querySelector('h2')!.textContent).to.equal('Выберите способ оплаты');
  });

  it('falls back to English for a language without a table', async () => {
    const h = await mount({ locale: 'de-DE' as PaydeskLocale });
    await h.until('choose');
    expect(h.root.querySelector('h2')!.textContent).to.equal('Choose how to pay');
    expect(norm(h.root.querySelector('[part="method"]')!.textContent!)).to.include('RUB 1,522.50');
  });

  it('loads another language only when it is used', async () => {
    const h = await mount({ locale: 'uk' });
    await h.until('choose');
    await new Promise((r) => setTimeout(r, 50));
    await h.el.updateComplete;
    const heading = h.root.querySelector('h2')!.textContent!;
    expect(heading).not.to.equal('Choose how to pay');
    expect(heading).to.match(/\p{Script=Cyrillic}/u);
  });

  it('takes the language from the nearest lang attribute, also across a shadow root', async () => {
    const host = document.createElement('div');
    host.lang = 'ru';
    document.body.appendChild(host);
    const root = host.attachShadow({ mode: 'open' });
    const h = await mount({ locale: '' }, { into: root });
    await h.until('choose');
    expect(h.root.querySelector('h2')!.textContent).to.equal('Выберите способ оплаты');
    host.remove();
  });

  it('uses Russian plural forms for the redirect countdown', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp', locale: 'ru' });
    await h.until('pay');
    h.server.update(h.server.session, { status: 'paid', provider_status: 'Completed' });
    await h.until('paid');
    expect(h.text()).to.include('через 5 секунд');
    await h.advance(1000);
    expect(h.text()).to.include('через 4 секунды');
    await h.advance(3000);
    expect(h.text()).to.include('через 1 секунду');
  });

  it('lets the merchant override any message, including error sentences', async () => {
    const server = new FakeEndpoint();
    server.failNext('methods', { status: 500, body: { error: { code: 'no_traders', message: 'x', retryable: true } } });
    const h = await mount({ messages: { errorTitle: 'Oops', errors: { no_traders: 'Our cashiers are busy.' } } }, { server });
    await h.until('error');
    expect(h.root.querySelector('h2')!.textContent).to.equal('Oops');
    expect(h.text()).to.include('Our cashiers are busy.');
  });

  it('changes language live when the locale attribute changes', async () => {
    const h = await mount();
    await h.until('choose');
    (h.el as PaydeskCheckout).locale = 'ru';
    await h.el.updateComplete;
    expect(h.root.querySelector('h2')!.textContent).to.equal('Выберите способ оплаты');
  });
});
