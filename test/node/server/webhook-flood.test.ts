/**
 * A flood of forged webhooks from one address: the real handler behind the Node adapter (the client
 * address is the socket's), the sandbox delivering its signed webhooks over HTTP from that same
 * loopback address. Forged deliveries are answered 429 beyond the per-address limit, land in their
 * own bounded log, and never push a verified delivery out of the webhook log or inspect().
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProviderClient } from '../../../src/provider/index.js';
import { createSandbox } from '../../../src/sandbox/index.js';
import { createCheckoutHandler, toNodeListener } from '../../../src/server/index.js';
import type { CheckoutHandler, CheckoutHandlerOptions } from '../../../src/server/index.js';
import { BASE, createRequest, makeHarness } from './fake-provider.js';
import { MemoryStore } from '../../../src/server/store.js';

const KEY = 'merchant_flood_key_0123456789abcdef';
const SECRET = 'flood-session-secret-0123456789abcdef';
const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of closers.reverse()) await c();
});

async function world(handlerOptions: Partial<CheckoutHandlerOptions> = {}) {
  let handler!: CheckoutHandler;
  const server = createServer(toNodeListener((req) => handler(req)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/paydesk`;
  const sandbox = createSandbox({ apiKey: KEY, seed: false, sweepIntervalMs: 0, webhookUrl: `${endpoint}/webhooks`, webhookRetryDelaysMs: [] });
  const client = createProviderClient({ baseUrl: 'http://sandbox.test', apiKey: KEY, fetch: (i, init) => sandbox.fetch(new Request(i, init)), maxRetries: 0 });
  const warnings: string[] = [];
  handler = createCheckoutHandler({
    provider: { client, apiKey: KEY },
    sessionSecrets: [SECRET],
    webhookSecrets: [sandbox.webhookSecret(KEY)],
    resolveOrder: () => ({ amount: '1500.00' }),
    logger: { info: () => undefined, warn: (m) => void warnings.push(m), error: () => undefined },
    ...handlerOptions,
  });
  closers.push(async () => {
    await handler.close();
    await sandbox.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  /** A session and its order, then completed at the sandbox: its signed webhook goes out over HTTP. */
  const paidOrder = async () => {
    const body = { order_ref: 'tee', method_type: 'SBP' };
    const r = createRequest(body, { origin: new URL(endpoint).origin });
    const res = await handler(new Request(`${endpoint}/sessions`, { method: 'POST', headers: r.headers, body: JSON.stringify(body) }));
    assert.equal(res.status, 201);
    const { order } = (await res.json()) as { order: { id: string } };
    const done = await sandbox.fetch(new Request(`http://sandbox.test/sandbox/orders/${order.id}/complete`, { method: 'POST', headers: { 'X-API-Key': KEY } }));
    assert.equal(done.status, 200);
    await sandbox.webhooks.idle();
    const delivery = sandbox.webhooks.log().at(-1)!;
    assert.deepEqual([delivery.status, delivery.attempts.at(-1)?.status_code], ['delivered', 200]);
    return order.id;
  };
  /**
   * `count` unsigned webhooks for `orderId`, ten at a time, from 127.0.0.1 over HTTP, or (`inProcess`)
   * straight into the handler from 127.0.0.1 as the getClientAddress option reads it (the sandbox's
   * deliveries come over HTTP from that same address); their statuses.
   */
  const flood = async (count: number, orderId: string, inProcess = false) => {
    const payload = JSON.stringify({ request_id: 'x', webhook_type: 'buy_update', datetime: 'x', payload: { id: orderId, client_order_id: 'forged', status: 'Completed' } });
    const statuses: number[] = [];
    for (let i = 0; i < count; i += 10) {
      const batch = Array.from({ length: Math.min(10, count - i) }, () =>
        (inProcess
          ? handler(new Request(`${endpoint}/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-test-ip': '127.0.0.1' }, body: payload }))
          : fetch(`${endpoint}/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload })
        ).then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        }),
      );
      statuses.push(...(await Promise.all(batch)));
    }
    return statuses;
  };
  return { handler, paidOrder, flood, warnings };
}

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

test('forged webhooks from one address: 429 beyond the default limit (30 a minute); a verified delivery from that address still goes through', async () => {
  const w = await world();
  const statuses = await w.flood(40, 'ord-forged');
  assert.deepEqual(tally(statuses), { 401: 30, 429: 10 });
  const orderId = await w.paidOrder();
  const log = await w.handler.inspect.webhooks({ verified: true });
  assert.deepEqual(
    log.map((e) => [e.order_id, e.outcome, e.http_status]),
    [[orderId, 'confirmed', 200]],
  );
  assert.equal((await w.handler.inspect.webhooks({ verified: false })).length, 30, 'the 429s are not logged');
});

test('a flood larger than the webhook log never pushes verified deliveries out of it or out of inspect(); the forged ones have their own bounded log', async () => {
  const w = await world({
    rateLimits: { unverifiedWebhooksPerAddress: { limit: 1050, windowSeconds: 60 } },
    getClientAddress: (req) => req.headers.get('x-test-ip') ?? undefined,
  });
  const before = await w.paidOrder();
  const statuses = await w.flood(1100, before, true);
  assert.deepEqual(tally(statuses), { 401: 1050, 429: 50 });
  const afterFlood = await w.paidOrder();

  const verified = await w.handler.inspect.webhooks({ verified: true });
  assert.deepEqual(
    verified.map((e) => [e.order_id, e.verified, e.http_status]),
    [
      [afterFlood, true, 200],
      [before, true, 200],
    ],
  );
  // The default listing (100 lines) and the order's page both still show them.
  const all = await w.handler.inspect.webhooks();
  for (const id of [before, afterFlood]) assert.ok(all.some((e) => e.order_id === id && e.verified), `${id} in inspect.webhooks()`);
  const page = await w.handler.inspect.session(before);
  assert.ok(page?.webhooks.some((e) => e.verified && e.outcome === 'confirmed'), 'the order page keeps its verified delivery');

  const forged = await w.handler.inspect.webhooks({ verified: false, limit: 1000 });
  assert.equal(forged.length, 200, 'the unverified log keeps its newest 200 lines');
  assert.ok(forged.every((e) => !e.verified && e.outcome === 'refused' && e.http_status === 401));
});

test('a store that cannot count a forged webhook leaves its answer 401 (never a 500)', async () => {
  class NoCounter extends MemoryStore {
    override async increment(): Promise<{ count: number; resetMs: number }> {
      throw new Error('store down');
    }
  }
  const h = makeHarness({ store: new NoCounter(), getClientAddress: () => '10.9.9.9' });
  const res = await h.handler(new Request(`${BASE}/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }));
  assert.equal(res.status, 401);
  // The store's failure is said once, naming the store (src/server/store-guard.ts); the refusal's own line is then debug.
  assert.ok(h.logs.some((l) => l.level === 'error' && /store \(NoCounter\) is failing \(increment: Error: store down\)/.test(l.message)));
  assert.ok(h.logs.some((l) => l.level === 'debug' && /could not count a refused webhook/.test(l.message)));
  await h.handler.close();
});
