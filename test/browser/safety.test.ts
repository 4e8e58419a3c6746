import { expect, waitUntil } from '@open-wc/testing';
import { mount, byText } from './helpers/mount.js';
import { FakeEndpoint } from './helpers/fake-endpoint.js';
import { FakeClock } from './helpers/fake-clock.js';
import { orderView } from './helpers/orders.js';
import type { OrderView } from '../../src/protocol/index.js';

async function withOrder(patch: Partial<OrderView>, platform: 'desktop' | 'ios' | 'android' = 'desktop') {
  const server = new FakeEndpoint();
  const clock = new FakeClock(Date.now());
  server.serverNow = () => clock.now();
  server.makeOrder = (_b, n) => orderView({ id: `ord-${n}`, ...patch }, clock.now());
  const h = await mount({ paymentMethodId: 'm-sbp' }, { server, clock, env: { platform } });
  await h.until('pay');
  return h;
}

const hrefs = (root: ShadowRoot) => [...root.querySelectorAll('a')].map((a) => a.getAttribute('href'));

describe('<paydesk-checkout> URL safety', () => {
  const hostile = ['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', '//evil.example/x', 'https:evil.example', ' javascript:alert(1)', 'https://shop.example@evil.example/'];

  for (const bad of hostile) {
    it(`drops support and return links like ${JSON.stringify(bad)}`, async () => {
      const h = await withOrder({ support_url: bad, return_url: bad });
      expect(h.root.querySelector('footer')).to.equal(null);
      expect(hrefs(h.root).filter((x) => x && !x.startsWith('https://') && !x.startsWith('bank'))).to.deep.equal([]);
    });
  }

  it('never navigates to an unsafe redirect_url, and shows no redirect countdown for it', async () => {
    const h = await withOrder({ redirect_url: 'javascript:alert(document.cookie)' });
    h.server.update(h.server.session, { status: 'paid', provider_status: 'Completed' });
    await h.until('paid');
    await h.advance(10_000);
    expect(h.navigations).to.deep.equal([]);
    expect(h.of('paydesk-redirect')).to.have.length(0);
    expect(h.text()).not.to.include('Returning to the shop');
    expect(() => byText(h.root, 'Return now')).to.throw();
  });

  it('drops an unsafe form_url (no iframe, no link)', async () => {
    const h = await withOrder({ form_url: 'javascript:alert(1)' });
    expect(h.root.querySelector('iframe')).to.equal(null);
    expect(() => byText(h.root, 'Open the payment page')).to.throw();
  });

  it('an unsafe payment link gives no QR and no bank-app link', async () => {
    const h = await withOrder({ payment_link: 'data:text/html,x' }, 'android');
    expect(h.root.querySelector('canvas')).to.equal(null);
    expect(() => byText(h.root, 'Open in bank app')).to.throw();
  });

  it('bank-app links use only allowlisted schemes', async () => {
    const h = await withOrder({ payment_link: null }, 'ios');
    byText(h.root, 'Pay in bank app').click();
    await waitUntil(() => h.root.querySelector('dialog[open] [part="banks"]'), 'the bank sheet');
    const links = [...h.root.querySelectorAll('dialog a')].map((a) => a.getAttribute('href'));
    expect(links.length).to.equal(192, 'every bank of the table: the shopper’s own');
    // The four transfer templates, or a bank's own scheme from the generated table (nothing else).
    for (const href of links) expect(href).to.match(/^(sberbankonline|tinkoffbank|alfabank):\/\/|^https:\/\/online\.vtb\.ru\/|^bank\d{12}:\/\/$/);
  });

  it('server text is rendered as text, never as markup', async () => {
    const h = await withOrder({
      requisites: { holder_name: '<img src=x onerror=alert(1)>Иванов', holder_account: '<b>1</b>', kind: 'account', bank_name: '<b>Банк</b>' },
      method: { id: 'm', name: '<script>alert(1)</script>', type: 'SBP' },
    });
    expect(h.root.querySelector('img, script, b')).to.equal(null);
    expect(h.text()).to.include('<img src=x onerror=alert(1)>Иванов');
    expect(h.text()).to.include('<b>Банк</b>');
  });
});
