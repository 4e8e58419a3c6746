/**
 * The contract of each store operation on one instance: what `get`, `create`, `replace`, `set`,
 * `delete`, `increment` and the sorted indexes answer, exact values, and expiry in real time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fresh, until } from './kit.js';
import type { StoreMaker } from './kit.js';

export function registerPrimitiveTests(makeStore: StoreMaker): void {
  test('get of a missing key is null', async (t) => {
    const s = await fresh(t, makeStore);
    assert.equal(await s.get('missing'), null);
  });

  test('create writes only when absent, starting at version 1', async (t) => {
    const s = await fresh(t, makeStore);
    assert.equal(await s.create('k', 'one', 60_000), true);
    assert.equal(await s.create('k', 'two', 60_000), false);
    assert.deepEqual(await s.get('k'), { value: 'one', version: 1 });
  });

  test('replace is a compare-and-set on the version', async (t) => {
    const s = await fresh(t, makeStore);
    await s.create('k', 'v1', 60_000);
    assert.equal(await s.replace('k', 2, 'nope', 60_000), null);
    assert.equal(await s.replace('k', 1, 'v2', 60_000), 2);
    assert.equal(await s.replace('k', 1, 'stale', 60_000), null);
    assert.deepEqual(await s.get('k'), { value: 'v2', version: 2 });
    assert.equal(await s.replace('absent', 1, 'x', 60_000), null);
  });

  test('set writes unconditionally and bumps the version', async (t) => {
    const s = await fresh(t, makeStore);
    await s.set('k', 'a', 60_000);
    assert.deepEqual(await s.get('k'), { value: 'a', version: 1 });
    await s.set('k', 'b', 60_000);
    assert.deepEqual(await s.get('k'), { value: 'b', version: 2 });
  });

  test('delete removes, and with a version only that version', async (t) => {
    const s = await fresh(t, makeStore);
    await s.create('k', 'a', 60_000);
    assert.equal(await s.delete('k', 5), false);
    assert.notEqual(await s.get('k'), null);
    assert.equal(await s.delete('k', 1), true);
    assert.equal(await s.get('k'), null);
    assert.equal(await s.delete('k'), false);
    assert.equal(await s.create('k', 'again', 60_000), true, 'a deleted key can be created again');
  });

  test('values keep any text exactly (JSON, unicode, empty, 64 KB)', async (t) => {
    const s = await fresh(t, makeStore);
    const values = ['', '{"a":"б","n":1.5}', 'line\nbreak', '😀'.repeat(100), "quote ' and \\ backslash", 'x'.repeat(65_536)];
    for (const [i, v] of values.entries()) {
      await s.create(`v${i}`, v, 60_000);
      assert.equal((await s.get(`v${i}`))?.value, v);
    }
  });

  test('entries expire with their ttl: gone for get, replace and delete; create and set start again at version 1', async (t) => {
    const s = await fresh(t, makeStore);
    await s.create('short', 'v', 300);
    await s.set('short-set', 'a', 300);
    await s.set('short-set', 'b', 300);
    await s.create('long', 'stays', 60_000);
    assert.notEqual(await s.get('short'), null, 'alive before its ttl');
    await until('the 300 ms entry to expire', async () => (await s.get('short')) === null);
    await until('the second 300 ms entry to expire', async () => (await s.get('short-set')) === null);
    assert.equal(await s.replace('short', 1, 'late', 60_000), null, 'an expired entry cannot be replaced');
    assert.equal(await s.delete('short'), false, 'an expired entry is not there to delete');
    assert.equal(await s.create('short', 'again', 60_000), true, 'an expired key can be created again');
    assert.deepEqual(await s.get('short'), { value: 'again', version: 1 });
    await s.set('short-set', 'c', 60_000);
    assert.deepEqual(await s.get('short-set'), { value: 'c', version: 1 });
    assert.deepEqual(await s.get('long'), { value: 'stays', version: 1 }, 'a live entry is untouched');
  });

  test('replace and set give an entry its new ttl', async (t) => {
    const s = await fresh(t, makeStore);
    await s.create('k', 'v1', 300);
    assert.equal(await s.replace('k', 1, 'v2', 60_000), 2);
    await s.create('marker', 'short', 300);
    await until('a 300 ms marker to expire', async () => (await s.get('marker')) === null);
    assert.deepEqual(await s.get('k'), { value: 'v2', version: 2 }, 'the replaced entry lives on its new ttl');
  });

  test('increment counts within a window and says when it resets; a new window starts at 1', async (t) => {
    const s = await fresh(t, makeStore);
    const a = await s.increment('rl', 60_000);
    const b = await s.increment('rl', 60_000);
    assert.equal(a.count, 1);
    assert.equal(b.count, 2);
    assert.ok(b.resetMs > 0 && b.resetMs <= 60_000, String(b.resetMs));
    assert.equal((await s.increment('other', 60_000)).count, 1, 'counters are separate');
    await s.increment('brief', 300);
    assert.equal((await s.increment('brief', 300)).count, 2);
    await until('the 300 ms window to reset', async () => (await s.increment('brief', 300)).count === 1);
  });

  registerIndexTests(makeStore);
}

/** The sorted indexes: order, bounds, limits, moves, removal, trim, exact scores. */
function registerIndexTests(makeStore: StoreMaker): void {
  test('a sorted index orders by score then member, bounded by min/max, limited, in both directions', async (t) => {
    const s = await fresh(t, makeStore);
    for (const [m, score] of [['c', 30], ['a', 10], ['b', 20], ['b2', 20], ['d', 40]] as const) await s.indexSet('ix', m, score);
    const members = (r: Array<{ member: string }>) => r.map((e) => e.member);
    assert.deepEqual(members(await s.indexRange('ix', { limit: 10 })), ['a', 'b', 'b2', 'c', 'd']);
    assert.deepEqual(await s.indexRange('ix', { min: 20, max: 30, limit: 10 }), [
      { member: 'b', score: 20 },
      { member: 'b2', score: 20 },
      { member: 'c', score: 30 },
    ]);
    assert.deepEqual(members(await s.indexRange('ix', { max: 20, limit: 2 })), ['a', 'b']);
    assert.deepEqual(members(await s.indexRange('ix', { reverse: true, limit: 3 })), ['d', 'c', 'b2']);
    assert.deepEqual(members(await s.indexRange('ix', { reverse: true, max: 20, limit: 10 })), ['b2', 'b', 'a']);
    assert.deepEqual(members(await s.indexRange('ix', { min: 25, limit: 10 })), ['c', 'd']);
    assert.deepEqual(await s.indexRange('empty', { limit: 5 }), []);
    assert.deepEqual(members(await s.indexRange('ix', { limit: 10 })), ['a', 'b', 'b2', 'c', 'd'], 'reads change nothing');
  });

  test('members of equal score order by their characters, upper case before lower (no locale)', async (t) => {
    const s = await fresh(t, makeStore);
    for (const m of ['b', 'B', 'a', 'A', '_', '1']) await s.indexSet('ties', m, 7);
    assert.deepEqual((await s.indexRange('ties', { limit: 10 })).map((e) => e.member), ['1', 'A', 'B', '_', 'a', 'b']);
  });

  test('indexSet moves a member, indexRemove drops it, indexTrim keeps the highest scores', async (t) => {
    const s = await fresh(t, makeStore);
    await s.indexSet('ix', 'x', 5);
    await s.indexSet('ix', 'y', 1);
    await s.indexSet('ix', 'x', 0.5);
    assert.deepEqual(await s.indexRange('ix', { limit: 10 }), [
      { member: 'x', score: 0.5 },
      { member: 'y', score: 1 },
    ]);
    await s.indexRemove('ix', 'x');
    await s.indexRemove('ix', 'never');
    assert.deepEqual(await s.indexRange('ix', { limit: 10 }), [{ member: 'y', score: 1 }]);
    for (let i = 0; i < 10; i++) await s.indexSet('ix', `m${i}`, 100 + i);
    assert.equal(await s.indexTrim('ix', 3), 8);
    assert.deepEqual(
      (await s.indexRange('ix', { limit: 10 })).map((e) => e.member),
      ['m7', 'm8', 'm9'],
    );
    assert.equal(await s.indexTrim('ix', 3), 0);
    assert.equal(await s.indexTrim('nothing-here', 3), 0);
    await assert.rejects(async () => s.indexSet('ix', 'bad', Number.NaN), TypeError);
    await assert.rejects(async () => s.indexRange('ix', { limit: 0 }), TypeError);
  });

  test('index scores keep millisecond timestamps and negative and fractional values exactly', async (t) => {
    const s = await fresh(t, makeStore);
    const at = Date.parse('2026-11-23T12:00:00.000Z');
    await s.indexSet('times', 'later', at + 1);
    await s.indexSet('times', 'sooner', at);
    await s.indexSet('times', 'negative', -2.5);
    assert.deepEqual(await s.indexRange('times', { max: at, limit: 10 }), [
      { member: 'negative', score: -2.5 },
      { member: 'sooner', score: at },
    ]);
    assert.deepEqual(await s.indexRange('times', { min: at + 1, limit: 10 }), [{ member: 'later', score: at + 1 }]);
  });

  test('close can be called twice', async (t) => {
    const s = await fresh(t, makeStore);
    await s.get('k');
    await s.close();
    await s.close();
  });
}
