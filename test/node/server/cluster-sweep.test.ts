/**
 * One sweep per interval for the whole cluster (issue 30): three instances on one Redis make the
 * provider calls of one. Measured side by side on two in-process sandboxes over the same 20 s: one
 * instance on its own store, three instances sharing another; each sandbox holds the same number of
 * pending orders for the sweeps to re-read. Before the store recorded the last sweep, three instances
 * made about twice the calls of one (each timer swept whenever no other sweep was running).
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createProviderClient } from '../../../src/provider/index.js';
import { createSandbox } from '../../../src/sandbox/index.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { createCheckoutHandler, createRedisStore } from '../../../src/server/index.js';
import type { CheckoutHandler, CheckoutStore } from '../../../src/server/index.js';
import { startRedis } from './redis-server.js';

const KEY = 'cluster_sweep_key_0123456789abcdef';
const PROVIDER = 'http://sandbox.test';
const ENDPOINT = 'http://merchant.test/api/paydesk';
const WINDOW_MS = 20_000;
const PENDING = 5;

const redis = await startRedis();
const cleanups: Array<() => Promise<unknown> | unknown> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
  await redis?.stop();
});

interface Cluster {
  sandbox: Sandbox;
  instances: CheckoutHandler[];
  /** Provider calls of all instances since the count was last reset. */
  calls: { total: number; sweeps: number };
}

function cluster(size: number): Cluster {
  const c: Cluster = { sandbox: createSandbox({ apiKey: KEY, seed: false, sweepIntervalMs: 0 }), instances: [], calls: { total: 0, sweeps: 0 } };
  cleanups.push(() => c.sandbox.close());
  const prefix = `paydesk-sweep-${randomUUID().slice(0, 8)}:`;
  for (let i = 0; i < size; i++) {
    const client = new Redis(redis!.url);
    cleanups.push(() => client.quit().catch(() => client.disconnect()));
    const store: CheckoutStore = createRedisStore({ client, prefix, allowVolatile: true });
    const provider = createProviderClient({
      baseUrl: PROVIDER,
      apiKey: KEY,
      maxRetries: 0,
      fetch: async (input, init) => {
        const req = new Request(input, init);
        c.calls.total++;
        if (req.method === 'GET' && new URL(req.url).pathname === '/api/v1/order/') c.calls.sweeps++;
        return c.sandbox.fetch(req);
      },
    });
    const handler = createCheckoutHandler({
      provider: { client: provider, apiKey: KEY },
      sessionSecrets: ['cluster-sweep-session-secret-0123456789abcdef'],
      webhookSecrets: [c.sandbox.webhookSecret(KEY)],
      resolveOrder: () => ({ amount: '1500.00' }),
      rateLimits: false,
      store,
      reconcileIntervalSeconds: 1,
      logger: { warn: () => undefined, error: (m: string) => console.error(m) },
    });
    cleanups.push(() => handler.close());
    c.instances.push(handler);
  }
  return c;
}

async function pendingOrders(c: Cluster): Promise<void> {
  for (let i = 0; i < PENDING; i++) {
    const res = await c.instances[i % c.instances.length]!(
      new Request(`${ENDPOINT}/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
        body: JSON.stringify({ order_ref: `o${i}`, method_type: 'SBP' }),
      }),
    );
    assert.equal(res.status, 201, await res.text());
  }
}

describe('one sweep per interval for the whole cluster', { skip: !redis && 'no Redis (PAYDESK_TEST_REDIS_URL unset, no redis-server on PATH)' }, () => {
  test('three instances on one Redis make the sweep calls of one instance (within 10%), measured over the same 20 s', { timeout: 60_000 }, async () => {
    const one = cluster(1);
    const three = cluster(3);
    await Promise.all([pendingOrders(one), pendingOrders(three)]);
    one.calls.total = one.calls.sweeps = three.calls.total = three.calls.sweeps = 0;
    await new Promise((r) => setTimeout(r, WINDOW_MS));
    const perMinute = (n: number) => Math.round((n * 60_000) / WINDOW_MS);
    console.log(
      `provider calls per minute (sweep interval 1 s, ${PENDING} pending orders): one instance ${perMinute(one.calls.total)} (${one.calls.sweeps} sweeps' order lists), ` +
        `three instances ${perMinute(three.calls.total)} (${three.calls.sweeps}); ratio ${(three.calls.total / one.calls.total).toFixed(3)}`,
    );
    assert.ok(one.calls.sweeps >= 10, `one instance swept ${one.calls.sweeps} times in ${WINDOW_MS} ms`);
    const ratio = three.calls.total / one.calls.total;
    assert.ok(Math.abs(ratio - 1) <= 0.1, `three instances: ${three.calls.total} calls, one: ${one.calls.total} (ratio ${ratio.toFixed(3)})`);
  });
});
