/**
 * Money safety in the browser (issue 11, the element's part): a lost session is said to be lost and
 * never replaced by a silent new order; the tabs of one browser share one order per order ref; a
 * double click or two start() calls make one request; a late payment reaches an open widget.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { byText, mount, norm, settle, type Harness } from './helpers/mount.js';
import { FakeEndpoint, MemoryStorage } from './helpers/fake-endpoint.js';
import { FakeClock } from './helpers/fake-clock.js';
import { orderView } from './helpers/orders.js';
import type { CheckoutEnv, PaydeskCheckout } from '../../src/element/index.js';

const KEY = 'paydesk:v2:/api/paydesk|sku-1';
const stored = (session: string, order: Record<string, unknown> | null = { number: 'sku-1', support: 'https://shop.example/support', back: 'https://shop.example/cart' }) =>
  JSON.stringify({ session, paid: false, attempt: null, order, exp: Date.parse('2026-03-03T10:00:00Z') });

describe('a session that is gone', () => {
  it('a stored session the server lost (404 session_not_found): "ended, contact support", the order number, no new order', async () => {
    const storage = new MemoryStorage();
    storage.setItem(KEY, stored('lost'));
    const h = await mount({ paymentMethodId: 'm-sbp' }, { storage });
    await h.until('gone');
    expect(h.root.querySelector('h2')!.textContent).to.equal('Payment session ended');
    expect(h.text()).to.include('This payment session has ended. If you already paid, contact support.');
    expect(norm(h.root.querySelector('[part="order"]')!.textContent!)).to.include('sku-1');
    expect(byText(h.root, 'Support').getAttribute('href')).to.equal('https://shop.example/support');
    expect(byText(h.root, 'Back to the shop').getAttribute('href')).to.equal('https://shop.example/cart');
    await settle(h.el);
    expect(h.server.count('create')).to.equal(0, 'never a silent new order');
    expect(storage.getItem(KEY)).to.equal(null, 'the dead session is forgotten');
    expect(h.of('paydesk-error').at(-1)!.detail.code).to.equal('session_not_found');
    byText(h.root, 'Start a new payment').click();
    await h.until('pay');
    expect(h.server.count('create')).to.equal(1, 'a new order only when the shopper asks for one');
  });

  for (const [code, status] of [['session_invalid', 401], ['session_expired', 401]] as const) {
    it(`${code} (${status}) on resume is the same screen`, async () => {
      const storage = new MemoryStorage();
      storage.setItem(KEY, stored('bad', null));
      const server = new FakeEndpoint();
      server.failNext('session', { status, body: { error: { code, message: 'x', retryable: false } } });
      const h = await mount({}, { server, storage });
      await h.until('gone');
      expect(server.count('create') + server.count('methods')).to.equal(0);
      expect(() => byText(h.root, 'Start a new payment')).not.to.throw();
    });
  }

  it('a merchant-made session that is gone offers no new payment (no order ref)', async () => {
    const h = await mount({ orderRef: '', session: 'merchant-lost' });
    await h.until('gone');
    expect(() => byText(h.root, 'Start a new payment')).to.throw();
  });

  it('a session lost while paying (the live status is refused): the same screen, the order number still shown', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    h.server.sessions.delete(h.server.session);
    h.page.pageshow();
    await h.until('gone');
    expect(norm(h.root.querySelector('[part="order"]')!.textContent!)).to.include('sku-1');
    expect(h.server.count('create')).to.equal(1);
  });

  for (const [when, status, body] of [['a 404 page of a proxy', 404, '<html>Not Found</html>'], ['a 400 without an error body', 400, null]] as const) {
    it(`after "I have paid", a status check answered with ${when}: "try again" follows the same order, never "continue to payment" to a second one`, async () => {
      const h = await mount({ paymentMethodId: 'm-sbp' });
      await h.until('pay');
      byText(h.root, 'I have paid').click();
      await h.until('confirming');
      await settle(h.el);
      h.server.failNext('session', { status, body });
      h.page.pageshow();
      await h.until('error');
      await settle(h.el);
      expect(() => byText(h.root, 'Continue to payment'), 'no way to a second order while the paid one is unknown').to.throw();
      h.server.update(h.server.session, { status: 'paid', provider_status: 'Completed' }, false);
      byText(h.root, 'Try again').click();
      await h.until('paid');
      expect(h.server.count('create')).to.equal(1);
      expect(h.server.count('methods')).to.equal(0);
    });
  }
});

describe('one request per action', () => {
  it('a double click on a way to pay makes one POST', async () => {
    const h = await mount();
    await h.until('choose');
    const button = h.root.querySelector<HTMLButtonElement>('[part="method"]')!;
    button.click();
    button.click();
    button.dispatchEvent(new MouseEvent('dblclick', { bubbles: true }));
    await h.until('pay');
    await settle(h.el);
    expect(h.server.count('create')).to.equal(1);
  });

  it('a double click on "Continue to payment" and two start() calls make one request', async () => {
    const h = await mount({ orderRef: '' });
    h.el.orderRef = 'sku-1';
    h.el.start();
    h.el.start();
    await h.until('choose');
    expect(h.server.count('methods')).to.equal(1);
    h.el.reset();
    await h.el.updateComplete;
    const go = byText(h.root, 'Continue to payment');
    go.click();
    go.click();
    await h.until('choose');
    expect(h.server.count('methods')).to.equal(2);
  });
});

describe('tabs of one browser share one order per order ref', () => {
  for (const locks of ['Web Locks', 'no Web Locks'] as const) {
    it(`two widgets that start at once make one order (${locks})`, async () => {
      const server = new FakeEndpoint();
      const storage = new MemoryStorage();
      const clock = new FakeClock(Date.now());
      server.serverNow = () => clock.now();
      server.makeOrder = (_b, n) => orderView({ id: `ord-${n}` }, clock.now());
      const release = server.hold('create');
      const env: Partial<CheckoutEnv> = locks === 'no Web Locks' ? { locks: null } : {};
      const opened = [mount({ paymentMethodId: 'm-sbp' }, { server, storage, clock, env }), mount({ paymentMethodId: 'm-sbp' }, { server, storage, clock, env })];
      const [a, b] = (await Promise.all(opened)) as [Harness, Harness];
      // Without locks the first claim waits out the settling time (on the fake clock) before its request.
      await waitUntil(() => {
        clock.advance(50);
        return server.count('create') >= 1;
      }, 'a create went out');
      release();
      clock.advance(200); // any settling wait still under way ends
      await Promise.all([a.until('pay'), b.until('pay')]);
      expect(server.sessions.size).to.equal(1, 'one order');
      expect(a.el.order!.id).to.equal(b.el.order!.id);
      const keys = new Set(server.requests.filter((r) => r.route === 'create').map((r) => r.headers.get('Idempotency-Key')));
      expect(keys.size).to.equal(1, 'every create carried the same key');
    });
  }

  it('two tabs whose copies of the storage differ (a tab in another process has not got the other\'s write yet): the Web Lock naming the attempt makes one order', async () => {
    const server = new FakeEndpoint();
    server.makeOrder = (_b, n) => orderView({ id: `ord-${n}` }, Date.now());
    const release = server.hold('create');
    // The browser's Web Locks (scoped to this page: helpers/mount.ts); each widget its own storage, as if
    // no write ever reached the other.
    const props = { paymentMethodId: 'm-sbp', orderRef: `sku-${Math.random().toString(36).slice(2)}` };
    // Both tabs' creates are asked for before the first one is answered (the announcing lock is held
    // until then; after it, a real tab's storage has long had the first tab's record).
    let asked = 0;
    const env: Partial<CheckoutEnv> = { fetch: (input, init) => (init?.method === 'POST' && asked++, server.fetch(input, init)) };
    const [a, b] = (await Promise.all([mount(props, { server, storage: new MemoryStorage(), env }), mount(props, { server, storage: new MemoryStorage(), env })])) as [Harness, Harness];
    await waitUntil(() => asked >= 2, 'both tabs sent their create');
    release();
    await Promise.all([a.until('pay'), b.until('pay')]);
    expect(server.sessions.size).to.equal(1, 'one order');
    expect(a.el.order!.id).to.equal(b.el.order!.id);
    const keys = new Set(server.requests.filter((r) => r.route === 'create').map((r) => r.headers.get('Idempotency-Key')));
    expect(keys.size).to.equal(1, 'the second tab sent the first tab\'s key');
    const session = (h: Harness) => (JSON.parse(h.storage.getItem(`paydesk:v2:/api/paydesk|${props.orderRef}`)!) as { session: string }).session;
    expect(session(b)).to.equal(session(a), 'both tabs keep the one session');
  });

  it('asks Web Locks at connection, before the first render (a page\'s first call is slow), and still claims under the lock', async () => {
    const calls: string[] = [];
    const locks = {
      query: async () => (calls.push('query'), { held: [] }),
      request: <T>(name: string, callback: () => T | Promise<T>) => (calls.push(`request ${name.replace(/ \{.*/, ' {attempt}')}`), Promise.resolve().then(callback)),
    };
    const h = await mount({ paymentMethodId: 'm-sbp' }, { env: { locks }, onCreate: (el) => el.addEventListener('paydesk-ready', () => calls.push('ready')) });
    await h.until('pay');
    // Under the purchase's lock: who else is creating (query), then this tab's attempt announced.
    expect(calls).to.deep.equal(['query', 'ready', `request ${KEY}`, 'query', `request ${KEY} {attempt}`]);
    expect(h.server.count('create')).to.equal(1);
  });

  it('a widget that starts after another has the order resumes it', async () => {
    const server = new FakeEndpoint();
    const storage = new MemoryStorage();
    const first = await mount({ paymentMethodId: 'm-sbp' }, { server, storage });
    await first.until('pay');
    const second = await mount({ paymentMethodId: 'm-sbp' }, { server, storage });
    await second.until('pay');
    expect(server.count('create')).to.equal(1);
    expect(second.el.order!.id).to.equal(first.el.order!.id);
  });

  it('a reload resumes the order this tab showed, never one another tab made since for the same ref (issue 19, point 9)', async () => {
    const server = new FakeEndpoint();
    server.makeOrder = (_b, n) => orderView({ id: `ord-${n}` }, Date.now());
    const storage = new MemoryStorage();
    // Tab 1 shows order A.
    const one = await mount({ paymentMethodId: 'm-sbp' }, { server, storage });
    await one.until('pay');
    const a = one.el.order!.id;
    // Tab 2 opens while A is live: it follows A (one order per purchase), then starts a new purchase: B.
    const two = await mount({ paymentMethodId: 'm-sbp' }, { server, storage });
    await two.until('pay');
    expect(two.el.order!.id).to.equal(a);
    expect(server.count('create')).to.equal(1);
    two.el.reset();
    two.el.start();
    await two.until('pay');
    const b = two.el.order!.id;
    expect(b).not.to.equal(a);
    // Tab 3 opens now: it follows the shared order, B.
    const three = await mount({ paymentMethodId: 'm-sbp' }, { server, storage });
    await three.until('pay');
    expect(three.el.order!.id).to.equal(b);
    // Tab 1 reloads (its own sessionStorage survives a reload): A again, its requisites, no new order.
    one.el.remove();
    const reloaded = await mount({ paymentMethodId: 'm-sbp' }, { server, storage, tabStorage: one.tabStorage });
    await reloaded.until('pay');
    expect(reloaded.el.order!.id).to.equal(a);
    expect(reloaded.el.order!.requisites).to.deep.equal(one.el.order!.requisites);
    // Tab 2 starts a third purchase (C); tab 3, which followed B, reloads to B.
    two.el.reset();
    two.el.start();
    await two.until('pay');
    expect(two.el.order!.id).not.to.equal(b);
    three.el.remove();
    const third = await mount({ paymentMethodId: 'm-sbp' }, { server, storage, tabStorage: three.tabStorage });
    await third.until('pay');
    expect(third.el.order!.id).to.equal(b);
    expect(server.count('create')).to.equal(3, 'A, B and C: a reload never makes an order');
  });

  it('after "I have paid", a reload (and a second tab) shows the payment being checked, never the requisites and "I have paid" again', async () => {
    const server = new FakeEndpoint();
    const storage = new MemoryStorage();
    const one = await mount({ paymentMethodId: 'm-sbp' }, { server, storage });
    await one.until('pay');
    byText(one.root, 'I have paid').click();
    await one.until('confirming');
    one.el.remove();
    const reloaded = await mount({ paymentMethodId: 'm-sbp' }, { server, storage, tabStorage: one.tabStorage });
    await reloaded.until('confirming');
    await settle(reloaded.el);
    expect(reloaded.el.order!.id).to.equal(one.el.order!.id);
    expect(() => byText(reloaded.root, 'I have paid'), 'no second "I have paid" for a transfer already made').to.throw();
    const other = await mount({ paymentMethodId: 'm-sbp' }, { server, storage });
    await other.until('confirming');
    // The transfer arrives: paid, in both.
    server.update(server.session, { status: 'paid', provider_status: 'Completed' });
    await reloaded.until('paid');
    await other.until('paid');
    expect(server.count('create')).to.equal(1);
  });

  it("a page that gives its own session (attribute) never takes another order of the same ref into this tab's record", async () => {
    const server = new FakeEndpoint();
    server.makeOrder = (_b, n) => orderView({ id: `ord-${n}` }, Date.now());
    const storage = new MemoryStorage();
    const one = await mount({ paymentMethodId: 'm-sbp' }, { server, storage });
    await one.until('pay');
    const a = server.session;
    // Another tab starts a new order for the same ref: the shared record is B's now.
    one.el.reset();
    one.el.start();
    await one.until('pay');
    const b = server.session;
    expect(b).not.to.equal(a);
    // A page with the same ref and session A: it shows A, and this tab's record is not B's.
    const tab = new MemoryStorage();
    const page = await mount({ paymentMethodId: 'm-sbp', session: a }, { server, storage, tabStorage: tab });
    await page.until('pay');
    expect(page.el.order!.id).to.equal('ord-1');
    const record = JSON.parse(tab.getItem(KEY) ?? 'null') as { session?: string } | null;
    expect(record?.session ?? null).not.to.equal(b);
  });

  /** Two widgets of one purchase on the method choice; A's shopper picks a way and gets the requisites. */
  async function bothChoosingThenAPays() {
    const server = new FakeEndpoint();
    const storage = new MemoryStorage();
    const a = await mount({}, { server, storage });
    const b = await mount({}, { server, storage });
    await Promise.all([a.until('choose'), b.until('choose')]);
    a.root.querySelector<HTMLButtonElement>('[part="method"]')!.click();
    await a.until('pay');
    return { server, a, b };
  }

  it('a widget still choosing follows the order the other one made when its shopper picks a way', async () => {
    const { server, a, b } = await bothChoosingThenAPays();
    b.root.querySelectorAll<HTMLButtonElement>('[part="method"]')[1]!.click();
    await b.until('pay');
    expect(server.sessions.size).to.equal(1);
    expect(b.el.order!.id).to.equal(a.el.order!.id);
  });

  it('a widget still choosing that follows an order its shopper already said is paid (in the other tab) shows it being checked', async () => {
    const { server, a, b } = await bothChoosingThenAPays();
    byText(a.root, 'I have paid').click();
    await a.until('confirming');
    b.root.querySelectorAll<HTMLButtonElement>('[part="method"]')[1]!.click();
    await b.until('confirming');
    await settle(b.el);
    expect(b.el.order!.id).to.equal(a.el.order!.id);
    expect(() => byText(b.root, 'I have paid'), 'no second "I have paid" for a transfer already made').to.throw();
    expect(server.sessions.size).to.equal(1);
  });

  it('two documents (two tabs) with their own copy of the widget and the real localStorage make one order', async () => {
    const server = new FakeEndpoint();
    server.makeOrder = (_b, n) => orderView({ id: `ord-${n}` }, Date.now());
    const ref = `sku-tabs-${Math.random().toString(36).slice(2)}`;
    const release = server.hold('create');
    const tab = async () => {
      const frame = document.createElement('iframe');
      frame.src = '/test/browser/fixtures/tab.html';
      document.body.appendChild(frame);
      await waitUntil(() => (frame.contentWindow as (Window & { paydeskReady?: boolean }) | null)?.paydeskReady, 'the tab loaded its widget', { timeout: 8000 });
      const win = frame.contentWindow as Window & typeof globalThis;
      expect(win.customElements.get('paydesk-checkout')).not.to.equal(customElements.get('paydesk-checkout'), 'a copy of its own');
      const el = win.document.createElement('paydesk-checkout') as PaydeskCheckout;
      const visible = Object.assign(new EventTarget(), { hidden: false });
      el.env = { fetch: server.fetch, EventSource: server.EventSource, document: visible, window: visible, navigate: () => {} };
      Object.assign(el, { endpoint: '/api/paydesk', orderRef: ref, paymentMethodId: 'm-sbp', locale: 'en' });
      win.document.body.appendChild(el);
      return { frame, el };
    };
    const [one, two] = await Promise.all([tab(), tab()]);
    await waitUntil(() => server.count('create') >= 1, 'a create went out');
    release();
    await waitUntil(() => one.el.state === 'pay' && two.el.state === 'pay', 'both tabs show the requisites', { timeout: 8000 });
    expect(server.sessions.size).to.equal(1);
    expect(one.el.order!.id).to.equal(two.el.order!.id);
    expect(JSON.parse(localStorage.getItem(`paydesk:v2:/api/paydesk|${ref}`)!).session).to.equal(server.session, 'shared through localStorage');
    localStorage.removeItem(`paydesk:v2:/api/paydesk|${ref}`);
    one.frame.remove();
    two.frame.remove();
  });
});

describe('a late payment reaches the open widget', () => {
  it('expired, then paid after all through the event stream: a clear screen, paydesk-paid once', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    h.server.update(h.server.session, { status: 'expired', provider_status: 'CanceledByTimeout' });
    await h.until('expired');
    expect(h.server.openStreams.length).to.equal(1, 'the stream stays open after the order ended');
    h.server.update(h.server.session, { status: 'paid', provider_status: 'Completed', late: true });
    await h.until('paid');
    expect(h.text()).to.include('Your payment of RUB 1,500.00 arrived after the time was up, and the order is paid. Thank you!');
    expect(h.of('paydesk-paid')).to.have.length(1);
    expect(h.of('paydesk-paid')[0]!.detail.order.late).to.equal(true);
    h.server.update(h.server.session, { status: 'paid', late: true });
    await settle(h.el);
    expect(h.of('paydesk-paid')).to.have.length(1);
  });

  it('without a stream, an ended order is polled slowly (15 s, growing) and still sees the late payment', async () => {
    const server = new FakeEndpoint();
    const clock = new FakeClock(Date.now());
    server.serverNow = () => clock.now();
    server.makeOrder = (_b, n) => orderView({ id: `ord-${n}` }, clock.now());
    const h = await mount({ paymentMethodId: 'm-sbp' }, { server, clock, env: { EventSource: undefined } });
    await h.until('pay');
    server.update(server.session, { status: 'cancelled', provider_status: 'CanceledByService' }, false);
    await h.advance(3000);
    await h.until('cancelled');
    const polls = server.count('session');
    await h.advance(10_000);
    await settle(h.el);
    expect(server.count('session')).to.equal(polls, 'no poll within 10 s of an ended order');
    server.update(server.session, { status: 'paid', provider_status: 'Completed', late: true }, false);
    await h.advance(6000);
    await h.until('paid');
    expect(h.of('paydesk-paid')).to.have.length(1);
  });
});
