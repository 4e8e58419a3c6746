/**
 * A wiped store whose paid orders' webhooks never come (issue 30, second round): the sweep walks
 * the provider's own order list and reports each paid order of ours that has no session, once —
 * `onOrderPaid` by the order_ref its signed client order id carries. Orders are created, the store
 * is replaced by a fresh empty one (the handler on the same provider), the orders are paid with no
 * webhook delivered; one sweep reports each once, a second reports nothing again; orders of another
 * system and orders with a session here are not reported by the walk; the provider calls are counted
 * (about one per 100 orders).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryStore } from '../../../src/server/index.js';
import type { CheckoutStore } from '../../../src/server/index.js';
import type { OrderView } from '../../../src/protocol/index.js';
import { PROVIDER, created, world } from './world.js';

/** A store whose contents can be wiped: every call goes to the current memory store. */
function wipeable(): { store: CheckoutStore; wipe: () => void } {
  let current = createMemoryStore();
  const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(current)).filter((m) => m !== 'constructor');
  const store = Object.fromEntries(
    methods.map((m) => [m, (...a: unknown[]) => (current as unknown as Record<string, (...a: unknown[]) => unknown>)[m]!(...a)]),
  ) as unknown as CheckoutStore;
  return { store, wipe: () => (current = createMemoryStore()) };
}

describe('a wiped store, and the webhooks never come', () => {
  test('one sweep walks the provider order list and reports each paid order of ours once; a second reports nothing', { timeout: 120_000 }, async () => {
    const { store, wipe } = wipeable();
    const lists: string[] = [];
    const w = world({
      deliver: false,
      record: ['paid', 'flagged'],
      toSandbox: (req, forward) => {
        const url = new URL(req.url);
        if (req.method === 'GET' && url.pathname === '/api/v1/order/') lists.push(url.search);
        return forward(req);
      },
      handler: { store },
    });
    const N = 150;
    const ours: OrderView[] = [];
    for (let i = 0; i < N; i++) ours.push((await created(w, { order_ref: `cart-${i}`, method_type: 'SBP' })).order);
    const foreign = [];
    for (let i = 0; i < 5; i++) {
      foreign.push(await w.client.createOrder({ client_order_id: `other-system-${i}`, order_side: 'Buy', method_type: 'SBP', amount: '1500.00' as const }));
    }

    wipe();
    // Orders made after the wipe have their sessions: the walk leaves them to the normal path.
    const kept = [];
    for (let i = 0; i < 3; i++) kept.push((await created(w, { order_ref: `after-${i}`, method_type: 'SBP' })).order);

    const paid = ours.slice(0, 120); // the other 30 stay pending
    const pay = async (id: string) => {
      const res = await w.sandbox.fetch(new Request(`${PROVIDER}/sandbox/orders/${id}/complete`, { method: 'POST', headers: { 'X-API-Key': w.key } }));
      assert.equal(res.status, 200);
    };
    for (const o of [...paid, ...foreign, ...kept]) await pay(o.id);

    lists.length = 0;
    const first = await w.handler.reconcile();
    await w.handler.idle();
    const walkCalls = lists.length;
    for (const o of paid) {
      const events = w.paid.filter((e) => e.provider_order_id === o.id);
      assert.equal(events.length, 1, `${o.id}: onOrderPaid once (${events.length})`);
      assert.equal(events[0]!.order_ref, `cart-${ours.indexOf(o)}`, 'reported by its order_ref');
      assert.equal(events[0]!.session_id, '', 'its session is gone');
    }
    for (const o of kept) assert.equal(w.paid.filter((e) => e.provider_order_id === o.id && e.session_id !== '').length, 1, 'an order with a session: paid through it');
    for (const o of foreign) assert.equal(w.paid.filter((e) => e.provider_order_id === o.id).length, 0, 'another system\'s order is ignored');
    assert.equal(w.paid.length, paid.length + kept.length, 'nothing else paid');
    assert.equal(w.flagged.length, 0, 'nothing flagged');
    const listed = N + foreign.length + kept.length;
    console.log(`first sweep: ${first.provider_calls} provider calls, ${walkCalls} order-list pages for ${listed} orders; paid ${first.paid}`);
    assert.ok(walkCalls <= Math.ceil(listed / 100) + 1, `order-list pages: ${walkCalls}`);
    assert.ok(first.provider_calls <= Math.ceil(listed / 100) + 1 + kept.length, `provider calls: ${first.provider_calls}`);

    lists.length = 0;
    const second = await w.handler.reconcile();
    await w.handler.idle();
    console.log(`second sweep: ${second.provider_calls} provider calls, ${lists.length} order-list pages`);
    assert.equal(w.paid.length, paid.length + kept.length, 'the second sweep reports nothing again');
    assert.equal(w.flagged.length, 0);
    assert.ok(lists.length <= Math.ceil(listed / 100) + 1, `second sweep's order-list pages: ${lists.length}`);

    // A pending one paid later is reported by a later sweep (it held the watermark back), once.
    await pay(ours[N - 1]!.id);
    await w.handler.reconcile();
    await w.handler.idle();
    await w.handler.reconcile();
    await w.handler.idle();
    assert.equal(w.paid.filter((e) => e.provider_order_id === ours[N - 1]!.id).length, 1, 'a late payment of a pending one: once');
    assert.equal(w.paid.length, paid.length + kept.length + 1);
  });
});
