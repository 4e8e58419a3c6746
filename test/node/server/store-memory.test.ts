import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore } from '../../../src/server/index.js';
import { describeStoreContract } from '../../../src/server/testing/index.js';
import { handlerContract } from './store-contract.js';

// The packaged suite, as a merchant runs it: a fresh store per test (one process: the other instance is itself).
describeStoreContract('memory store contract', () => new MemoryStore());

let n = 0;
const shared = new MemoryStore();
handlerContract('memory', { make: async () => shared, unique: () => `t${++n}:` });

describe('memory store expiry', () => {
  test('entries and counters expire with their ttl (fake clock)', async () => {
    let now = 1_000_000;
    const s = new MemoryStore({ now: () => now });
    await s.create('k', 'v', 1000);
    await s.increment('c', 1000);
    now += 999;
    assert.notEqual(await s.get('k'), null);
    assert.equal((await s.increment('c', 1000)).count, 2);
    now += 1;
    assert.equal(await s.get('k'), null);
    assert.equal(await s.create('k', 'again', 1000), true);
    assert.equal((await s.increment('c', 1000)).count, 1);
  });

  test('a live entry is never evicted, however many there are; expired ones are swept without sorting', async () => {
    let now = 1_000_000;
    const s = new MemoryStore({ now: () => now });
    for (let i = 0; i < 5000; i++) await s.set(`short${i}`, 'v', 1000);
    await s.set('session', 'alive', 3_600_000);
    now += 2000;
    for (let i = 0; i < 1000; i++) await s.set(`next${i}`, 'v', 60_000);
    assert.equal(s.size, 1001, 'the expired entries went, the live ones stayed');
    assert.equal((await s.get('session'))?.value, 'alive');
  });

  test('an unsubscribed channel leaves nothing behind', async () => {
    const s = new MemoryStore();
    const u = await s.subscribe('x', () => undefined);
    assert.equal(s.channelCount, 1);
    await u();
    assert.equal(s.channelCount, 0);
  });
});
