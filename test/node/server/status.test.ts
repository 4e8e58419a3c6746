/**
 * GET /sessions/S and its event stream: tokens checked before anything else, status from the store,
 * refreshed from the provider when stale or asked, moving forward only, pushed to every subscriber.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ProviderError } from '../../../src/provider/errors.js';
import { MemoryStore, SessionTokens } from '../../../src/server/index.js';
import { BASE, createSession, getSession, makeHarness, SESSION_SECRET, SseReader, webhookRequest } from './fake-provider.js';
import type { Harness } from './fake-provider.js';

const viewOf = async (res: Response) => ((await res.json()) as { order: import('../../../src/protocol/index.js').OrderView }).order;
const events = (h: Harness, token: string, headers: Record<string, string> = {}) =>
  h.handler(new Request(`${BASE}/sessions/${token}/events`, { headers }));

describe('GET /sessions/S: the token', () => {
  test('a valid token reads the session from the store, without a provider call while fresh', async () => {
    const h = makeHarness();
    const { session, order } = await createSession(h);
    const before = h.provider.calls.length;
    const res = await getSession(h, session);
    assert.equal(res.status, 200);
    const json = (await res.json()) as { order: unknown; server_time: string };
    assert.deepEqual(Object.keys(json).sort(), ['order', 'server_time']);
    assert.deepEqual(json.order, order);
    assert.equal(h.provider.calls.length, before);
  });

  test('a tampered token: 401 session_invalid and no provider call', async () => {
    const h = makeHarness();
    const { session } = await createSession(h);
    const before = h.provider.calls.length;
    const flipped = session.slice(0, 5) + (session[5] === 'A' ? 'B' : 'A') + session.slice(6);
    for (const t of [flipped, session + 'x', session.split('.').reverse().join('.'), 'garbage']) {
      for (const res of [await getSession(h, t), await getSession(h, t, '?refresh=1'), await events(h, t)]) {
        assert.equal(res.status, 401, t);
        assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'session_invalid');
      }
    }
    assert.equal(h.provider.calls.length, before);
  });

  test("a foreign token (another endpoint's secret): 401", async () => {
    const h = makeHarness();
    const other = makeHarness({ sessionSecrets: ['another-merchant-secret-0123456789abcdef'] });
    const { session } = await createSession(other);
    const res = await getSession(h, session);
    assert.equal(res.status, 401);
  });

  test('an expired token (past its own time and the late window after its order\'s deadline): 401 session_expired and no provider call', async () => {
    const h = makeHarness({ sessionTtlSeconds: 3600, lateWindowSeconds: 3600 });
    const { session } = await createSession(h);
    h.clock.now += 3601_000;
    assert.equal((await getSession(h, session)).status, 200, 'past its own hour, within the late window after the deadline (30 min)');
    const before = h.provider.calls.length;
    h.clock.now += 1800_000;
    const res = await getSession(h, session, '?refresh=1');
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'session_expired');
    assert.equal(h.provider.calls.length, before);
  });

  test('a correctly signed token for a session this store does not hold: 404', async () => {
    const h = makeHarness();
    const tokens = new SessionTokens([SESSION_SECRET]);
    const res = await getSession(h, tokens.sign(tokens.newSessionId(), h.clock.now + 60_000));
    assert.equal(res.status, 404);
  });

  test('rotating the session secret keeps old tokens working', async () => {
    const store = new MemoryStore();
    const old = makeHarness({ store });
    const { session } = await createSession(old);
    const rotated = makeHarness({ store, sessionSecrets: ['the-new-secret-0123456789abcdef0123456789', SESSION_SECRET] }, old.provider);
    assert.equal((await getSession(rotated, session)).status, 200);
  });
});

describe('GET /sessions/S: status', () => {
  test('a stale pending status is re-read from the provider (one order by its id)', async () => {
    const h = makeHarness({ statusStaleSeconds: 30 });
    const { session, order } = await createSession(h);
    h.provider.setStatus(order.id, 'Completed');
    assert.equal((await viewOf(await getSession(h, session))).status, 'pending', 'fresh: from the store');
    h.clock.now += 30_000;
    const view = await viewOf(await getSession(h, session));
    assert.equal(view.status, 'paid');
    assert.equal(view.provider_status, 'Completed');
    assert.equal(h.provider.count('getOrder'), 1);
  });

  test('?refresh=1 (back from the bank app) re-reads at once; a second one within the interval does not', async () => {
    const h = makeHarness({ refreshIntervalSeconds: 2 });
    const { session, order } = await createSession(h);
    h.clock.now += 2000;
    h.provider.setStatus(order.id, 'Completed');
    assert.equal((await viewOf(await getSession(h, session, '?refresh=1'))).status, 'paid');
    assert.equal(h.provider.count('getOrder'), 1);
    const second = makeHarness({ refreshIntervalSeconds: 2 });
    const s2 = await createSession(second);
    second.clock.now += 2000;
    await getSession(second, s2.session, '?refresh=1');
    await getSession(second, s2.session, '?refresh=1');
    assert.equal(second.provider.count('getOrder'), 1);
    second.clock.now += 2000;
    await getSession(second, s2.session, '?refresh=1');
    assert.equal(second.provider.count('getOrder'), 2);
  });

  test('a provider slow to answer a re-read: the stored status is answered after readRefreshTimeoutMs, and the re-read, once answered, reaches the stream', async () => {
    const h = makeHarness({ readRefreshTimeoutMs: 50 });
    const { session, order } = await createSession(h);
    const stream = new SseReader(await events(h, session));
    assert.equal((await stream.next())?.event, 'order'); // the stored state, first
    let answer!: () => void;
    h.provider.failNext('getOrder', () => new Promise<void>((resolve) => (answer = resolve)));
    h.provider.setStatus(order.id, 'Completed');
    // A reload resumes with ?refresh=1: the shopper gets the order they were paying, not a wait on the provider.
    const res = await getSession(h, session, '?refresh=1');
    assert.equal(res.status, 200);
    assert.equal((await viewOf(res)).status, 'pending');
    assert.equal(h.provider.count('getOrder'), 1, 'the re-read is under way');
    answer();
    const next = await stream.next();
    assert.equal((JSON.parse(next!.data!) as { status: string }).status, 'paid');
    await stream.cancel();
    await h.handler.idle();
  });

  test('a provider failure during a refresh serves the stored status (200) and is logged', async () => {
    const h = makeHarness();
    const { session } = await createSession(h);
    h.clock.now += 60_000;
    h.provider.failNext('getOrder', () => {
      throw new ProviderError({ code: 'timeout', message: 'no answer', retryable: true });
    });
    const res = await getSession(h, session);
    assert.equal(res.status, 200);
    assert.equal((await viewOf(res)).status, 'pending');
    assert.ok(h.logs.some((l) => /status refresh failed/.test(l.message)));
  });

  test('after expires_at the provider is asked; a timed-out order becomes expired and onOrderClosed runs once', async () => {
    const h = makeHarness({ statusStaleSeconds: 3600 });
    const { session, order } = await createSession(h);
    h.clock.now = Date.parse(order.expires_at) + 1000;
    h.provider.setStatus(order.id, 'CanceledByTimeout');
    assert.equal((await viewOf(await getSession(h, session))).status, 'expired');
    h.clock.now += 60_000;
    await getSession(h, session);
    await h.handler.idle();
    assert.equal(h.closed.length, 1);
    assert.equal(h.paid.length, 0);
  });

  test('status only moves forward: once paid, a later Unpaid or cancellation does not change it', async () => {
    const h = makeHarness();
    const { session, order } = await createSession(h);
    h.clock.now += 60_000;
    h.provider.setStatus(order.id, 'Completed');
    assert.equal((await viewOf(await getSession(h, session, '?refresh=1'))).status, 'paid');
    for (const status of ['Unpaid', 'CanceledByService', 'CanceledByTimeout']) {
      h.clock.now += 60_000;
      h.provider.setStatus(order.id, status);
      await h.handler(webhookRequest(h.provider.orders[0]!, { timestamp: Math.floor(h.clock.now / 1000) }));
      assert.equal((await viewOf(await getSession(h, session, '?refresh=1'))).status, 'paid', status);
    }
  });

  test('an unknown provider status keeps the order pending (never a crash)', async () => {
    const h = makeHarness();
    const { session, order } = await createSession(h);
    h.clock.now += 60_000;
    h.provider.setStatus(order.id, 'SomethingNew');
    const view = await viewOf(await getSession(h, session));
    assert.equal(view.status, 'pending');
    assert.equal(view.provider_status, 'SomethingNew');
  });

  test('form mode: the order the form creates is followed by client order id', async () => {
    const h = makeHarness({ mode: 'form' });
    const { session } = await createSession(h, { order_ref: 'tee' });
    const form = h.provider.forms[0]!;
    const order = await h.provider.payFormWith(form.session_id);
    h.clock.now += 60_000;
    const view = await viewOf(await getSession(h, session));
    assert.equal(view.id, order.id);
    assert.equal(view.status, 'pending');
    assert.equal(view.requisites?.holder_account, '+79991234567');
    assert.equal(view.form_url, form.form_url, 'the form link stays');
    h.provider.setStatus(order.id, 'Completed');
    const wh = await h.handler(webhookRequest(h.provider.orders[0]!, { timestamp: Math.floor(h.clock.now / 1000) }));
    assert.equal(wh.status, 200);
    assert.equal((await viewOf(await getSession(h, session))).status, 'paid');
    await h.handler.idle();
    assert.equal(h.paid.length, 1);
  });

  test('form mode: a form that expires without an order ends expired', async () => {
    const h = makeHarness({ mode: 'form' });
    const { session } = await createSession(h, { order_ref: 'tee' });
    h.provider.forms[0]!.state = 'expired';
    h.clock.now += 60_000;
    const view = await viewOf(await getSession(h, session));
    assert.equal(view.status, 'expired');
    assert.equal(view.provider_status, 'expired');
  });
});

describe('GET /sessions/S/events', () => {
  test('sends the current state first, with an id, as text/event-stream', async () => {
    const h = makeHarness();
    const { session, order } = await createSession(h);
    const res = await events(h, session);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const sse = new SseReader(res);
    const first = await sse.next();
    assert.equal(first?.event, 'order');
    assert.equal(first?.id, '1');
    assert.deepEqual(JSON.parse(first!.data!), order);
    await sse.cancel();
  });

  test('pushes every change, then closes after the final state', async () => {
    const h = makeHarness({ mode: 'form' });
    const { session } = await createSession(h, { order_ref: 'tee' });
    const sse = new SseReader(await events(h, session));
    assert.equal(JSON.parse((await sse.next())!.data!).id, '');
    const order = await h.provider.payFormWith(h.provider.forms[0]!.session_id);
    const t = () => Math.floor(h.clock.now / 1000);
    await h.handler(webhookRequest(order, { timestamp: t() }));
    const second = await sse.next();
    assert.equal(second?.id, '2');
    assert.equal(JSON.parse(second!.data!).id, order.id);
    h.provider.setStatus(order.id, 'Completed');
    await h.handler(webhookRequest(h.provider.orders[0]!, { timestamp: t() }));
    const third = await sse.next();
    assert.equal(third?.id, '3');
    assert.equal(JSON.parse(third!.data!).status, 'paid');
    assert.equal(await sse.next(), null);
  });

  test('a change this instance writes reaches its own streams at the write, without the store\'s channel', async () => {
    // A store whose channel delivers nothing (a broken pub/sub): before, the stream waited for its heartbeat.
    class Deaf extends MemoryStore {
      override async publish(): Promise<void> {}
    }
    const h = makeHarness({ store: new Deaf(), heartbeatSeconds: 3600 });
    const { session, order } = await createSession(h);
    const sse = new SseReader(await events(h, session));
    assert.equal(JSON.parse((await sse.next())!.data!).status, 'pending');
    h.provider.setStatus(order.id, 'Completed');
    assert.equal((await h.handler(webhookRequest(h.provider.orders[0]!, { timestamp: Math.floor(h.clock.now / 1000) }))).status, 200);
    const turn = new Promise<null>((resolve) => setImmediate(() => resolve(null)));
    const ev = await Promise.race([sse.next(), turn]);
    assert.equal(ev && JSON.parse(ev.data!).status, 'paid', 'the paid event is on the stream when the webhook is answered');
    assert.equal(await sse.next(), null, 'once, and the stream ends');
    await h.handler.close();
  });

  test('Last-Event-ID resumes: nothing repeated when up to date, the current state when behind', async () => {
    const h = makeHarness();
    const { session, order } = await createSession(h);
    const upToDate = new SseReader(await events(h, session, { 'last-event-id': '1' }));
    h.provider.setStatus(order.id, 'Completed');
    await h.handler(webhookRequest(h.provider.orders[0]!, { timestamp: Math.floor(h.clock.now / 1000) }));
    const next = await upToDate.next();
    assert.equal(next?.id, '2', 'the first event is the change, not a repeat of event 1');
    const behind = new SseReader(await events(h, session, { 'last-event-id': '1' }));
    const ev = await behind.next();
    assert.equal(ev?.id, '2');
    assert.equal(JSON.parse(ev!.data!).status, 'paid');
    assert.equal(await behind.next(), null);
  });

  test('a stream opened after the final state sends it once and closes; with that id it just closes', async () => {
    const h = makeHarness();
    const { session, order } = await createSession(h);
    h.provider.setStatus(order.id, 'Completed');
    await h.handler(webhookRequest(h.provider.orders[0]!, { timestamp: Math.floor(h.clock.now / 1000) }));
    const sse = new SseReader(await events(h, session));
    assert.equal(JSON.parse((await sse.next())!.data!).status, 'paid');
    assert.equal(await sse.next(), null);
    const resumed = new SseReader(await events(h, session, { 'last-event-id': '2' }));
    assert.equal(await resumed.next(), null);
  });

  test('heartbeat comments keep the stream alive', async () => {
    const h = makeHarness({ heartbeatSeconds: 0.01 });
    const { session } = await createSession(h);
    const sse = new SseReader(await events(h, session));
    await sse.next();
    await sse.comment('heartbeat');
    await sse.cancel();
    await h.handler.close();
  });

  test('a stale status is refreshed while a stream is open (a lost webhook never stalls the shopper)', async () => {
    const h = makeHarness({ heartbeatSeconds: 0.01, statusStaleSeconds: 30, refreshIntervalSeconds: 1 });
    const { session, order } = await createSession(h);
    const sse = new SseReader(await events(h, session));
    await sse.next();
    h.provider.setStatus(order.id, 'Completed');
    h.clock.now += 31_000;
    const ev = await sse.next();
    assert.equal(JSON.parse(ev!.data!).status, 'paid');
    await h.handler.close();
  });

  test('a disconnected client leaves no subscription behind', async () => {
    const store = new MemoryStore();
    const h = makeHarness({ store });
    const { session } = await createSession(h);
    const sse = new SseReader(await events(h, session));
    await sse.next();
    const count = (): number => store.channelCount;
    assert.equal(count(), 1);
    await sse.cancel();
    await h.handler.idle();
    assert.equal(count(), 0);
  });

  test('an aborted request ends its stream', async () => {
    const h = makeHarness();
    const { session } = await createSession(h);
    const ac = new AbortController();
    const sse = new SseReader(await h.handler(new Request(`${BASE}/sessions/${session}/events`, { signal: ac.signal })));
    await sse.next();
    ac.abort();
    assert.equal(await sse.next(), null);
  });

  test('an aborted request ends its stream, also when nothing but the stream holds the request (a garbage collection in between)', async () => {
    // A Request's signal follows its caller's through a weak reference: collected, the abort would
    // never arrive. The stream keeps its request while it is open.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const h = makeHarness();
    const { session } = await createSession(h);
    const ac = new AbortController();
    const sse = new SseReader(await h.handler(new Request(`${BASE}/sessions/${session}/events`, { signal: ac.signal })));
    await sse.next();
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    ac.abort();
    assert.equal(await Promise.race([sse.next(), new Promise((resolve) => setTimeout(() => resolve('still open 2 s after the abort'), 2000))]), null);
    await h.handler.close();
  });

  test('close() ends every open stream', async () => {
    const h = makeHarness();
    const { session } = await createSession(h);
    const a = new SseReader(await events(h, session));
    const b = new SseReader(await events(h, session));
    await a.next();
    await b.next();
    await h.handler.close();
    assert.equal(await a.next(), null);
    assert.equal(await b.next(), null);
  });

  test('an allowed origin gets CORS headers on the stream', async () => {
    const h = makeHarness();
    const { session } = await createSession(h);
    const res = await events(h, session, { origin: 'https://partner.example' });
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://partner.example');
    await res.body?.cancel();
  });
});
