/**
 * The contract across writers and instances: atomicity under twenty concurrent writers, counters
 * that lose no count, and publish/subscribe reaching every subscriber on every instance.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inbox, pair } from './kit.js';
import type { StoreContractOptions, StoreMaker } from './kit.js';

export function registerInstanceTests(makeStore: StoreMaker, options: StoreContractOptions): void {
  test('an index written on one instance is read on another', async (t) => {
    const [s1, s2] = await pair(t, makeStore, options);
    await s1.indexSet('ix', 'later', 2);
    await s2.indexSet('ix', 'sooner', 1);
    assert.deepEqual((await s1.indexRange('ix', { limit: 10 })).map((e) => e.member), ['sooner', 'later']);
    await s1.create('k', 'from one', 60_000);
    assert.deepEqual(await s2.get('k'), { value: 'from one', version: 1 });
  });

  test('twenty concurrent creates of one key: exactly one wins (across instances)', async (t) => {
    const [s1, s2] = await pair(t, makeStore, options);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? s1 : s2).create('race', String(i), 60_000)));
    assert.equal(results.filter(Boolean).length, 1);
    const winner = results.indexOf(true);
    assert.deepEqual(await s1.get('race'), { value: String(winner), version: 1 }, 'the winner wrote the value');
  });

  test('twenty concurrent replaces of one version: exactly one wins', async (t) => {
    const [s1, s2] = await pair(t, makeStore, options);
    await s1.create('cas', 'base', 60_000);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? s1 : s2).replace('cas', 1, String(i), 60_000)));
    assert.equal(results.filter((r) => r !== null).length, 1);
    assert.equal((await s2.get('cas'))?.version, 2);
  });

  test('twenty concurrent versioned deletes: exactly one deletes', async (t) => {
    const [s1, s2] = await pair(t, makeStore, options);
    await s1.create('gone', 'x', 60_000);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? s1 : s2).delete('gone', 1)));
    assert.equal(results.filter(Boolean).length, 1);
  });

  test('concurrent increments lose no count', async (t) => {
    const [s1, s2] = await pair(t, makeStore, options);
    await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? s1 : s2).increment('count', 60_000)));
    assert.equal((await s1.increment('count', 60_000)).count, 31);
  });

  test('publish reaches every subscriber on every instance, and stops after unsubscribe', async (t) => {
    const [s1, s2] = await pair(t, makeStore, options);
    const one = inbox('instance 1');
    const two = inbox('instance 2');
    const u1 = await s1.subscribe('ch', one.listener);
    const u2 = await s2.subscribe('ch', two.listener);
    await s1.publish('ch', 'hello');
    assert.equal(await one.next(), 'hello');
    assert.equal(await two.next(), 'hello');
    await u2();
    const again = inbox('a later subscriber');
    const u3 = await s1.subscribe('ch', again.listener);
    await s2.publish('ch', 'second');
    assert.equal(await again.next(), 'second');
    assert.equal(await one.next(2), 'second');
    assert.deepEqual(two.got, ['hello'], 'nothing after unsubscribe');
    await u1();
    await u3();
  });

  test('messages from one publisher arrive in order, long ones whole', async (t) => {
    const [s1, s2] = await pair(t, makeStore, options);
    const box = inbox('the subscriber');
    const u = await s2.subscribe('ordered', box.listener);
    const sent = ['1', '2', 'x'.repeat(20_000), '4', JSON.stringify({ view: 'б'.repeat(5000) })];
    for (const m of sent) await s1.publish('ordered', m);
    await box.next(sent.length);
    assert.deepEqual(box.got, sent);
    await u();
  });

  test('channels are separate', async (t) => {
    const s = (await pair(t, makeStore, options))[0];
    const onA = inbox('channel a');
    const onB = inbox('channel b');
    const ua = await s.subscribe('a', onA.listener);
    const ub = await s.subscribe('b', onB.listener);
    await s.publish('b', 'for b');
    assert.equal(await onB.next(), 'for b');
    await s.publish('a', 'for a');
    assert.equal(await onA.next(), 'for a');
    assert.deepEqual(onA.got, ['for a'], 'a heard only its own');
    assert.deepEqual(onB.got, ['for b'], 'b heard only its own');
    await ua();
    await ub();
  });
}
