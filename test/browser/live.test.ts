import { expect, waitUntil } from '@open-wc/testing';
import { byText, mount, norm, settle } from './helpers/mount.js';
import { FakeEndpoint, FakePage } from './helpers/fake-endpoint.js';
import { FakeClock } from './helpers/fake-clock.js';

const T0 = Date.parse('2026-03-02T10:00:00.000Z');
const timer = (root: ShadowRoot) => root.querySelector('[role="timer"]')!.textContent!.trim();
const announced = (root: ShadowRoot) => root.querySelector('[role="status"]')!.textContent!.trim();

/** A server whose clock is `skewMs` away from the device clock. */
function skewed(clock: FakeClock, skewMs: number): FakeEndpoint {
  const server = new FakeEndpoint();
  server.serverNow = () => clock.now() + skewMs;
  return server;
}

describe('<paydesk-checkout> countdown', () => {
  it('counts down to expires_at by the server clock, second by second', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    expect(timer(h.root)).to.equal('30:00');
    await h.advance(1000);
    expect(timer(h.root)).to.equal('29:59');
    await h.advance(60_000);
    expect(timer(h.root)).to.equal('28:59');
    expect(h.root.querySelector('[role="timer"]')!.getAttribute('aria-label')).to.equal('Time left to pay');
  });

  it('is right when the device clock is minutes off (ahead or behind)', async () => {
    for (const skew of [7 * 60_000, -12 * 60_000]) {
      const clock = new FakeClock(T0);
      const h = await mount({ paymentMethodId: 'm-sbp' }, { clock, server: skewed(clock, skew) });
      await h.until('pay');
      expect(timer(h.root)).to.equal('30:00');
      await h.advance(90_000);
      expect(timer(h.root)).to.equal('28:30');
    }
  });

  it('does not move when somebody changes the device clock', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    h.clock.setWall(T0 + 3 * 3_600_000);
    await h.advance(1000);
    expect(timer(h.root)).to.equal('29:59');
  });

  it('re-syncs with the server after the device slept', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    // Ten minutes of sleep: the wall clock moved, the monotonic clock did not.
    h.clock.sleep(10 * 60_000);
    await h.advance(1000);
    await waitUntil(() => h.server.count('session') === 1, 'asks the server after waking');
    expect(h.server.last('session')!.query.get('refresh')).to.equal('1');
    await settle(h.el);
    await h.advance(1000);
    expect(timer(h.root)).to.equal('19:58');
  });

  it('re-syncs on every status answer that carries the server time', async () => {
    const clock = new FakeClock(T0);
    let skew = 0;
    const server = new FakeEndpoint();
    server.serverNow = () => clock.now() + skew;
    const h = await mount({ paymentMethodId: 'm-sbp' }, { clock, server });
    await h.until('pay');
    skew = 5 * 60_000; // the server clock is now five minutes further
    h.page.pageshow();
    await waitUntil(() => server.count('session') === 1);
    // The answer is read and applied some tasks later (in Firefox on a busy machine, after more than
    // settle()'s five): wait for the countdown to show the server's time, not for a number of tasks.
    await waitUntil(() => timer(h.root) === '25:00', `the server's time on the countdown (now ${timer(h.root)})`, { timeout: 3000 });
    await h.advance(1000);
    expect(timer(h.root)).to.equal('24:59');
  });

  it('announces the time left only at 10, 5 and 1 minute', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    const seen = new Set<string>();
    const record = () => seen.add(announced(h.root));
    await h.advance(19 * 60_000 + 59_000); // 10:01 left
    record();
    expect(seen.has('10 minutes left to pay')).to.equal(false);
    for (let i = 0; i < 10 * 60 - 2; i++) {
      await h.advance(1000);
      record();
    }
    expect([...seen].filter((t) => /left/.test(t))).to.deep.equal(['10 minutes left to pay', '5 minutes left to pay', 'Less than a minute left to pay']);
    expect(timer(h.root)).to.equal('0:03');
  });

  it('turns the requisites into "time is up" when the countdown ends, and asks the server', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    await h.advance(30 * 60_000);
    expect(h.el.state).to.equal('expired');
    expect(h.root.querySelector('[part="requisites"]')).to.equal(null);
    await waitUntil(() => h.server.count('session') >= 1, 'checks the status at once');
    expect(h.of('paydesk-expired')).to.have.length(0);
  });

  it('still shows paid when the server confirms after the countdown ended', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    await h.advance(30 * 60_000);
    expect(h.el.state).to.equal('expired');
    h.server.update(h.server.session, { status: 'paid', provider_status: 'Completed' });
    await h.until('paid');
  });

  it('keeps "checking your payment" when time runs out after "I have paid"', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    byText(h.root, 'I have paid').click();
    await h.until('confirming');
    await h.advance(31 * 60_000);
    expect(h.el.state).to.equal('confirming');
  });
});

