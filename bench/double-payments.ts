/**
 * `handler.doublePayments()` before and after the index of payments per purchase (issue 31's
 * leftover): the store calls and the time of one call on Redis (a real one on loopback: each call is
 * a round trip) with a purchase paid twice among N sessions. "scan" is the code the index replaced
 * (the newest 5000 sessions, one `get` each), run over the same store; "index" the handler's own
 * call, after its first (the backfill, measured apart). Run: `npx tsx bench/double-payments.ts`
 * (PAYDESK_TEST_REDIS_URL, else a redis-server on PATH is started).
 */
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { createRedisStore, type CheckoutStore } from '../src/server/index.js';
import { SessionRepository, SESSIONS_INDEX } from '../src/server/sessions.js';
import { createSession, makeHarness, webhookRequest, type Harness } from '../test/node/server/fake-provider.js';
import { startRedis } from '../test/node/server/redis-server.js';

function counted(inner: CheckoutStore): { store: CheckoutStore; count: () => number; reset: () => void } {
  let n = 0;
  const store = new Proxy(inner, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        n++;
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store, count: () => n, reset: () => void (n = 0) };
}

/** The scan the index replaced (src/server/checkout/purchases.ts before it): its store reads only. */
async function scan(store: CheckoutStore): Promise<number> {
  const repo = new SessionRepository(store, Date.now);
  const entries = await store.indexRange(SESSIONS_INDEX, { limit: 5000, reverse: true });
  const paid = new Map<string, number>();
  for (const { member } of entries) {
    const rec = await repo.get(member);
    if (!rec || rec.view.status !== 'paid') continue;
    const p = rec.purchase ?? rec.order_ref;
    paid.set(p, (paid.get(p) ?? 0) + 1);
  }
  return [...paid.values()].filter((n) => n >= 2).length;
}

async function pay(h: Harness, cart: string): Promise<void> {
  const created = await createSession(h, { order_ref: cart, method_type: 'SBP' });
  h.clock.now += 1000;
  await h.handler(webhookRequest(h.provider.setStatus(created.order.id, 'Completed')));
  await h.handler.idle();
}

async function timed(runs: number, body: () => Promise<unknown>): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await body();
    ms.push(performance.now() - t);
  }
  return ms.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

const redis = await startRedis();
if (!redis) {
  console.log('no Redis: set PAYDESK_TEST_REDIS_URL or put redis-server on PATH');
  process.exit(1);
}
const clients: Redis[] = [];
try {
  console.log('sessions | scan: calls, ms | index: calls, ms | first call (backfill): calls, ms');
  for (const n of [1000, 6000]) {
    const client = new Redis(redis.url);
    clients.push(client);
    const c = counted(createRedisStore({ client, prefix: `paydesk-bench-dp-${randomUUID().slice(0, 8)}:`, allowVolatile: true }));
    const h = makeHarness({ store: c.store, resolveOrder: () => ({ amount: '1500.00' }), logger: { warn: () => undefined, error: () => undefined } });
    await pay(h, 'cart-twice');
    await pay(h, 'cart-twice');
    for (let i = 0; i < n - 2; i++) await createSession(h, { order_ref: `cart-${i}`, method_type: 'SBP' });
    c.reset();
    const tFirst = performance.now();
    const listed = (await h.handler.doublePayments()).length;
    const first = { calls: c.count(), ms: performance.now() - tFirst };
    c.reset();
    const found = await scan(c.store);
    const scanCalls = c.count();
    const scanMs = await timed(5, () => scan(c.store));
    c.reset();
    await h.handler.doublePayments();
    const indexCalls = c.count();
    const indexMs = await timed(5, () => h.handler.doublePayments());
    console.log(
      `${n} | ${scanCalls}, ${scanMs.toFixed(1)} ms (found ${found}) | ${indexCalls}, ${indexMs.toFixed(1)} ms (listed ${listed}) | ${first.calls}, ${first.ms.toFixed(0)} ms`,
    );
    await h.handler.close();
  }
} finally {
  for (const c of clients) await c.quit().catch(() => c.disconnect());
  await redis.stop();
}
