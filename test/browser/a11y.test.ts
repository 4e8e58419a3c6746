import { expect, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { byText, mount, type Harness } from './helpers/mount.js';
import { FakeEndpoint } from './helpers/fake-endpoint.js';
import { FakeClock } from './helpers/fake-clock.js';
import { orderView } from './helpers/orders.js';
import type { PaydeskCheckout } from '../../src/element/index.js';

async function at(state: PaydeskCheckout['state'], props: Partial<PaydeskCheckout> = {}, setup?: (server: FakeEndpoint) => void, platform: 'desktop' | 'ios' | 'android' = 'desktop'): Promise<Harness> {
  const server = new FakeEndpoint();
  setup?.(server);
  const h = await mount(props, { server, env: { platform } });
  if (['paid', 'expired', 'cancelled', 'confirming'].includes(state)) {
    await h.until('pay');
    if (state === 'confirming') byText(h.root, 'I have paid').click();
    if (state === 'paid') server.update(server.session, { status: 'paid', provider_status: 'Completed' });
    if (state === 'expired') server.update(server.session, { status: 'expired', provider_status: 'CanceledByTimeout' });
    if (state === 'cancelled') server.update(server.session, { status: 'cancelled', provider_status: 'CanceledByService' });
  }
  await h.until(state);
  return h;
}

const errorNext = (server: FakeEndpoint) =>
  server.failNext('create', { status: 500, body: { error: { code: 'no_traders', message: 'x', retryable: true } } });

describe('<paydesk-checkout> accessibility (axe, WCAG 2.2 AA)', () => {
  const cases: Array<[string, () => Promise<Harness>]> = [
    ['idle', async () => {
      const h = await at('choose');
      h.el.reset();
      await h.el.updateComplete;
      return h;
    }],
    ['loading', () => at('loading', {}, (s) => void s.hold('methods'))],
    ['choose', () => at('choose')],
    ['searching', () => at('searching', { paymentMethodId: 'm-sbp' }, (s) => void s.hold('create'))],
    ['pay (desktop, QR)', () => at('pay', { paymentMethodId: 'm-sbp' })],
    ['pay (iPhone, bank links)', () => at('pay', { paymentMethodId: 'm-sbp' }, undefined, 'ios')],
    ['pay (Android, open in bank app)', () => at('pay', { paymentMethodId: 'm-sbp' }, undefined, 'android')],
    ['pay (amount changed warning, card)', () =>
      at('pay', { paymentMethodId: 'm-card' }, (s) => {
        s.makeOrder = (_b, n) => orderView({ id: `ord-${n}`, amount: '1503.00', requested_amount: '1500.00', payment_link: null, requisites: { holder_name: 'X', holder_account: '4627100101654724', kind: 'card' } }, Date.now());
      })],
    ['pay (iPhone, card, recipient’s bank)', () =>
      at('pay', { paymentMethodId: 'm-card', locale: 'ru' }, (s) => {
        s.makeOrder = (_b, n) => orderView({ id: `ord-${n}`, payment_link: null, requisites: { holder_name: 'X', holder_account: '4627100101654724', kind: 'card', bank_name: 'ВТБ' } }, Date.now());
      }, 'ios')],
    ['bank sheet of a card transfer (iPhone): every bank, the note, the marks', async () => {
      const h = await at('pay', { paymentMethodId: 'm-card' }, (s) => {
        s.makeOrder = (_b, n) => orderView({ id: `ord-${n}`, payment_link: null, requisites: { holder_name: 'X', holder_account: '4627100101654724', kind: 'card', bank_name: 'ВТБ' } }, Date.now());
      }, 'ios');
      byText(h.root, 'Pay in bank app').click();
      await waitUntil(() => h.root.querySelector('dialog[open] [part="banks"]'), 'the bank sheet', { timeout: 6000 });
      await h.el.updateComplete;
      return h;
    }],
    ['pay (form mode)', () =>
      at('pay', { mode: 'form' }, (s) => {
        s.makeOrder = (_b, n) => orderView({ id: `ord-${n}`, requisites: null, payment_link: null, form_url: 'https://pay.example/pay?session_id=1' }, Date.now());
      })],
    ['confirming', () => at('confirming', { paymentMethodId: 'm-sbp' })],
    ['paid', () => at('paid', { paymentMethodId: 'm-sbp' })],
    ['expired', () => at('expired', { paymentMethodId: 'm-sbp' })],
    ['cancelled', () => at('cancelled', { paymentMethodId: 'm-sbp' })],
    ['error', () => at('error', { paymentMethodId: 'm-sbp' }, errorNext)],
    ['pay, dark theme', () => at('pay', { paymentMethodId: 'm-sbp', theme: 'dark' })],
    ['choose, dark theme', () => at('choose', { theme: 'dark' })],
    ['error, dark theme', () => at('error', { paymentMethodId: 'm-sbp', theme: 'dark' }, errorNext)],
    ['paid, dark theme, Russian', () => at('paid', { paymentMethodId: 'm-sbp', theme: 'dark', locale: 'ru' })],
  ];
  for (const [name, make] of cases) {
    it(`axe finds nothing: ${name}`, async () => {
      const h = await make();
      await expect(h.el).to.be.accessible();
    });
  }
});

it('axe is really checking: an unreadable merchant colour is caught', async () => {
  const h = await at('pay', { paymentMethodId: 'm-sbp' });
  h.el.style.setProperty('--paydesk-color-muted', '#e8e8e8');
  await expect(h.el).not.to.be.accessible();
});

describe('<paydesk-checkout> keyboard and focus', () => {
  it('the whole flow works by keyboard, and focus moves to the heading of each new step', async () => {
    const h = await mount();
    await h.until('choose');
    await sendKeys({ press: 'Tab' });
    expect(h.root.activeElement?.getAttribute('part')).to.equal('method');
    await sendKeys({ press: 'Enter' });
    await h.until('pay');
    await waitUntil(() => h.root.activeElement?.tagName === 'H2', 'focus on the heading');
    expect(h.root.activeElement!.textContent).to.equal('Make a transfer');
    let guard = 0;
    while (h.root.activeElement?.textContent?.trim() !== 'I have paid' && guard++ < 20) await sendKeys({ press: 'Tab' });
    await sendKeys({ press: 'Enter' });
    await h.until('confirming');
    await waitUntil(() => h.root.activeElement?.tagName === 'H2');
    expect(h.root.activeElement!.textContent).to.equal('Checking your payment');
  });

  it('does not steal focus from the page when the state changes by itself', async () => {
    const outside = document.createElement('input');
    outside.setAttribute('aria-label', 'outside');
    document.body.appendChild(outside);
    const h = await mount({ paymentMethodId: 'm-sbp' });
    outside.focus();
    await h.until('pay');
    h.server.update(h.server.session, { status: 'paid', provider_status: 'Completed' });
    await h.until('paid');
    expect(document.activeElement).to.equal(outside);
    outside.remove();
  });

  it('announces each new step in a polite live region', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    const region = h.root.querySelector('[role="status"]')!;
    expect(region.getAttribute('aria-live')).to.equal('polite');
    expect(region.textContent).to.equal('Make a transfer');
    h.server.update(h.server.session, { status: 'paid', provider_status: 'Completed' });
    await h.until('paid');
    expect(region.textContent).to.equal('Payment received');
  });

  it('the QR code has a text alternative naming the amount', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    const canvas = h.root.querySelector('canvas')!;
    expect(canvas.getAttribute('role')).to.equal('img');
    expect(canvas.getAttribute('aria-label')!.replace(/\u00a0/g, ' ')).to.equal('QR code for the SBP payment of RUB 1,500.00');
  });

  it('every button and link is at least 24 by 24 CSS pixels', async () => {
    for (const platform of ['desktop', 'ios'] as const) {
      const h = await mount({ paymentMethodId: 'm-sbp' }, { env: { platform }, clock: new FakeClock() });
      await h.until('pay');
      const targets = [...h.root.querySelectorAll<HTMLElement>('button, a')];
      expect(targets.length).to.be.greaterThan(4);
      for (const t of targets) {
        const r = t.getBoundingClientRect();
        expect(r.height, `${t.textContent} height`).to.be.at.least(24);
        expect(r.width, `${t.textContent} width`).to.be.at.least(24);
      }
    }
  });
});
