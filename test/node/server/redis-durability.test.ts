/**
 * No silent loss on Redis (issue 30): createRedisStore refuses, on first use, a Redis that would lose
 * sessions — `appendonly no`, an evicting `maxmemory-policy`, or one whose settings it cannot read —
 * with an error naming the setting and what to set, unless `allowVolatile: true`. Each case is a
 * redis-server of this test's own on a free port, started with those settings.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createRedisStore, VolatileRedisError } from '../../../src/server/index.js';
import { createRequest, createSession, makeHarness } from './fake-provider.js';
import { hasRedisServer, spawnRedis } from './redis-server.js';

const dir = mkdtempSync(join(tmpdir(), 'paydesk-redis-durability-'));
const cleanups: Array<() => Promise<unknown> | unknown> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
async function redisWith(args: string[], options: { enableReadyCheck?: boolean } = {}): Promise<Redis> {
  const sub = join(dir, String(++n));
  mkdirSync(sub);
  const server = await spawnRedis(['--dir', sub, '--save', '', ...args]);
  const client = new Redis(server.url, { maxRetriesPerRequest: 1, ...options });
  cleanups.push(() => server.stop());
  cleanups.push(() => client.quit().catch(() => client.disconnect()));
  return client;
}

describe('createRedisStore refuses a Redis that would lose sessions', { skip: !hasRedisServer() && 'no redis-server on PATH' }, () => {
  test('appendonly no: refused on first use, naming the setting and what to set; allowVolatile accepts it', async () => {
    const client = await redisWith(['--appendonly', 'no']);
    const store = createRedisStore({ client });
    await assert.rejects(store.get('k'), (err: Error) => {
      assert.ok(err instanceof VolatileRedisError);
      assert.match(err.message, /appendonly is no/);
      assert.match(err.message, /Set appendonly yes/);
      assert.match(err.message, /allowVolatile: true/);
      return true;
    });
    await assert.rejects(store.create('k', 'v', 1000), VolatileRedisError, 'every command is refused, not only the first');
    assert.equal(await client.exists('paydesk:k'), 0, 'nothing was written');
    const volatile = createRedisStore({ client, allowVolatile: true });
    assert.equal(await volatile.create('k', 'v', 1000), true);
    await store.close();
    await volatile.close();
  });

  test('an evicting maxmemory-policy is refused, naming it', async () => {
    const client = await redisWith(['--appendonly', 'yes', '--maxmemory', '64mb', '--maxmemory-policy', 'allkeys-lru']);
    const store = createRedisStore({ client });
    await assert.rejects(store.indexRange('ix', { limit: 1 }), /maxmemory-policy is allkeys-lru.*Set maxmemory-policy noeviction/s);
    await assert.rejects(store.subscribe('ch', () => undefined), /maxmemory-policy/);
    await store.close();
  });

  test('appendonly yes and noeviction: accepted', async () => {
    const client = await redisWith(['--appendonly', 'yes', '--maxmemory-policy', 'noeviction']);
    const store = createRedisStore({ client });
    assert.equal(await store.create('k', 'v', 1000), true);
    assert.equal((await store.get('k'))?.value, 'v');
    await store.close();
  });

  test('INFO disabled (as some managed Redis do): refused, saying the settings cannot be read; allowVolatile accepts it', async () => {
    // ioredis's own ready check runs INFO too: a merchant on such a Redis turns it off.
    const client = await redisWith(['--appendonly', 'yes', '--rename-command', 'INFO', ''], { enableReadyCheck: false });
    const store = createRedisStore({ client });
    await assert.rejects(store.get('k'), /cannot tell whether this Redis keeps its data \(INFO refused: .*unknown command.*appendonly yes and maxmemory-policy noeviction.*allowVolatile: true/s);
    const accepted = createRedisStore({ client, allowVolatile: true });
    assert.equal(await accepted.create('k', 'v', 1000), true);
    await store.close();
    await accepted.close();
  });

  test('through the handler: a volatile Redis answers 503 store_unavailable and the log names the setting once', async () => {
    const client = await redisWith(['--appendonly', 'no']);
    const h = makeHarness({ store: createRedisStore({ client }) });
    cleanups.push(() => h.handler.close());
    for (let i = 0; i < 3; i++) {
      const res = await h.handler(createRequest({ order_ref: 'tee', method_type: 'SBP' }));
      assert.equal(res.status, 503);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'store_unavailable');
    }
    const errors = h.logs.filter((l) => l.level === 'error');
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.match(errors[0]!.message, /Redis store is failing .*appendonly is no.*Set appendonly yes/);
    const volatile = makeHarness({ store: createRedisStore({ client, allowVolatile: true }) });
    cleanups.push(() => volatile.handler.close());
    await createSession(volatile);
  });
});
