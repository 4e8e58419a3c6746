/**
 * The handler's multi-instance guarantees on top of a store, run against every store (memory, SQLite,
 * Redis, PostgreSQL): one order for ten concurrent duplicates, events on every instance, onOrderPaid
 * exactly once, every payment of a purchase paid on several instances at once in its index. The store's own contract is the packaged suite (paydesk/server/testing,
 * describeStoreContract), which each store's test file runs too.
 */
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckoutStore } from '../../../src/server/index.js';
import { randomUUID } from 'node:crypto';
import {
  createRequest,
  createSession,
  deferred,
  FakeProvider,
  getSession,
  type Harness,
  makeHarness,
  SseReader,
  webhookRequest,
} from './fake-provider.js';

export interface StoreFixture {
  /** A store on the shared backend; each call is another "instance" (Redis: another connection). */
  make(): Promise<CheckoutStore>;
  /** Unique key prefix per test so tests do not see each other's keys. */
  unique(): string;
}

export function handlerContract(name: string, fixture: StoreFixture): void {
  describe(`two handler instances on one ${name} store`, () => {
    const opened: CheckoutStore[] = [];
    const make = async () => {
      const s = await fixture.make();
      opened.push(s);
      return s;
    };
    after(async () => {
      for (const s of opened) await s.close();
    });

    describe('two handler instances on one store', () => {
      async function twoInstances() {
        const provider = new FakeProvider();
        const storeA = await make();
        const storeB = await make();
        const prefix = fixture.unique();
        // Keys of different tests must not meet: the fake provider's ids are random, sessions too.
        void prefix;
        const paid: unknown[] = [];
        const a = makeHarness({ store: storeA, onOrderPaid: (e) => void paid.push(e) }, provider);
        const b = makeHarness({ store: storeB, onOrderPaid: (e) => void paid.push(e) }, provider);
        b.clock.now = a.clock.now;
        return { provider, a, b, paid };
      }

      test('ten concurrent duplicates with one Idempotency-Key over two instances create exactly one order', async () => {
        const { provider, a, b } = await twoInstances();
        const hold = deferred();
        provider.failNext('createOrder', () => hold.promise);
        const key = `dup-${fixture.unique()}`;
        const pending = Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? a : b).handler(createRequest({ order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': key })),
        );
        // Let every request reach the store before the provider answers.
        while (provider.count('createOrder') === 0) await new Promise((r) => setImmediate(r));
        hold.resolve();
        const responses = await Promise.all(pending);
        const bodies = (await Promise.all(responses.map((r) => r.json()))) as Array<{ session: string; order: { id: string } }>;
        assert.deepEqual(
          responses.map((r) => r.status),
          Array(10).fill(201),
        );
        assert.equal(provider.count('createOrder'), 1);
        assert.equal(provider.orders.length, 1);
        assert.equal(new Set(bodies.map((x) => x.session)).size, 1);
        assert.equal(new Set(bodies.map((x) => x.order.id)).size, 1);
      });

      test('a session made on one instance is served and streamed by the other; a webhook on either reaches both', async () => {
        const { provider, a, b, paid } = await twoInstances();
        const res = await a.handler(createRequest({ order_ref: 'tee', method_type: 'SBP' }));
        const created = (await res.json()) as { session: string; order: { id: string } };
        const read = await getSession(b, created.session);
        assert.equal(read.status, 200);
        const streamA = new SseReader(await a.handler(new Request(`https://shop.example/api/paydesk/sessions/${created.session}/events`)));
        const streamB = new SseReader(await b.handler(new Request(`https://shop.example/api/paydesk/sessions/${created.session}/events`)));
        assert.equal(JSON.parse((await streamA.next())!.data!).status, 'pending');
        assert.equal(JSON.parse((await streamB.next())!.data!).status, 'pending');

        const order = provider.setStatus(created.order.id, 'Completed');
        // Duplicate deliveries to both instances at once.
        const deliveries = await Promise.all([a, b, a, b].map((h) => h.handler(webhookRequest(order))));
        for (const d of deliveries) assert.ok(d.status === 200 || d.status === 202, String(d.status));
        const evA = await streamA.next();
        const evB = await streamB.next();
        assert.equal(JSON.parse(evA!.data!).status, 'paid');
        assert.equal(JSON.parse(evB!.data!).status, 'paid');
        assert.equal(evA!.id, evB!.id);
        assert.equal(await streamA.next(), null, 'the stream ends after a final state');
        assert.equal(await streamB.next(), null);
        await a.handler.idle();
        await b.handler.idle();
        assert.equal(paid.length, 1, 'onOrderPaid ran exactly once');
      });
    });

    test('three instances, paid webhooks of five orders of one purchase delivered to all at once: each later payment is listed, none lost', async () => {
      const provider = new FakeProvider();
      const instances: Harness[] = [];
      for (let i = 0; i < 3; i++) instances.push(makeHarness({ store: await make(), resolveOrder: () => ({ amount: '1500.00' }) }, provider));
      const cart = `cart-${fixture.unique()}${randomUUID().slice(0, 8)}`;
      const orders: Array<{ id: string }> = [];
      for (let i = 0; i < 5; i++) orders.push((await createSession(instances[i % 3]!, { order_ref: cart, method_type: 'SBP' })).order);
      const completed = orders.map((o) => provider.setStatus(o.id, 'Completed'));
      const deliveries = await Promise.all(completed.flatMap((o) => instances.map((h) => h.handler(webhookRequest(o)))));
      for (const d of deliveries) assert.ok(d.status === 200 || d.status === 202, String(d.status));
      for (const h of instances) await h.handler.idle();
      const ids = orders.map((o) => o.id).sort();
      for (const h of instances) {
        const mine = (await h.handler.doublePayments()).filter((d) => d.purchase === cart);
        assert.equal(mine.length, 4, JSON.stringify(mine));
        assert.equal(new Set(mine.map((d) => d.first.order_id)).size, 1, 'one first payment, the one fulfilled');
        assert.deepEqual([mine[0]!.first.order_id, ...mine.map((d) => d.order_id)].sort(), ids);
      }
      for (const h of instances) await h.handler.close();
    });
  });
}
