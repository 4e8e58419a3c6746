/**
 * Three handler instances on one PostgreSQL, each with its own pool (as three processes behind a load
 * balancer): a shopper's order is created on one, its event stream served by another, the provider's
 * webhook lands on the third — the stream sees "paid" through the store's LISTEN/NOTIFY (the
 * streams' heartbeat is an hour, so no re-read can stand in for it), and onOrderPaid runs exactly
 * once per order. The same Idempotency-Key sent to all three at once makes one order.
 */
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { createPostgresStore } from '../../../src/server/index.js';
import type { OrderEvent, PostgresStore } from '../../../src/server/index.js';
import type { OrderView } from '../../../src/protocol/index.js';
import { createRequest, deferred, FakeProvider, makeHarness, SseReader, webhookRequest } from './fake-provider.js';
import type { Harness } from './fake-provider.js';
import { testPostgres } from './postgres-server.js';

const db = testPostgres('the three-instance PostgreSQL tests');

/** `promise`, or a failure naming `what` after 15 s (a message that never comes fails, not hangs). */
function within<T>(what: string, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing within 15 s`)), 15_000)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

if (db) {
  describe('three handler instances on one PostgreSQL', () => {
    const stores: PostgresStore[] = [];
    const instances: Harness[] = [];
    after(async () => {
      for (const h of instances) await h.handler.close();
      for (const s of stores) await s.close();
    });

    function cluster() {
      const provider = new FakeProvider();
      const schema = db!.schema();
      const paid: OrderEvent[] = [];
      const three = [0, 1, 2].map(() => {
        const store = createPostgresStore({ pool: db!.newPool(), schema });
        stores.push(store);
        const h = makeHarness({ store, heartbeatSeconds: 3600, onOrderPaid: (e) => void paid.push(e) }, provider);
        instances.push(h);
        return h;
      });
      for (const h of three) h.clock.now = three[0]!.clock.now;
      return { provider, three, paid };
    }

    test('30 orders, each created on one instance, streamed by another, its webhook on the third: every stream sees paid, onOrderPaid once each', async () => {
      const { provider, three, paid } = cluster();
      const orders = 30;
      const results = await Promise.all(
        Array.from({ length: orders }, async (_, i) => {
          const [maker, streamer, hooked] = [three[i % 3]!, three[(i + 1) % 3]!, three[(i + 2) % 3]!];
          const res = await maker.handler(createRequest({ order_ref: 'tee', method_type: 'SBP' }));
          assert.equal(res.status, 201);
          const made = (await res.json()) as { session: string; order: { id: string } };
          const stream = new SseReader(await streamer.handler(new Request(`https://shop.example/api/paydesk/sessions/${made.session}/events`)));
          assert.equal((JSON.parse((await stream.next())!.data!) as OrderView).status, 'pending');
          const order = provider.setStatus(made.order.id, 'Completed');
          const hook = await hooked.handler(webhookRequest(order));
          assert.ok(hook.status === 200 || hook.status === 202, String(hook.status));
          const seen = (JSON.parse((await within(`order ${i}: the stream's next event`, stream.next()))!.data!) as OrderView).status;
          assert.equal(await stream.next(), null, 'the stream ends after paid');
          return { id: made.order.id, seen };
        }),
      );
      assert.deepEqual(results.map((r) => r.seen), Array(orders).fill('paid'), 'every stream saw paid');
      await Promise.all(three.map((h) => h.handler.idle()));
      const paidIds = paid.map((e) => e.provider_order_id).sort();
      assert.deepEqual(paidIds, results.map((r) => r.id).sort(), 'onOrderPaid exactly once per order');
    });

    test('the same Idempotency-Key on all three instances at once makes one order', async () => {
      const { provider, three } = cluster();
      const hold = deferred();
      provider.failNext('createOrder', () => hold.promise);
      const pending = Array.from({ length: 9 }, (_, i) =>
        three[i % 3]!.handler(createRequest({ order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'three-at-once' })),
      );
      while (provider.count('createOrder') === 0) await new Promise((r) => setImmediate(r));
      hold.resolve();
      const responses = await Promise.all(pending);
      assert.deepEqual(responses.map((r) => r.status), Array(9).fill(201));
      const bodies = (await Promise.all(responses.map((r) => r.json()))) as Array<{ order: { id: string } }>;
      assert.equal(provider.orders.length, 1);
      assert.equal(new Set(bodies.map((b) => b.order.id)).size, 1);
    });
  });
}
