/**
 * The store contract, run against every store (memory, Redis): the primitives, their atomicity under
 * concurrency, pub/sub between instances, and the handler's multi-instance guarantees on top of them
 * (one order for ten concurrent duplicates, events on every instance, onOrderPaid exactly once).
 */
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckoutStore } from '../../../src/server/index.js';
import {
  createRequest,
  deferred,
  FakeProvider,
  getSession,
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

export function storeContract(name: string, fixture: StoreFixture): void {
  describe(`${name} store contract`, () => {
    const opened: CheckoutStore[] = [];
    const make = async () => {
      const s = await fixture.make();
      opened.push(s);
      return s;
    };
    after(async () => {
      for (const s of opened) await s.close();
    });

    test('get of a missing key is null', async () => {
      const s = await make();
      assert.equal(await s.get(`${fixture.unique()}missing`), null);
    });

    test('create writes only when absent, starting at version 1', async () => {
      const s = await make();
      const k = `${fixture.unique()}k`;
      assert.equal(await s.create(k, 'one', 60_000), true);
      assert.equal(await s.create(k, 'two', 60_000), false);
      assert.deepEqual(await s.get(k), { value: 'one', version: 1 });
    });

    test('replace is a compare-and-set on the version', async () => {
      const s = await make();
      const k = `${fixture.unique()}k`;
      await s.create(k, 'v1', 60_000);
      assert.equal(await s.replace(k, 2, 'nope', 60_000), null);
      assert.equal(await s.replace(k, 1, 'v2', 60_000), 2);
      assert.equal(await s.replace(k, 1, 'stale', 60_000), null);
      assert.deepEqual(await s.get(k), { value: 'v2', version: 2 });
      assert.equal(await s.replace(`${fixture.unique()}absent`, 1, 'x', 60_000), null);
    });

    test('set writes unconditionally and bumps the version', async () => {
      const s = await make();
      const k = `${fixture.unique()}k`;
      await s.set(k, 'a', 60_000);
      assert.deepEqual(await s.get(k), { value: 'a', version: 1 });
      await s.set(k, 'b', 60_000);
      assert.deepEqual(await s.get(k), { value: 'b', version: 2 });
    });

    test('delete removes, and with a version only that version', async () => {
      const s = await make();
      const k = `${fixture.unique()}k`;
      await s.create(k, 'a', 60_000);
      assert.equal(await s.delete(k, 5), false);
      assert.notEqual(await s.get(k), null);
      assert.equal(await s.delete(k, 1), true);
      assert.equal(await s.get(k), null);
      assert.equal(await s.delete(k), false);
    });

    test('values keep any text exactly (JSON, unicode, empty)', async () => {
      const s = await make();
      for (const v of ['', '{"a":"б","n":1.5}', 'line\nbreak', '😀'.repeat(100)]) {
        const k = `${fixture.unique()}v`;
        await s.create(k, v, 60_000);
        assert.equal((await s.get(k))?.value, v);
      }
    });

    test('increment counts within a window and says when it resets', async () => {
      const s = await make();
      const k = `${fixture.unique()}rl`;
      const a = await s.increment(k, 60_000);
      const b = await s.increment(k, 60_000);
      assert.equal(a.count, 1);
      assert.equal(b.count, 2);
      assert.ok(b.resetMs > 0 && b.resetMs <= 60_000, String(b.resetMs));
    });

    test('a sorted index orders by score then member, bounded by min/max, limited, in both directions', async () => {
      const s = await make();
      const ix = `${fixture.unique()}ix`;
      for (const [m, score] of [['c', 30], ['a', 10], ['b', 20], ['b2', 20], ['d', 40]] as const) await s.indexSet(ix, m, score);
      const members = (r: Array<{ member: string }>) => r.map((e) => e.member);
      assert.deepEqual(members(await s.indexRange(ix, { limit: 10 })), ['a', 'b', 'b2', 'c', 'd']);
      assert.deepEqual(await s.indexRange(ix, { min: 20, max: 30, limit: 10 }), [
        { member: 'b', score: 20 },
        { member: 'b2', score: 20 },
        { member: 'c', score: 30 },
      ]);
      assert.deepEqual(members(await s.indexRange(ix, { max: 20, limit: 2 })), ['a', 'b']);
      assert.deepEqual(members(await s.indexRange(ix, { reverse: true, limit: 3 })), ['d', 'c', 'b2']);
      assert.deepEqual(members(await s.indexRange(ix, { reverse: true, max: 20, limit: 10 })), ['b2', 'b', 'a']);
      assert.deepEqual(await s.indexRange(`${fixture.unique()}empty`, { limit: 5 }), []);
    });

    test('indexSet moves a member, indexRemove drops it, indexTrim keeps the highest scores', async () => {
      const s = await make();
      const ix = `${fixture.unique()}ix`;
      await s.indexSet(ix, 'x', 5);
      await s.indexSet(ix, 'y', 1);
      await s.indexSet(ix, 'x', 0.5);
      assert.deepEqual(await s.indexRange(ix, { limit: 10 }), [
        { member: 'x', score: 0.5 },
        { member: 'y', score: 1 },
      ]);
      await s.indexRemove(ix, 'x');
      await s.indexRemove(ix, 'never');
      assert.deepEqual(await s.indexRange(ix, { limit: 10 }), [{ member: 'y', score: 1 }]);
      for (let i = 0; i < 10; i++) await s.indexSet(ix, `m${i}`, 100 + i);
      assert.equal(await s.indexTrim(ix, 3), 8);
      assert.deepEqual(
        (await s.indexRange(ix, { limit: 10 })).map((e) => e.member),
        ['m7', 'm8', 'm9'],
      );
      assert.equal(await s.indexTrim(ix, 3), 0);
      await assert.rejects(s.indexSet(ix, 'bad', Number.NaN), TypeError);
      await assert.rejects(s.indexRange(ix, { limit: 0 }), TypeError);
    });

    test('an index written on one instance is read on another; millisecond timestamps keep their order', async () => {
      const [s1, s2] = [await make(), await make()];
      const ix = `${fixture.unique()}ix`;
      const t = Date.parse('2026-11-23T12:00:00.000Z');
      await s1.indexSet(ix, 'later', t + 1);
      await s2.indexSet(ix, 'sooner', t);
      assert.deepEqual(await s2.indexRange(ix, { max: t, limit: 10 }), [{ member: 'sooner', score: t }]);
      assert.deepEqual((await s1.indexRange(ix, { limit: 10 })).map((e) => e.member), ['sooner', 'later']);
    });

    test('twenty concurrent creates of one key: exactly one wins (across instances)', async () => {
      const [s1, s2] = [await make(), await make()];
      const k = `${fixture.unique()}race`;
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? s1 : s2).create(k, String(i), 60_000)));
      assert.equal(results.filter(Boolean).length, 1);
    });

    test('twenty concurrent replaces of one version: exactly one wins', async () => {
      const [s1, s2] = [await make(), await make()];
      const k = `${fixture.unique()}cas`;
      await s1.create(k, 'base', 60_000);
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? s1 : s2).replace(k, 1, String(i), 60_000)));
      assert.equal(results.filter((r) => r !== null).length, 1);
    });

    test('concurrent increments lose no count', async () => {
      const [s1, s2] = [await make(), await make()];
      const k = `${fixture.unique()}count`;
      await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? s1 : s2).increment(k, 60_000)));
      assert.equal((await s1.increment(k, 60_000)).count, 31);
    });

    test('publish reaches every subscriber on every instance, and stops after unsubscribe', async () => {
      const [s1, s2] = [await make(), await make()];
      const ch = `${fixture.unique()}ch`;
      const got1 = deferred<string>();
      const got2 = deferred<string>();
      const u1 = await s1.subscribe(ch, (m) => got1.resolve(m));
      const seen2: string[] = [];
      const u2 = await s2.subscribe(ch, (m) => {
        seen2.push(m);
        got2.resolve(m);
      });
      await s1.publish(ch, 'hello');
      assert.equal(await got1.promise, 'hello');
      assert.equal(await got2.promise, 'hello');
      await u2();
      const again = deferred<string>();
      const u3 = await s1.subscribe(ch, (m) => again.resolve(m));
      await s2.publish(ch, 'second');
      assert.equal(await again.promise, 'second');
      assert.deepEqual(seen2, ['hello']);
      await u1();
      await u3();
    });

    test('channels are separate', async () => {
      const s = await make();
      const a = `${fixture.unique()}a`;
      const b = `${fixture.unique()}b`;
      const onA: string[] = [];
      const gotB = deferred<string>();
      const ua = await s.subscribe(a, (m) => onA.push(m));
      const ub = await s.subscribe(b, (m) => gotB.resolve(m));
      await s.publish(b, 'for b');
      assert.equal(await gotB.promise, 'for b');
      assert.deepEqual(onA, []);
      await ua();
      await ub();
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
  });
}
