/**
 * A wiped store never leaves a paid order unreported (issue 30): orders are created, the store is
 * wiped (FLUSHALL on a redis-server of this test's own), then the orders are paid at the sandbox.
 * Each reaches the merchant exactly once — through its webhook at once, whatever sweeps and
 * duplicate deliveries follow: `onOrderPaid` with its order_ref where the client order id paydesk
 * chose carries it (signed), else `onOrderFlagged` `session_lost` with the provider's order id and amount.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { createRedisStore } from '../../../src/server/index.js';
import type { OrderView } from '../../../src/protocol/index.js';
import { SessionTokens } from '../../../src/server/tokens.js';
import { hasRedisServer, spawnRedis } from './redis-server.js';
import { complete, created, ENDPOINT, world } from './world.js';

const cleanups: Array<() => Promise<unknown> | unknown> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('a wiped store', { skip: !hasRedisServer() && 'no redis-server on PATH' }, () => {
  test('orders created, Redis FLUSHALL, orders paid: each reported once (onOrderPaid by its order_ref, else session_lost)', { timeout: 60_000 }, async () => {
    const redis = await spawnRedis(['--save', '', '--appendonly', 'no']);
    const client = new Redis(redis.url);
    cleanups.push(() => redis.stop());
    cleanups.push(() => client.quit().catch(() => client.disconnect()));
    const deliveries: Array<{ url: string; init: { method: string; headers: [string, string][]; body: string } }> = [];
    const w = world({
      record: ['paid', 'flagged'],
      sandbox: {
        fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
          const req = new Request(input, init);
          const body = await req.text();
          deliveries.push({ url: req.url, init: { method: req.method, headers: [...req.headers], body } });
          return w.handler(new Request(req.url, { method: req.method, headers: req.headers, body }));
        },
      },
      handler: {
        store: createRedisStore({ client, allowVolatile: true }),
        webhookUrl: `${ENDPOINT}/webhooks`,
        resolveOrder: (ref) => (ref.startsWith('merchant-') ? { amount: '1500.00', client_order_id: `${ref}-own-id` } : { amount: '1500.00' }),
      },
    });

    const fits = ['cart-1', 'cart-2', 'sku:42@shop.example', 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d'];
    const longRef = `cart-${'x'.repeat(60)}`;
    const orders = new Map<string, OrderView>();
    for (const ref of fits) orders.set(ref, (await created(w, { order_ref: ref, method_type: 'SBP' })).order);
    orders.set('cart-keyed', (await created(w, { order_ref: 'cart-keyed', method_type: 'SBP' }, { 'idempotency-key': 'wiped-key-1' })).order);
    orders.set(longRef, (await created(w, { order_ref: longRef, method_type: 'SBP' })).order);
    orders.set('merchant-7', (await created(w, { order_ref: 'merchant-7', method_type: 'SBP' })).order);
    for (const ref of [...fits, 'cart-keyed']) assert.match(orders.get(ref)!.client_order_id, /^pr_/, `${ref}: the id carries the ref`);
    assert.ok(orders.get('a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d')!.client_order_id.length <= 64);

    await client.flushall();

    for (const order of orders.values()) await complete(w, order.id);
    // What follows must add nothing: sweeps, and every webhook delivered a second time.
    await w.handler.reconcile();
    for (const d of deliveries.splice(0)) await w.handler(new Request(d.url, { method: d.init.method, headers: d.init.headers, body: d.init.body }));
    await w.handler.idle();
    await w.handler.reconcile();
    await w.handler.idle();

    const byRef = (ref: string) => w.paid.filter((e) => e.order_ref === ref);
    for (const ref of [...fits, 'cart-keyed']) {
      const events = byRef(ref);
      assert.equal(events.length, 1, `${ref}: onOrderPaid once (${events.length})`);
      assert.equal(events[0]!.provider_order_id, orders.get(ref)!.id);
      assert.equal(events[0]!.client_order_id, orders.get(ref)!.client_order_id);
      assert.equal(events[0]!.order.status, 'paid');
      assert.equal(events[0]!.session_id, '', 'the session is gone');
    }
    assert.equal(w.paid.length, fits.length + 1, 'nothing else paid');
    for (const ref of [longRef, 'merchant-7']) {
      const order = orders.get(ref)!;
      const flags = w.flagged.filter((e) => e.provider_order_id === order.id);
      assert.equal(flags.length, 1, `${ref}: onOrderFlagged once`);
      assert.equal(flags[0]!.reason, 'session_lost');
      assert.equal(flags[0]!.order_ref, null);
      assert.equal(flags[0]!.expected_amount, '1500.00');
      assert.equal(flags[0]!.provider_order?.amount, order.amount);
    }
    assert.equal(w.flagged.length, 2, 'nothing else flagged');
  });

  test('the order_ref in a client order id is signed: another secret, or a changed ref, reads as none', () => {
    const tokens = new SessionTokens(['a-session-secret-of-at-least-32-characters']);
    const id = tokens.clientOrderIdFor('cart-1')!;
    assert.match(id, /^pr_[0-9a-z]{8}[A-Za-z0-9_-]{16}cart-1$/);
    assert.equal(tokens.orderRefOf(id), 'cart-1');
    assert.notEqual(tokens.clientOrderIdFor('cart-1'), id, 'unique per order');
    assert.equal(tokens.orderRefOf(id.replace(/cart-1$/, 'cart-2')), null);
    assert.equal(new SessionTokens(['another-session-secret-of-32-characters!']).orderRefOf(id), null);
    const rotated = new SessionTokens(['a-newer-session-secret-of-32-characters!!', 'a-session-secret-of-at-least-32-characters']);
    assert.equal(rotated.orderRefOf(id), 'cart-1', 'an older secret still reads it');
    assert.equal(tokens.clientOrderIdFor('x'.repeat(38)), null, 'too long to carry');
    assert.equal(tokens.clientOrderIdFor('корзина'), null, 'characters outside the id alphabet');
    assert.equal(tokens.clientOrderIdFor('x'.repeat(37))!.length, 64);
  });
});
