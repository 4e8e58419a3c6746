/**
 * `handler.createSession(input, request?)` (DESIGN.md, "Server-rendered checkout"): the in-process
 * form of `POST {endpoint}/sessions`, against the real sandbox. The route and the method share one
 * implementation: same checks, same resolveOrder, same answer, and a later POST for the same order
 * is answered with the same session (the live replay of the merchant's client_order_id).
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { CheckoutError } from '../../../src/server/index.js';
import type { CheckoutHandlerOptions } from '../../../src/server/index.js';
import type { OrderView } from '../../../src/protocol/index.js';
import { SseReader } from './fake-provider.js';
import { ENDPOINT, KEY, post, PROVIDER, providerOrders as sandboxOrders, world as sandboxWorld, type World as SandboxWorld } from './world.js';

interface World extends SandboxWorld {
  /** The request resolveOrder got, each time. */
  resolved: Request[];
}

/** The shop: every order_ref but `missing` is a 1500.00 order whose client_order_id the shop gives. */
function world(options: Partial<CheckoutHandlerOptions> = {}): World {
  const resolved: Request[] = [];
  const handler: Partial<CheckoutHandlerOptions> = {
    resolveOrder: (ref, request) => {
      resolved.push(request);
      return ref === 'missing' ? null : { amount: '1500.00', client_order_id: `shop-${ref}` };
    },
    rateLimits: undefined, // the library's default limits
    ...options,
  };
  return Object.assign(sandboxWorld({ handler }), { resolved });
}

