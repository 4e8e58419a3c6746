/**
 * A store that fails, fails fast and loud (issue 30): a real redis-server of this test's own is paused
 * (SIGSTOP: connections stay open, nothing answers — the hardest case for a timeout) for about 20 s.
 * Every shopper request and webhook meanwhile is answered `503 store_unavailable` with `Retry-After`
 * within `storeTimeoutMs`; one error line names the store, one line says when it is back; each failed
 * call counts `paydesk.store.errors`. Resumed, with no restart of the handler: the webhook delivered
 * again pays the order (onOrderPaid once), the create retried with its key makes one order.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { metrics } from '@opentelemetry/api';
import { AggregationTemporality, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import type { DataPoint } from '@opentelemetry/sdk-metrics';
import { Redis } from 'ioredis';
import { createRedisStore } from '../../../src/server/index.js';
import { createRequest, createSession, getSession, makeHarness, webhookRequest } from './fake-provider.js';
import { hasRedisServer, spawnRedis } from './redis-server.js';

class DeltaReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.DELTA });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}
const reader = new DeltaReader();
const meterProvider = new MeterProvider({ readers: [reader] });
before(() => metrics.setGlobalMeterProvider(meterProvider));
after(() => meterProvider.shutdown());

async function storeErrors(): Promise<number> {
  const { resourceMetrics } = await reader.collect();
  let sum = 0;
  for (const scope of resourceMetrics.scopeMetrics) {
    for (const m of scope.metrics) {
      if (m.descriptor.name !== 'paydesk.store.errors') continue;
      for (const p of m.dataPoints as DataPoint<number>[]) {
        assert.equal(p.attributes.store, 'Redis store');
        sum += p.value;
      }
    }
  }
  return sum;
}

const TIMEOUT_MS = 3000; // the default storeTimeoutMs
const PAUSE_MS = 20_000;
/** How much later than the bound an answer may come (a loaded 2-core machine). */
const SLACK_MS = 1500;

async function timed(run: () => Promise<Response>): Promise<{ res: Response; ms: number; body: { error?: { code: string; retryable: boolean } } }> {
  const t0 = Date.now();
  const res = await run();
  const ms = Date.now() - t0;
  return { res, ms, body: (await res.json()) as { error?: { code: string; retryable: boolean } } };
}

describe('a store that stops answering', { skip: !hasRedisServer() && 'no redis-server on PATH' }, () => {
  test('Redis paused for 20 s: 503 store_unavailable within storeTimeoutMs, one log line each way, nothing lost after', { timeout: 90_000 }, async () => {
    const redis = await spawnRedis(['--save', '', '--appendonly', 'no']);
    const client = new Redis(redis.url); // as a merchant makes it: ioredis's defaults (offline queue, 20 retries)
    const h = makeHarness({ store: createRedisStore({ client, allowVolatile: true }) });
    after(async () => {
      await h.handler.close();
      client.disconnect();
      await redis.stop();
    });

    const before = await createSession(h);
    const order = h.provider.orders.find((o) => o.id === before.order.id)!;
    assert.equal(h.logs.filter((l) => l.level === 'error').length, 0);
    await storeErrors();

    redis.child.kill('SIGSTOP');
    const pausedAt = Date.now();
    h.provider.setStatus(order.id, 'Completed'); // the shopper pays while the store is down
    let rounds = 0;
    while (Date.now() - pausedAt < PAUSE_MS - TIMEOUT_MS) {
      rounds++;
      const answers = await Promise.all([
        timed(() => getSession(h, before.session)),
        timed(() => h.handler(createRequest({ order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'outage-create-1' }))),
        timed(() => h.handler(webhookRequest(order))),
      ]);
      for (const [i, a] of answers.entries()) {
        const what = ['GET /sessions/S', 'POST /sessions', 'POST /webhooks'][i];
        assert.equal(a.res.status, 503, `${what}: ${JSON.stringify(a.body)}`);
        assert.equal(a.body.error?.code, 'store_unavailable', what);
        assert.equal(a.body.error?.retryable, true, what);
        assert.match(a.res.headers.get('retry-after') ?? '', /^\d+$/, what);
        assert.ok(a.ms <= TIMEOUT_MS + SLACK_MS, `${what} answered in ${a.ms} ms, bound ${TIMEOUT_MS} ms`);
      }
    }
    assert.ok(rounds >= 5, `${rounds} rounds of requests during the pause`);
    const errors = h.logs.filter((l) => l.level === 'error');
    assert.equal(errors.length, 1, `one error line for the whole outage, got ${JSON.stringify(errors)}`);
    assert.match(errors[0]!.message, /Redis store is failing .*no answer in 3000 ms/);
    assert.ok((await storeErrors()) >= rounds * 3, 'each failed call is counted');

    await new Promise((r) => setTimeout(r, Math.max(0, PAUSE_MS - (Date.now() - pausedAt))));
    redis.child.kill('SIGCONT');

    // The provider delivers the webhook again: it is recorded, and the order is paid once.
    const again = await h.handler(webhookRequest(order));
    assert.ok(again.status === 200 || again.status === 202, `webhook after the outage: ${again.status}`);
    await h.handler.idle();
    assert.equal(h.paid.length, 1, 'onOrderPaid once');
    const view = (await (await getSession(h, before.session)).json()) as { order: { status: string } };
    assert.equal(view.order.status, 'paid');
    // The shopper's create, retried with its key, makes one order.
    const creates = h.provider.count('createOrder');
    const retried = await h.handler(createRequest({ order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'outage-create-1' }));
    assert.equal(retried.status, 201, await retried.clone().text());
    assert.equal(h.provider.count('createOrder'), creates + 1, 'the create never reached the provider during the outage');
    const replay = await h.handler(createRequest({ order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'outage-create-1' }));
    assert.equal(((await replay.json()) as { order: { id: string } }).order.id, ((await retried.json()) as { order: { id: string } }).order.id);
    assert.equal(h.provider.count('createOrder'), creates + 1);

    const back = h.logs.filter((l) => l.level === 'warn' && /Redis store answers again after \d+\.\d s/.test(l.message));
    assert.equal(back.length, 1, JSON.stringify(h.logs.filter((l) => l.level !== 'debug')));
    assert.equal(h.logs.filter((l) => l.level === 'error').length, 1, 'no more error lines after it is back');
  });
});