describe('<paydesk-checkout> live status', () => {
  it('follows the event stream and polls nothing while it works', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    await waitUntil(() => h.server.openStreams.length === 1);
    expect(h.server.openStreams[0]!.url).to.equal('/api/paydesk/sessions/sess-1/events');
    await h.advance(120_000);
    expect(h.server.count('session')).to.equal(0);
    h.server.update(h.server.session, { status: 'paid', provider_status: 'Completed' });
    await h.until('paid');
    expect(h.server.openStreams).to.have.length(0);
  });

  it('a malformed event on an open stream (the payment it announced) shows paid at once, not the requisites until the countdown ends', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    await waitUntil(() => h.server.openStreams.length === 1);
    h.server.update(h.server.session, { status: 'paid', provider_status: 'Completed' }, false);
    h.server.openStreams[0]!.send('{"status":"paid","amount":'); // cut off on its way
    await settle(h.el);
    await h.advance(5000);
    expect(h.el.state).to.equal('paid');
    expect(h.of('paydesk-paid')).to.have.length(1);
  });

  it('polls with backoff when the event stream fails, and still sees the payment', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    await waitUntil(() => h.server.openStreams.length === 1);
    h.server.openStreams[0]!.fail();
    await waitUntil(() => h.server.count('session') === 1, 'an immediate check');
    await settle(h.el);
    expect(h.server.openStreams).to.have.length(0);
    h.server.failNext('session', 'network');
    await h.advance(3000);
    await waitUntil(() => h.server.count('session') === 2);
    await settle(h.el);
    await h.advance(3000);
    await settle(h.el);
    expect(h.server.count('session')).to.equal(2, 'waits 6 s after a failure');
    await h.advance(3000);
    await waitUntil(() => h.server.count('session') === 3);
    h.server.update(h.server.session, { status: 'paid', provider_status: 'Completed' }, false);
    await settle(h.el);
    await h.advance(3000);
    await h.until('paid');
    expect(h.of('paydesk-paid')).to.have.length(1);
  });

  it('fires paydesk-paid exactly once however many times the server says paid', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    await waitUntil(() => h.server.openStreams.length === 1);
    const stream = h.server.openStreams[0]!;
    const paid = h.server.update(h.server.session, { status: 'paid', provider_status: 'Completed' }, false);
    stream.send(paid);
    stream.send(paid);
    stream.send({ order: paid, server_time: new Date(T0).toISOString() });
    h.page.pageshow();
    await h.until('paid');
    await settle(h.el);
    expect(h.of('paydesk-paid')).to.have.length(1);
  });

  it('never has more than one status request in flight', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    const release = h.server.hold('session');
    byText(h.root, 'I have paid').click();
    h.page.pageshow();
    h.page.hide();
    h.page.show();
    h.page.pageshow();
    await settle(h.el);
    expect(h.server.maxInFlight.session).to.equal(1);
    release();
    await settle(h.el);
    expect(h.server.maxInFlight.session).to.equal(1);
    expect(h.server.count('session')).to.equal(2);
  });

  it('pauses while the page is hidden and checks at once with ?refresh=1 when the shopper comes back', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    await waitUntil(() => h.server.openStreams.length === 1);
    h.page.hide();
    expect(h.server.openStreams).to.have.length(0);
    await h.advance(5 * 60_000);
    expect(h.server.count('session')).to.equal(0);
    h.server.update(h.server.session, { status: 'paid', provider_status: 'Completed' }, false);
    h.page.show();
    await h.until('paid');
    expect(h.server.last('session')!.query.get('refresh')).to.equal('1');
  });

  it('offline, then online: checks at once (?refresh=1) and goes back to the event stream, not the grown polling', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    await waitUntil(() => h.server.openStreams.length === 1);
    // The network goes: the stream breaks, every poll fails and the delay grows (3, 6, 12, 24 s).
    h.page.network(false);
    for (let i = 0; i < 6; i++) h.server.failNext('session', 'network');
    h.server.openStreams[0]!.fail();
    await waitUntil(() => h.server.count('session') === 1, 'the check after the stream broke');
    for (const [delay, n] of [[3000, 2], [6000, 3], [12_000, 4]] as const) {
      await settle(h.el);
      await h.advance(delay);
      await waitUntil(() => h.server.count('session') === n, `poll ${n} after ${delay} ms`);
    }
    await settle(h.el);
    expect(h.server.openStreams).to.have.length(0);
    expect(h.server.queued.session).to.have.length(2);
    h.server.queued.session!.length = 0; // the network is back
    h.server.update(h.server.session, { status: 'paid', provider_status: 'Completed' }, false);
    const before = h.server.streams.length;
    h.page.network(true);
    await waitUntil(() => h.server.count('session') === 5, 'a check at once, not in 24 s');
    expect(h.server.last('session')!.query.get('refresh')).to.equal('1');
    expect(h.server.streams.length).to.equal(before + 1, 'the event stream is opened again');
    await h.until('paid');
    expect(h.of('paydesk-paid')).to.have.length(1);
  });

  it('back online, the event stream carries the status again (no polling)', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    await waitUntil(() => h.server.openStreams.length === 1);
    h.page.network(false);
    h.server.failNext('session', 'network');
    h.server.openStreams[0]!.fail();
    await waitUntil(() => h.server.count('session') === 1);
    await settle(h.el);
    h.page.network(true);
    await waitUntil(() => h.server.openStreams.length === 1, 'the stream is opened again');
    await waitUntil(() => h.server.count('session') === 2);
    await settle(h.el);
    await h.advance(120_000);
    await settle(h.el);
    expect(h.server.count('session')).to.equal(2, 'no polling while the stream works');
    h.server.update(h.server.session, { status: 'paid', provider_status: 'Completed' });
    await h.until('paid');
  });

  it('while the browser is offline, the requisites (and the check) say the status may be out of date; back online, that goes', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    await waitUntil(() => h.server.openStreams.length === 1);
    const note = () => h.root.querySelector('[part="offline"]');
    expect(note()).to.equal(null);
    h.page.network(false);
    await settle(h.el);
    expect(norm(note()!.textContent!)).to.equal('No connection: the payment status will update when you are back online.');
    expect(h.root.querySelector('[part="requisites"]'), 'the requisites stay').to.exist;
    byText(h.root, 'I have paid').click();
    await h.until('confirming');
    expect(note(), 'also while the payment is checked').to.exist;
    h.page.network(true);
    await settle(h.el);
    expect(note()).to.equal(null);
  });

  it('a browser already offline when the live status starts: the note shows without an offline event; online, it goes', async () => {
    // The outage began before the checkout was on the page: no offline event will come.
    const h = await mount({ paymentMethodId: 'm-sbp' }, { onCreate: (el) => void ((el.env.window as FakePage).navigator.onLine = false) });
    await h.until('pay');
    await waitUntil(() => h.root.querySelector('[part="offline"]') !== null);
    h.page.network(true);
    await settle(h.el);
    expect(h.root.querySelector('[part="offline"]')).to.equal(null);
  });

  it('a removed checkout leaves no listener on the page (online, offline, visibility, pageshow)', async () => {
    const page = new FakePage();
    const listening = new Map<string, number>();
    const add = page.addEventListener.bind(page);
    const remove = page.removeEventListener.bind(page);
    page.addEventListener = (type: string, fn: EventListenerOrEventListenerObject | null, o?: AddEventListenerOptions | boolean) => {
      listening.set(type, (listening.get(type) ?? 0) + 1);
      add(type, fn, o);
    };
    page.removeEventListener = (type: string, fn: EventListenerOrEventListenerObject | null, o?: EventListenerOptions | boolean) => {
      listening.set(type, (listening.get(type) ?? 0) - 1);
      remove(type, fn, o);
    };
    const h = await mount({ paymentMethodId: 'm-sbp' }, { env: { document: page, window: page } });
    await h.until('pay');
    await waitUntil(() => h.server.openStreams.length === 1);
    expect(listening.get('online')).to.equal(1);
    expect(listening.get('offline')).to.equal(1);
    h.el.remove();
    await settle(h.el);
    expect(h.server.openStreams).to.have.length(0);
    expect([...listening].filter(([, n]) => n !== 0)).to.deep.equal([]);
    page.network(false);
    page.network(true);
    await settle(h.el);
    expect(h.server.count('session')).to.equal(0);
  });

  it('shows "paid" only when the server says so, never because time passes or the shopper says so', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    byText(h.root, 'I have paid').click();
    await h.until('confirming');
    h.page.pageshow();
    await settle(h.el);
    await h.advance(60 * 60_000);
    await settle(h.el);
    expect(h.el.state).to.equal('confirming');
    expect(h.of('paydesk-paid')).to.have.length(0);
    expect(h.navigations).to.deep.equal([]);
  });
});
