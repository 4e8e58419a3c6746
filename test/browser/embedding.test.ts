import { expect, waitUntil } from '@open-wc/testing';
import { LitElement, html } from 'lit';
import { mount, settle } from './helpers/mount.js';
import { FakeEndpoint } from './helpers/fake-endpoint.js';
import { FakeClock } from './helpers/fake-clock.js';
import { define, PaydeskCheckout, TAG } from '../../src/element/index.js';

class ShopCart extends LitElement {
  override render() {
    return html`<h1>Cart</h1><slot></slot>`;
  }
}
customElements.define('shop-cart-test', ShopCart);

describe('<paydesk-checkout> in any page', () => {
  it('registers once; define() and a second import never throw', async () => {
    expect(customElements.get(TAG)).to.equal(PaydeskCheckout);
    expect(() => define()).not.to.throw();
    await import('../../src/index.js');
    expect(customElements.get(TAG)).to.equal(PaydeskCheckout);
  });

  it('define() leaves a tag that another copy already registered alone', () => {
    const registry = { get: () => class Other extends HTMLElement {}, define: () => { throw new Error('would throw'); } } as unknown as CustomElementRegistry;
    expect(() => define(registry)).not.to.throw();
  });

  it('works inside another component’s shadow root; its events cross the boundary', async () => {
    const cart = document.createElement('shop-cart-test') as ShopCart;
    document.body.appendChild(cart);
    await cart.updateComplete;
    const seen: string[] = [];
    const onDoc = (e: Event) => seen.push(e.type);
    document.addEventListener('paydesk-session', onDoc);
    document.addEventListener('paydesk-paid', onDoc);
    const h = await mount({ paymentMethodId: 'm-sbp' }, { into: cart.shadowRoot! });
    await h.until('pay');
    h.server.update(h.server.session, { status: 'paid', provider_status: 'Completed' });
    await h.until('paid');
    expect(seen).to.deep.equal(['paydesk-session', 'paydesk-paid']);
    document.removeEventListener('paydesk-session', onDoc);
    document.removeEventListener('paydesk-paid', onDoc);
    cart.remove();
  });

  it('many instances on one page each keep their own order', async () => {
    const server = new FakeEndpoint();
    const clock = new FakeClock();
    server.serverNow = () => clock.now();
    const a = await mount({ paymentMethodId: 'm-sbp', orderRef: 'sku-a' }, { server, clock });
    const b = await mount({ paymentMethodId: 'm-card', orderRef: 'sku-b' }, { server, clock });
    const c = await mount({ paymentMethodId: 'm-sbp', orderRef: 'sku-c' }, { server, clock });
    await Promise.all([a.until('pay'), b.until('pay'), c.until('pay')]);
    const ids = [a, b, c].map((h) => h.el.order!.id);
    expect(new Set(ids).size).to.equal(3);
    server.update('sess-2', { status: 'paid', provider_status: 'Completed' });
    await b.until('paid');
    expect(a.el.state).to.equal('pay');
    expect(c.el.state).to.equal('pay');
    expect(a.of('paydesk-paid')).to.have.length(0);
  });

  it('removing it closes the event stream and every timer; re-adding resumes', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    await waitUntil(() => h.server.openStreams.length === 1);
    expect(h.clock.pending).to.be.greaterThan(0);
    const parent = h.el.parentNode!;
    h.el.remove();
    expect(h.server.openStreams).to.have.length(0);
    expect(h.clock.pending).to.equal(0);
    h.page.hide();
    h.page.show();
    h.page.pageshow();
    await settle(h.el);
    expect(h.server.count('session')).to.equal(0, 'no listeners left behind');
    parent.appendChild(h.el);
    await waitUntil(() => h.server.openStreams.length === 1, 'stream reopened');
    expect(h.clock.pending).to.be.greaterThan(0);
    expect(h.server.count('create')).to.equal(1);
  });

  it('a create cut off by removal runs again on re-adding, with the same idempotency key', async () => {
    const server = new FakeEndpoint();
    const release = server.hold('create');
    const h = await mount({ paymentMethodId: 'm-sbp' }, { server });
    await h.until('searching');
    await waitUntil(() => server.count('create') === 1, 'the create went out');
    const parent = h.el.parentNode!;
    h.el.remove();
    release();
    await settle(h.el);
    expect(h.el.state).to.equal('searching');
    parent.appendChild(h.el);
    await h.until('pay');
    const keys = server.requests.filter((r) => r.route === 'create').map((r) => r.headers.get('Idempotency-Key'));
    expect(keys).to.have.length(2);
    expect(keys[0]).to.equal(keys[1]);
    expect(server.sessions.size).to.equal(1);
  });

  it('removing it while paid stops the redirect countdown', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    h.server.update(h.server.session, { status: 'paid', provider_status: 'Completed' });
    await h.until('paid');
    h.el.remove();
    h.clock.advance(10_000);
    expect(h.navigations).to.deep.equal([]);
  });
});
