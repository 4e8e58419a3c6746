import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, createApi, newIdempotencyKey, parseMethods } from '../../../src/element/api.js';
import { parseOrderEvent } from '../../../src/element/live.js';
import { FakeEndpoint } from '../../browser/helpers/fake-endpoint.js';
import { orderView } from '../../browser/helpers/orders.js';

function setup() {
  const server = new FakeEndpoint('/api/paydesk');
  const api = createApi('/api/paydesk', { fetch: server.fetch });
  return { server, api };
}

async function rejectsWith(p: Promise<unknown>, code: string, retryable?: boolean): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ApiError, String(e));
    assert.equal(e.code, code);
    if (retryable !== undefined) assert.equal(e.retryable, retryable);
    return e;
  }
  assert.fail(`expected ${code}`);
}

describe('widget protocol client', () => {
  test('GET /methods with the order ref, validated', async () => {
    const { server, api } = setup();
    const { methods, amount, currency } = await api.methods('sku 1/ü');
    assert.equal(methods.length, 2);
    assert.equal(amount, null, 'no amount in this answer');
    assert.equal(currency, null);
    assert.equal(server.last('methods')!.query.get('order_ref'), 'sku 1/ü');
  });

  test('POST /sessions carries X-Paydesk, JSON and the Idempotency-Key; never an amount', async () => {
    const { server, api } = setup();
    const r = await api.create({ order_ref: 'sku-1', payment_method_id: 'm-sbp' }, 'key-1');
    assert.equal(r.session, 'sess-1');
    assert.equal(r.order.status, 'pending');
    const req = server.last('create')!;
    assert.equal(req.headers.get('X-Paydesk'), '1');
    assert.equal(req.headers.get('Content-Type'), 'application/json');
    assert.equal(req.headers.get('Idempotency-Key'), 'key-1');
    assert.deepEqual(req.body, { order_ref: 'sku-1', payment_method_id: 'm-sbp' });
  });

  test('a retried create with the same key gets the same session (one order)', async () => {
    const { server, api } = setup();
    const a = await api.create({ order_ref: 'sku-1' }, 'key-1');
    const b = await api.create({ order_ref: 'sku-1' }, 'key-1');
    assert.equal(a.session, b.session);
    assert.equal(server.sessions.size, 1);
  });

  test('GET /sessions/S with ?refresh=1 when asked, and the server time', async () => {
    const { server, api } = setup();
    const { session } = await api.create({ order_ref: 'sku-1' }, 'k');
    const plain = await api.session(session, false);
    assert.equal(server.last('session')!.query.get('refresh'), null);
    await api.session(session, true);
    assert.equal(server.last('session')!.query.get('refresh'), '1');
    assert.ok(plain.serverTime && !Number.isNaN(Date.parse(plain.serverTime)));
  });

  test('the session token is encoded in the path; the events URL matches', () => {
    const { api } = setup();
    assert.equal(api.eventsUrl('a/b?c'), '/api/paydesk/sessions/a%2Fb%3Fc/events');
  });

  test('an error body keeps its code, message and retryable flag', async () => {
    const { server, api } = setup();
    server.failNext('create', { status: 500, body: { error: { code: 'no_traders', message: 'No available traders', retryable: true } } });
    const e = await rejectsWith(api.create({ order_ref: 'x' }, 'k'), 'no_traders', true);
    assert.equal(e.message, 'No available traders');
    assert.equal(e.status, 500);
  });

  test('statuses without an error body map to stable codes', async () => {
    const { server, api } = setup();
    server.failNext('methods', { status: 502, body: 'Bad gateway' });
    await rejectsWith(api.methods('x'), 'provider_unavailable', true);
    server.failNext('methods', { status: 429, body: null });
    await rejectsWith(api.methods('x'), 'rate_limited', true);
    server.failNext('methods', { status: 404, body: {} });
    await rejectsWith(api.methods('x'), 'not_found', false);
  });

  test('a network failure is retryable', async () => {
    const { server, api } = setup();
    server.failNext('methods', 'network');
    await rejectsWith(api.methods('x'), 'network', true);
  });

  test('a malformed success answer is refused, naming what was wrong', async () => {
    const { server, api } = setup();
    server.failNext('create', { status: 201, body: { session: 'S', order: { ...orderView(), amount: 1500 }, server_time: 'x' } });
    const e = await rejectsWith(api.create({ order_ref: 'x' }, 'k'), 'invalid_response');
    assert.match(e.message, /order\.amount/);
    server.failNext('create', { status: 201, body: { order: orderView() } });
    await rejectsWith(api.create({ order_ref: 'x' }, 'k'), 'invalid_response');
  });

  test('a body that is not JSON is refused', async () => {
    const fetchText = async () => new Response('<html>oops</html>', { status: 200 });
    await rejectsWith(createApi('/x', { fetch: fetchText }).methods('r'), 'invalid_response');
  });

  test('an aborted request reports aborted (the element ignores it)', async () => {
    const { server, api } = setup();
    const release = server.hold('methods');
    const ctrl = new AbortController();
    const p = api.methods('x', ctrl.signal);
    ctrl.abort();
    await rejectsWith(p, 'aborted');
    release();
  });

  test('a request that takes too long times out (retryable)', async () => {
    const { server } = setup();
    server.hold('methods');
    const api = createApi('/api/paydesk', { fetch: server.fetch, timeoutMs: 20 });
    await rejectsWith(api.methods('x'), 'timeout', true);
  });
});

describe('answer validation', () => {
  test('methods: every field checked, unknown banks become null', () => {
    const ok = parseMethods({ methods: [{ id: 'a', name: 'A', type: 'SBP', bank: 'mybank', fee: '1.00', fixed_fee: null, total: '2.00' }] });
    assert.equal(ok.methods[0]!.bank, null);
    assert.deepEqual(parseMethods({ methods: [], amount: '1500.00', currency: 'RUB' }), { methods: [], amount: '1500.00', currency: 'RUB' });
    assert.deepEqual(parseMethods({ methods: [], amount: 1500, currency: 'rub<' }), { methods: [], amount: null, currency: null }, 'a malformed amount or currency is dropped');
    for (const bad of [{}, { methods: {} }, { methods: [{ id: 'a', name: 'A', type: 'SBP', fee: 1, total: '2' }] }, { methods: [{ id: '', name: 'A', type: 'SBP', fee: '1', total: '2' }] }, { methods: [null] }]) {
      assert.throws(() => parseMethods(bad), ApiError);
    }
  });

  test('an event carries an OrderView or {order, server_time}; anything else is refused', () => {
    const order = orderView();
    assert.equal(parseOrderEvent(JSON.stringify(order)).serverTime, null);
    assert.equal(parseOrderEvent(JSON.stringify({ order, server_time: '2026-03-02T10:00:00Z' })).serverTime, '2026-03-02T10:00:00Z');
    assert.throws(() => parseOrderEvent('not json'), ApiError);
    assert.throws(() => parseOrderEvent(JSON.stringify({ ...order, status: 'hacked' })), ApiError);
  });
});

test('idempotency keys are 128-bit hex and unique', () => {
  const keys = new Set(Array.from({ length: 100 }, newIdempotencyKey));
  assert.equal(keys.size, 100);
  for (const k of keys) assert.match(k, /^[0-9a-f]{32}$/);
});