describe('handler.createSession: the in-process POST /sessions', () => {
  test('answers what the route answers; a later POST /sessions for the order gets the same session, one provider order', async () => {
    const w = world();
    const page = new Request('http://merchant.test/checkout/tee', { headers: { cookie: 'cart=tee' } });
    const created = await w.handler.createSession({ order_ref: 'tee', method_type: 'SBP' }, page);
    assert.deepEqual(Object.keys(created).sort(), ['order', 'server_time', 'session']);
    assert.equal(created.order.status, 'pending');
    assert.equal(created.order.amount, '1500.00');
    assert.equal(created.order.requisites?.kind, 'phone');
    assert.ok(!Number.isNaN(Date.parse(created.server_time)));
    assert.equal(w.resolved[0], page, 'resolveOrder gets the page request');

    const res = await post(w, { order_ref: 'tee', method_type: 'SBP' });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('idempotent-replayed'), 'true');
    const again = (await res.json()) as { session: string; order: OrderView };
    assert.equal(again.session, created.session, 'the browser takes over the same session');
    assert.deepEqual(again.order, created.order);
    assert.equal((await sandboxOrders(w)).length, 1, 'one order at the provider');

    // The session is live: the stream follows it to paid.
    const sse = new SseReader(await w.handler(new Request(`${ENDPOINT}/sessions/${created.session}/events`)));
    assert.equal(JSON.parse((await sse.next())!.data!).status, 'pending');
    const done = await w.sandbox.fetch(new Request(`${PROVIDER}/sandbox/orders/${created.order.id}/complete`, { method: 'POST', headers: { 'X-API-Key': KEY } }));
    assert.equal(done.status, 200);
    assert.equal(JSON.parse((await sse.next())!.data!).status, 'paid');
  });

  test('resolveOrder null: a CheckoutError with the route\'s 404 order_not_found; nothing created', async () => {
    const w = world();
    await assert.rejects(w.handler.createSession({ order_ref: 'missing' }), (err: unknown) => {
      assert.ok(err instanceof CheckoutError);
      assert.equal(err.status, 404);
      assert.equal(err.code, 'order_not_found');
      return true;
    });
    assert.equal((await post(w, { order_ref: 'missing' })).status, 404, 'the route says the same');
    assert.equal((await sandboxOrders(w)).length, 0);
  });

  test('the body rules of the route: a bad field is 400 validation_failed naming it; an amount is ignored; a mode not enabled is refused', async () => {
    const w = world();
    const refused = async (input: unknown, pattern: RegExp) =>
      assert.rejects(w.handler.createSession(input as { order_ref: string }), (err: unknown) => {
        assert.ok(err instanceof CheckoutError, String(err));
        assert.equal(err.status, 400);
        assert.equal(err.code, 'validation_failed');
        assert.match(err.message, pattern);
        return true;
      });
    await refused({}, /order_ref is required/);
    await refused({ order_ref: '' }, /order_ref must not be empty/);
    await refused({ order_ref: 'tee', method_type: 'S P' }, /method_type/);
    await refused({ order_ref: 'tee', mode: 'form' }, /mode form is not enabled/);
    await refused(null, /body/);
    const cheap = await w.handler.createSession({ order_ref: 'tee', method_type: 'SBP', amount: '1.00' } as { order_ref: string });
    assert.equal(cheap.order.amount, '1500.00', 'the price comes from resolveOrder only');
    assert.equal(w.resolved[0]!.url, 'http://localhost/paydesk/sessions', 'without a request resolveOrder gets a stand-in');
  });

  test('an Idempotency-Key on the request and the per-address create limit hold as on the route', async () => {
    const w = world({ rateLimits: { createPerAddress: { limit: 3, windowSeconds: 60 } }, getClientAddress: (r) => r.headers.get('x-client') ?? undefined });
    const page = (key?: string) => new Request('http://merchant.test/checkout', { headers: { 'x-client': '10.0.0.9', ...(key && { 'idempotency-key': key }) } });
    await assert.rejects(w.handler.createSession({ order_ref: 'k2' }, page('bad key')), (err: unknown) => err instanceof CheckoutError && err.code === 'validation_failed');
    const a = await w.handler.createSession({ order_ref: 'k1', method_type: 'SBP' }, page('key-1'));
    const b = await w.handler.createSession({ order_ref: 'k1', method_type: 'SBP' }, page('key-1'));
    assert.equal(b.session, a.session);
    await assert.rejects(w.handler.createSession({ order_ref: 'k2' }, page()), (err: unknown) => err instanceof CheckoutError && err.code === 'rate_limited');
  });

  test('options.purchase: one order per purchase; after it ended unpaid the next one, which repeats then get; a paid one stays', async () => {
    const w = world();
    const control = async (id: string, action: 'expire' | 'complete') => {
      const res = await w.sandbox.fetch(new Request(`${PROVIDER}/sandbox/orders/${encodeURIComponent(id)}/${action}`, { method: 'POST', headers: { 'X-API-Key': KEY } }));
      assert.equal(res.status, 200);
      await w.sandbox.webhooks.idle(); // the webhook reached the handler
      await w.handler.idle();
    };
    const buy = () => w.handler.createSession({ order_ref: 'p1', method_type: 'SBP' }, undefined, { purchase: 'cart-7f3a' });
    const first = await buy();
    assert.equal((await buy()).order.id, first.order.id, 'a repeat: the same order');
    await control(first.order.id, 'expire');
    const second = await buy();
    assert.notEqual(second.order.id, first.order.id, 'the first ended unpaid: the next order');
    assert.equal(second.order.status, 'pending');
    assert.equal((await buy()).order.id, second.order.id, 'and repeats get that one');
    await control(second.order.id, 'complete');
    const paid = await buy();
    assert.equal(paid.order.id, second.order.id, 'a paid order stays the purchase\'s');
    assert.equal(paid.order.status, 'paid');
    assert.equal((await sandboxOrders(w)).length, 2);
    for (const bad of ['', 'has space', 'x'.repeat(201), 7]) {
      await assert.rejects(
        w.handler.createSession({ order_ref: 'p2' }, undefined, { purchase: bad as string }),
        (err: unknown) => err instanceof CheckoutError && err.code === 'validation_failed' && /purchase/.test(err.message),
      );
    }
  });
});
