/**
 * `handler.doublePayments()` reads the index of payments per purchase (src/server/checkout/
 * paid-index.ts) instead of scanning sessions: a purchase paid twice is listed once with both
 * orders; one beyond the 5000 newest sessions (the old scan's reach) is found; the store calls of a
 * call do not grow with the sessions kept; sessions paid before the index existed are found by the
 * one-time backfill. Three instances on one store are in store-contract.ts (every store).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createMemoryStore, type CheckoutStore } from '../../../src/server/index.js';
import { SESSIONS_INDEX } from '../../../src/server/sessions.js';
import { DOUBLES_INDEX, paidKey } from '../../../src/server/checkout/paid-index.js';
import { createSession, makeHarness, webhookRequest, type Harness } from './fake-provider.js';

/** A store that counts its calls by method (`reset()` starts again). */
function countingStore(inner: CheckoutStore): { store: CheckoutStore; calls: Record<string, number>; total(): number; reset(): void } {
  const calls: Record<string, number> = {};
  const store = new Proxy(inner, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        calls[String(prop)] = (calls[String(prop)] ?? 0) + 1;
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return {
    store,
    calls,
    total: () => Object.values(calls).reduce((a, b) => a + b, 0),
    reset: () => {
      for (const k of Object.keys(calls)) delete calls[k];
    },
  };
}

function harness(store: CheckoutStore): Harness {
  // Every order_ref is a 1500.00 order (a cart id of the test's own).
  return makeHarness({ store, resolveOrder: () => ({ amount: '1500.00' }) });
}

/** An order of `cart` paid through its webhook, `seconds` after the harness's clock. */
async function payOrder(h: Harness, cart: string, seconds = 1): Promise<{ id: string; client_order_id: string }> {
  const created = await createSession(h, { order_ref: cart, method_type: 'SBP' });
  h.clock.now += seconds * 1000;
  const res = await h.handler(webhookRequest(h.provider.setStatus(created.order.id, 'Completed')));
  assert.equal(res.status, 200, await res.text());
  await h.handler.idle();
  return { id: created.order.id, client_order_id: created.order.client_order_id };
}

/** `n` sessions of their own carts (pending, or paid once when `paid`). */
async function fill(h: Harness, n: number, prefix: string, paid = false): Promise<void> {
  for (let i = 0; i < n; i++) {
    if (paid) await payOrder(h, `${prefix}-${i}`, 0);
    else await createSession(h, { order_ref: `${prefix}-${i}`, method_type: 'SBP' });
  }
}

describe('handler.doublePayments() reads the index of payments per purchase', () => {
  test('a cart paid by two orders is listed once, the later order with the first one it doubled', async () => {
    const h = harness(createMemoryStore());
    const first = await payOrder(h, 'cart-twice');
    const second = await payOrder(h, 'cart-twice', 60);
    await payOrder(h, 'cart-once');
    const list = await h.handler.doublePayments();
    assert.equal(list.length, 1);
    const [d] = list;
    assert.equal(d!.purchase, 'cart-twice');
    assert.equal(d!.order_id, second.id);
    assert.equal(d!.client_order_id, second.client_order_id);
    assert.equal(d!.amount, '1500.00');
    assert.equal(d!.late, false);
    assert.equal(d!.first.order_id, first.id);
    assert.equal(d!.first.client_order_id, first.client_order_id);
    assert.ok(Date.parse(d!.paid_at) - Date.parse(d!.first.paid_at) === 60_000);
    // A third payment of it: two to refund, both against the first.
    const third = await payOrder(h, 'cart-twice', 60);
    const again = await h.handler.doublePayments();
    assert.deepEqual(
      again.map((x) => [x.order_id, x.first.order_id]),
      [
        [third.id, first.id],
        [second.id, first.id],
      ],
    );
    await h.handler.close();
  });

  test('an order the provider reports paid for another amount is flagged, not paid: not in the index, not listed', async () => {
    const store = createMemoryStore();
    const h = harness(store);
    await payOrder(h, 'cart-mismatch');
    const created = await createSession(h, { order_ref: 'cart-mismatch', method_type: 'SBP' });
    h.provider.readTransform = (o) => (o.id === created.order.id ? { ...o, amount: '1.00' } : o);
    const res = await h.handler(webhookRequest(h.provider.setStatus(created.order.id, 'Completed')));
    assert.equal(res.status, 200);
    await h.handler.idle();
    assert.equal(h.flagged.length, 1, 'flagged for review');
    assert.deepEqual(await h.handler.doublePayments(), []);
    assert.equal(JSON.parse((await store.get(paidKey('cart-mismatch')))!.value).length, 1, 'only the paid order is recorded');
    await h.handler.close();
  });

  test('a double payment behind more than 5000 newer sessions is found (the scan read the newest 5000)', { timeout: 120_000 }, async () => {
    const store = createMemoryStore();
    const h = harness(store);
    const first = await payOrder(h, 'cart-old');
    const second = await payOrder(h, 'cart-old');
    const sids = new Set((await h.handler.inspect.sessions({ query: 'cart-old', limit: 10 })).map((s) => s.session_id));
    assert.equal(sids.size, 2);
    h.clock.now += 1000;
    await fill(h, 5001, 'newer');
    const newest = await store.indexRange(SESSIONS_INDEX, { limit: 5000, reverse: true });
    assert.ok(
      newest.every((e) => !sids.has(e.member)),
      'both sessions of the double payment are older than the 5000 newest',
    );
    const list = await h.handler.doublePayments();
    assert.deepEqual(
      list.map((d) => [d.purchase, d.order_id, d.first.order_id]),
      [['cart-old', second.id, first.id]],
    );
    await h.handler.close();
  });

  test('the store calls of a call do not grow with the sessions kept: 2 + the sessions of the purchases paid twice', { timeout: 60_000 }, async () => {
    const counting = countingStore(createMemoryStore());
    const h = harness(counting.store);
    await payOrder(h, 'cart-counted');
    await payOrder(h, 'cart-counted');
    await h.handler.doublePayments(); // this instance's first call: the backfill marker (and its scan)
    const measure = async () => {
      counting.reset();
      const list = await h.handler.doublePayments();
      return { calls: counting.total(), listed: list.length, byMethod: { ...counting.calls } };
    };
    const few = await measure();
    assert.equal(few.listed, 1);
    // indexRange(doubles) + get(pp:cart-counted) + get of each of its 2 sessions.
    assert.deepEqual(few.byMethod, { indexRange: 1, get: 3 });
    await fill(h, 300, 'pending');
    await fill(h, 300, 'paid-once', true);
    const many = await measure();
    assert.equal(many.listed, 1);
    assert.equal(many.calls, few.calls, `${few.calls} calls with 4 sessions, ${many.calls} with 604`);
    await h.handler.close();
  });

  test('sessions paid before the index existed are found by a one-time backfill, then the index answers', async () => {
    const counting = countingStore(createMemoryStore());
    const old = harness(counting.store);
    const first = await payOrder(old, 'cart-before');
    const second = await payOrder(old, 'cart-before');
    await payOrder(old, 'cart-single');
    await fill(old, 20, 'pending-before');
    await old.handler.close();
    // As a version without the index left the store: no lists, no index of purchases, no marker.
    for (const cart of ['cart-before', 'cart-single']) await counting.store.delete(paidKey(cart));
    await counting.store.indexRemove(DOUBLES_INDEX, 'cart-before');

    const upgraded = harness(counting.store);
    counting.reset();
    const list = await upgraded.handler.doublePayments();
    assert.deepEqual(
      list.map((d) => [d.purchase, d.order_id, d.first.order_id]),
      [['cart-before', second.id, first.id]],
    );
    // The backfill read every session once (23 of them), and recorded the three paid ones.
    assert.equal(counting.calls.indexRange, 2, 'the sessions index once, the purchases paid twice once');
    assert.ok(counting.calls.get! >= 23, String(counting.calls.get));

    counting.reset();
    assert.deepEqual(
      (await upgraded.handler.doublePayments()).map((d) => d.order_id),
      [second.id],
    );
    assert.deepEqual({ ...counting.calls }, { indexRange: 1, get: 3 }, 'no second backfill on this instance');

    // Another instance: one read of the marker, no scan.
    const another = harness(counting.store);
    counting.reset();
    assert.deepEqual(
      (await another.handler.doublePayments()).map((d) => d.order_id),
      [second.id],
    );
    assert.deepEqual({ ...counting.calls }, { indexRange: 1, get: 4 }, 'the marker, the list, its two sessions');
    await upgraded.handler.close();
    await another.handler.close();
  });

  test('each instance reads the backfill marker again daily, and backfills again once the marker expired (31 days)', async () => {
    let h: Harness | undefined;
    const counting = countingStore(createMemoryStore({ now: () => h?.clock.now ?? Date.now() }));
    h = harness(counting.store);
    await payOrder(h, 'cart-marker');
    await h.handler.doublePayments();
    const day = 24 * 3600 * 1000;
    counting.reset();
    h.clock.now += day / 2;
    await h.handler.doublePayments();
    assert.deepEqual({ ...counting.calls }, { indexRange: 1 }, 'within a day: the index only');
    counting.reset();
    h.clock.now += day;
    await h.handler.doublePayments();
    assert.deepEqual({ ...counting.calls }, { get: 1, indexRange: 1 }, 'a day later: the marker, then the index');
    counting.reset();
    h.clock.now += 31 * day;
    await h.handler.doublePayments();
    assert.equal(counting.calls.indexRange, 2, 'the marker expired: the sessions index is read once more');
    assert.equal(counting.calls.set, 1, 'and the marker written again');
    await h.handler.close();
  });

  test('a purchase whose sessions the store let go leaves the index', async () => {
    let h: Harness | undefined;
    const store = createMemoryStore({ now: () => h?.clock.now ?? Date.now() });
    h = harness(store);
    await payOrder(h, 'cart-gone');
    await payOrder(h, 'cart-gone');
    assert.equal((await h.handler.doublePayments()).length, 1);
    h.clock.now += 400 * 24 * 3600 * 1000;
    assert.deepEqual(await h.handler.doublePayments(), []);
    assert.deepEqual(await store.indexRange(DOUBLES_INDEX, { limit: 10 }), [], 'pruned from the index');
    await h.handler.close();
  });
});
