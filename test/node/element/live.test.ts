import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createApi, type ErrorInfo, type OrderAnswer } from '../../../src/element/api.js';
import { LiveStatus } from '../../../src/element/live.js';
import { FakeClock } from '../../browser/helpers/fake-clock.js';
import { FakeEndpoint, FakePage } from '../../browser/helpers/fake-endpoint.js';

const tick = () => new Promise((r) => setImmediate(r));
async function flush(): Promise<void> {
  for (let i = 0; i < 6; i++) await tick();
}

async function setup(options: { stream?: boolean; hidden?: boolean } = {}) {
  const server = new FakeEndpoint();
  const clock = new FakeClock();
  const page = new FakePage();
  page.hidden = options.hidden ?? false;
  const api = createApi(server.base, { fetch: server.fetch });
  const { session } = await api.create({ order_ref: 'sku-1' }, 'k');
  server.requests = [];
  const orders: OrderAnswer[] = [];
  const fatal: ErrorInfo[] = [];
  const live = new LiveStatus({
    api,
    session,
    clock,
    EventSource: options.stream === false ? undefined : server.EventSource,
    document: page,
    window: page,
    onOrder: (a) => orders.push(a),
    onFatal: (e) => fatal.push(e),
  });
  return { server, clock, page, live, session, orders, fatal };
}

describe('live status', () => {
  test('listens to the event stream first and polls nothing while it works', async () => {
    const t = await setup();
    t.live.start();
    await flush();
    assert.equal(t.live.mode, 'stream');
    t.server.update(t.session, { status: 'paid', provider_status: 'Completed' });
    assert.equal(t.orders.at(-1)!.order.status, 'paid');
    t.clock.advance(60_000);
    await flush();
    assert.equal(t.server.count('session'), 0);
    t.live.stop();
  });

  test('when the stream fails: one immediate check, then polling every 3 s', async () => {
    const t = await setup();
    t.live.start();
    await flush();
    t.server.streams[0]!.fail();
    await flush();
    assert.equal(t.live.mode, 'poll');
    assert.equal(t.server.openStreams.length, 0, 'the broken stream is closed');
    assert.equal(t.server.count('session'), 1);
    for (let i = 2; i <= 4; i++) {
      t.clock.advance(3000);
      await flush();
      assert.equal(t.server.count('session'), i);
    }
    t.server.update(t.session, { status: 'paid' }, false);
    t.clock.advance(3000);
    await flush();
    assert.equal(t.orders.at(-1)!.order.status, 'paid');
    t.live.stop();
  });

  test('polling backs off after failures (6 s, 12 s, … up to 30 s) and recovers after a success', async () => {
    const t = await setup({ stream: false });
    t.live.start();
    for (let i = 0; i < 5; i++) t.server.failNext('session', 'network');
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      const before = t.server.count('session');
      let waited = 0;
      while (t.server.count('session') === before) {
        t.clock.advance(1000);
        waited += 1000;
        await flush();
      }
      delays.push(waited);
    }
    // The first poll starts at once (no EventSource); measured in 1 s steps.
    assert.deepEqual(delays, [1000, 6000, 12000, 24000, 30000, 30000]);
    t.clock.advance(3000);
    await flush();
    assert.equal(t.live.pollDelay, 3000, 'back to the base interval after a good answer');
    t.live.stop();
  });

  test('never more than one status request in flight; a refresh asked meanwhile runs after it', async () => {
    const t = await setup();
    t.live.start();
    await flush();
    const release = t.server.hold('session');
    void t.live.check(false);
    void t.live.check(true);
    void t.live.check(true);
    t.page.pageshow();
    await flush();
    assert.equal(t.server.maxInFlight.session, 1);
    assert.equal(t.server.count('session'), 1);
    release();
    await flush();
    assert.equal(t.server.count('session'), 2, 'exactly one follow-up');
    assert.equal(t.server.last('session')!.query.get('refresh'), '1');
    assert.equal(t.server.maxInFlight.session, 1);
    t.live.stop();
  });

  test('paused while the page is hidden; checked at once with ?refresh=1 when it comes back', async () => {
    const t = await setup();
    t.live.start();
    await flush();
    t.page.hide();
    assert.equal(t.live.mode, 'paused');
    assert.equal(t.server.openStreams.length, 0);
    t.clock.advance(600_000);
    await flush();
    assert.equal(t.server.count('session'), 0);
    t.page.show();
    await flush();
    assert.equal(t.server.count('session'), 1);
    assert.equal(t.server.last('session')!.query.get('refresh'), '1');
    assert.equal(t.live.mode, 'stream');
    assert.equal(t.server.openStreams.length, 1);
    t.live.stop();
  });

  test('a page that starts hidden waits for visibility', async () => {
    const t = await setup({ hidden: true });
    t.live.start();
    await flush();
    assert.equal(t.server.streams.length, 0);
    t.page.show();
    await flush();
    assert.equal(t.server.streams.length, 1);
    t.live.stop();
  });

  test('pageshow (back from the bank app, bfcache) checks at once', async () => {
    const t = await setup();
    t.live.start();
    await flush();
    t.page.pageshow();
    await flush();
    assert.equal(t.server.last('session')!.query.get('refresh'), '1');
    t.live.stop();
  });

  test('a stream that reconnects by itself triggers one check (missed changes, server time)', async () => {
    const t = await setup();
    t.live.start();
    await flush();
    assert.equal(t.server.count('session'), 0);
    t.server.streams[0]!.reopen();
    await flush();
    assert.equal(t.server.count('session'), 1);
    t.live.stop();
  });

  test('malformed events are ignored', async () => {
    const t = await setup();
    t.live.start();
    await flush();
    t.server.streams[0]!.send('{"nope":');
    t.server.streams[0]!.send({ status: 'paid' });
    assert.equal(t.orders.length, 0);
    t.live.stop();
  });

  test('a malformed event announced a change: the server is asked at once (the open stream polls nothing, the order paid meanwhile is seen)', async () => {
    const t = await setup();
    t.live.start();
    await flush();
    t.server.update(t.session, { status: 'paid', provider_status: 'Completed' }, false);
    t.server.streams[0]!.send('{"status":"paid","amount":'); // cut off on its way
    await flush();
    assert.equal(t.server.count('session'), 1);
    assert.equal(t.orders.at(-1)?.order.status, 'paid');
    assert.equal(t.live.mode, 'stream', 'the stream stays');
    t.live.stop();
  });

  test('a session refused for good is reported once, not retried forever', async () => {
    const t = await setup({ stream: false });
    t.live.start();
    t.server.failNext('session', { status: 401, body: { error: { code: 'session_invalid', message: 'bad', retryable: false } } });
    t.clock.advance(0);
    await flush();
    assert.deepEqual(t.fatal.map((e) => e.code), ['session_invalid']);
    t.live.stop();
  });

  test('stop closes the stream, clears timers, removes listeners and ignores late answers', async () => {
    const t = await setup();
    t.live.start();
    await flush();
    t.server.streams[0]!.fail();
    await flush();
    const release = t.server.hold('session');
    t.clock.advance(3000);
    await flush();
    t.live.stop();
    release();
    await flush();
    assert.equal(t.server.openStreams.length, 0);
    assert.equal(t.clock.pending, 0);
    const seen = t.orders.length;
    t.page.show();
    t.page.pageshow();
    t.clock.advance(60_000);
    await flush();
    assert.equal(t.orders.length, seen);
    assert.equal(t.live.mode, 'stopped');
  });
});
