/**
 * The storefront's carts (demo/carts.ts): each "Buy" is its own cart, priced on the server from its
 * product; the mapping survives a restart on the same store; at most `max` carts are kept (the
 * oldest go first) and none older than a week; the routes validate what the browser sends.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Hono } from 'hono';
import { CART_ID, CART_TTL_MS, openCarts, productForRef, registerCartRoutes } from '../../../demo/carts.js';
import { parseCatalog } from '../../../demo/catalog.js';
import { createMemoryStore, createSqliteStore } from '../../../src/server/index.js';

const products = parseCatalog([
  { ref: 'coffee-beans', title: 'Кофе', title_en: 'Coffee', amount: '1500.00' },
  { ref: 'grinder', title: 'Кофемолка', amount: '7490.50' },
]);

describe('carts', () => {
  test('each open is a new cart of its product; a product ref still resolves (older links); anything else is unknown', async () => {
    const carts = await openCarts(createMemoryStore(), products);
    const a = await carts.open('coffee-beans');
    const b = await carts.open('coffee-beans');
    assert.ok(a && b);
    assert.match(a.cart, CART_ID);
    assert.notEqual(a.cart, b.cart);
    assert.equal(carts.productOf(a.cart)?.ref, 'coffee-beans');
    assert.equal(productForRef(carts, products, b.cart)?.amount, '1500.00');
    assert.equal(productForRef(carts, products, 'grinder')?.amount, '7490.50');
    assert.equal(await carts.open('no-such-product'), null);
    for (const ref of ['cart_AAAAAAAAAAAAAAAA', 'cart_', `${a.cart}x`, 'cart_../../etc', '__proto__', 'constructor']) {
      assert.equal(productForRef(carts, products, ref), null, ref);
    }
  });

  test('the carts survive a restart on the same (SQLite) store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paydesk-carts-'));
    try {
      const first = createSqliteStore({ path: join(dir, 'carts.db') });
      const opened = (await (await openCarts(first, products)).open('grinder'))!;
      await first.close();
      const second = createSqliteStore({ path: join(dir, 'carts.db') });
      assert.equal((await openCarts(second, products)).productOf(opened.cart)?.ref, 'grinder');
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('at most `max` carts are kept, the oldest dropped first, also after a restart; a cart older than a week is gone', async () => {
    let now = 1_000_000;
    const store = createMemoryStore({ now: () => now });
    const carts = await openCarts(store, products, { now: () => now, max: 3 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      now += 1000;
      ids.push((await carts.open('coffee-beans'))!.cart);
    }
    assert.deepEqual(
      ids.map((id) => carts.productOf(id) !== null),
      [false, false, true, true, true],
    );
    assert.equal((await store.indexRange('carts', { limit: 100 })).length, 3, 'the store keeps no more than max');
    const reopened = await openCarts(store, products, { now: () => now, max: 3 });
    assert.deepEqual(
      ids.map((id) => reopened.productOf(id) !== null),
      [false, false, true, true, true],
    );
    now += CART_TTL_MS;
    assert.equal(carts.productOf(ids[4]!), null, 'a week later the cart is gone');
  });

  test('a cart is paid once: its first paid order is fulfilled, the same order again is nothing new, another order is a double payment; it survives a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paydesk-carts-'));
    try {
      const first = createSqliteStore({ path: join(dir, 'carts.db') });
      const carts = await openCarts(first, products, { now: () => 1_000 });
      const { cart } = (await carts.open('grinder'))!;
      assert.equal(await carts.paymentOf(cart), null);
      const [a, b] = [{ order_id: 'ord_a', client_order_id: 'pd_a' }, { order_id: 'ord_b', client_order_id: 'pd_b' }];
      // Two concurrent hooks of one order: one fulfils.
      const outcomes = await Promise.all([carts.markPaid(cart, a), carts.markPaid(cart, a)]);
      assert.deepEqual(outcomes.map((o) => o.outcome).sort(), ['already', 'fulfil']);
      assert.deepEqual(await carts.markPaid(cart, b), { outcome: 'double', paid: { ...a, at: 1_000 } });
      await first.close();
      const second = createSqliteStore({ path: join(dir, 'carts.db') });
      const reopened = await openCarts(second, products);
      assert.deepEqual(await reopened.paymentOf(cart), { ...a, at: 1_000, double_payments: ['ord_b'] });
      assert.equal((await reopened.markPaid(cart, b)).outcome, 'double', 'still a double payment after a restart');
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a paid cart is priced for no create, a new one or a replay (a key whose create failed or lapsed would make an order)', async () => {
    const carts = await openCarts(createMemoryStore(), products);
    const { cart } = (await carts.open('coffee-beans'))!;
    assert.equal(await carts.mayCreate(cart), true, 'an unpaid cart');
    await carts.markPaid(cart, { order_id: 'ord_a', client_order_id: 'pd_a' });
    assert.equal(await carts.mayCreate(cart), false, 'paid');
    const { cart: other } = (await carts.open('coffee-beans'))!;
    assert.equal(await carts.mayCreate(other), true, 'another cart is not paid');
  });

  test('the payment record outlives the cart by the late window and a dispute\'s follow-up: a late payment 20 days on is a double payment', async () => {
    let clock = 1_000;
    const store = createMemoryStore({ now: () => clock });
    const carts = await openCarts(store, products, { now: () => clock });
    const { cart } = (await carts.open('coffee-beans'))!;
    assert.equal((await carts.markPaid(cart, { order_id: 'ord_2', client_order_id: 'pd_2' })).outcome, 'fulfil');
    clock += 20 * 24 * 3600_000; // the expired first order, paid late through a dispute
    assert.equal((await carts.markPaid(cart, { order_id: 'ord_1', client_order_id: 'pd_1' })).outcome, 'double');
  });

  test('the routes: POST opens a cart (X-Paydesk required, a known product), GET reads it back; bad input is a clear 4xx', async () => {
    const app = new Hono();
    registerCartRoutes(app, await openCarts(createMemoryStore(), products));
    const post = (body: string, headers: Record<string, string> = { 'x-paydesk': '1', 'content-type': 'application/json' }) =>
      app.request('/demo/api/carts', { method: 'POST', headers, body });
    const created = await post('{"product":"grinder"}');
    assert.equal(created.status, 201);
    const { cart, product } = (await created.json()) as { cart: string; product: string };
    assert.equal(product, 'grinder');
    const read = await app.request(`/demo/api/carts/${cart}`);
    assert.equal(read.status, 200);
    assert.deepEqual(await read.json(), { cart, product: 'grinder', paid: null, double_payments: [] });

    assert.equal((await post('{"product":"grinder"}', { 'content-type': 'application/json' })).status, 403);
    assert.equal((await post('not json')).status, 400);
    assert.equal((await post('{"product": 5}')).status, 400);
    assert.equal((await post('{"product":"nothing-like-it"}')).status, 404);
    const unknown = await app.request('/demo/api/carts/cart_AAAAAAAAAAAAAAAA');
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { error: { code: string } }).error.code, 'cart_not_found');
  });
});
