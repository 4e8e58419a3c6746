/**
 * The store contract against a real Redis: PAYDESK_TEST_REDIS_URL (CI starts one), else a
 * redis-server this file starts on a free loopback port, else a notice and no Redis tests.
 */
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createRedisStore } from '../../../src/server/index.js';
import type { CheckoutStore } from '../../../src/server/index.js';
import { storeContract } from './store-contract.js';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

async function startRedis(): Promise<{ url: string; child: ChildProcess | null } | null> {
  const given = process.env.PAYDESK_TEST_REDIS_URL;
  if (given) return { url: given, child: null };
  if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status !== 0) return null;
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Ready when the server says so on stdout (no polling, no sleeps).
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/Ready to accept connections/i.test(out)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
    child.once('error', reject);
  });
  return { url: `redis://127.0.0.1:${port}`, child };
}

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
    if (redis.child) {
      const exited = new Promise((resolve) => redis.child!.once('exit', resolve));
      redis.child.kill('SIGTERM');
      await exited;
    }
  });

  storeContract('redis', {
    make: async (): Promise<CheckoutStore> => createRedisStore({ client: connect(), prefix: `paydesk-test-${run}:` }),
    unique: () => `t${++n}:`,
  });

  describe('redis store specifics', () => {
    test('keys carry their ttl in Redis (expiry is Redis\'s own)', async () => {
      const client = connect();
      const store = createRedisStore({ client, prefix: `paydesk-test-${run}:` });
      await store.create('ttl-key', 'v', 5000);
      const pttl = await client.pttl(`paydesk-test-${run}:ttl-key`);
      assert.ok(pttl > 0 && pttl <= 5000, String(pttl));
      await store.increment('ttl-counter', 7000);
      const cttl = await client.pttl(`paydesk-test-${run}:ttl-counter`);
      assert.ok(cttl > 0 && cttl <= 7000, String(cttl));
      await store.close();
    });

    test('the prefix keeps two deployments on one Redis apart', async () => {
      const one = createRedisStore({ client: connect(), prefix: `paydesk-test-${run}-one:` });
      const two = createRedisStore({ client: connect(), prefix: `paydesk-test-${run}-two:` });
      await one.create('same', 'from one', 5000);
      assert.equal(await two.get('same'), null);
      await one.close();
      await two.close();
    });

    test('the store works after Redis forgets its scripts (SCRIPT FLUSH)', async () => {
      const client = connect();
      const store = createRedisStore({ client, prefix: `paydesk-test-${run}:` });
      await store.create('flush-a', 'v', 5000);
      await client.script('FLUSH');
      assert.equal(await store.create('flush-b', 'v', 5000), true);
      await store.close();
    });
  });
}
