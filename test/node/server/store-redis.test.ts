/**
 * The store contract against a real Redis: PAYDESK_TEST_REDIS_URL (CI starts one), else a
 * redis-server this file starts on a free loopback port, else a notice and no Redis tests.
 */
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { startRedis } from './redis-server.js';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createRedisStore } from '../../../src/server/index.js';
import type { CheckoutStore } from '../../../src/server/index.js';
import { storeContract } from './store-contract.js';

const redis = await startRedis();

if (!redis) {
  console.log('NOTICE: no redis-server on PATH and PAYDESK_TEST_REDIS_URL is unset: the Redis store tests are not registered.');
} else {
  const clients: Redis[] = [];
  const run = randomUUID().slice(0, 8);
  let n = 0;
  const connect = () => {
    const c = new Redis(redis.url, { lazyConnect: false, maxRetriesPerRequest: 2 });
    clients.push(c);
    return c;
  };

  after(async () => {
    for (const c of clients) await c.quit().catch(() => c.disconnect());
    await redis.stop();
  });

  storeContract('redis', {
    make: async (): Promise<CheckoutStore> => createRedisStore({ client: connect(), prefix: `paydesk-test-${run}:`, allowVolatile: true }),
    unique: () => `t${++n}:`,
  });

  describe('redis store specifics', () => {
    test('keys carry their ttl in Redis (expiry is Redis\'s own)', async () => {
      const client = connect();
      const store = createRedisStore({ client, prefix: `paydesk-test-${run}:`, allowVolatile: true });
      await store.create('ttl-key', 'v', 5000);
      const pttl = await client.pttl(`paydesk-test-${run}:ttl-key`);
      assert.ok(pttl > 0 && pttl <= 5000, String(pttl));
      await store.increment('ttl-counter', 7000);
      const cttl = await client.pttl(`paydesk-test-${run}:ttl-counter`);
      assert.ok(cttl > 0 && cttl <= 7000, String(cttl));
      await store.close();
    });

    test('the prefix keeps two deployments on one Redis apart', async () => {
      const one = createRedisStore({ client: connect(), prefix: `paydesk-test-${run}-one:`, allowVolatile: true });
      const two = createRedisStore({ client: connect(), prefix: `paydesk-test-${run}-two:`, allowVolatile: true });
      await one.create('same', 'from one', 5000);
      assert.equal(await two.get('same'), null);
      await one.close();
      await two.close();
    });

    test('the store works after Redis forgets its scripts (SCRIPT FLUSH)', async () => {
      const client = connect();
      const store = createRedisStore({ client, prefix: `paydesk-test-${run}:`, allowVolatile: true });
      await store.create('flush-a', 'v', 5000);
      await client.script('FLUSH');
      assert.equal(await store.create('flush-b', 'v', 5000), true);
      await store.close();
    });
  });
}
