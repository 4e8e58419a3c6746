/**
 * OpenTelemetry (DESIGN.md, "Observability"; issue 21): with an SDK registered the way an app does
 * (a tracer provider with an in-memory exporter, the async-hooks context manager, a meter provider
 * with a reader), a real purchase through the handler against the in-process sandbox reports its
 * spans (fixed names, the order's ids) and counters; flags count by reason; a failing hook is an
 * ERROR span. Without `@opentelemetry/api` installed (its import fails in a child process), the
 * server works the same.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { AggregationTemporality, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import type { DataPoint, Histogram } from '@opentelemetry/sdk-metrics';
import type { CheckoutHandlerOptions } from '../../../src/server/index.js';
import { sessionKey } from '../../../src/server/sessions.js';
import { setTelemetryLoader } from '../../../src/server/telemetry.js';
import { createRequest } from './fake-provider.js';
import { complete, created as buy, ENDPOINT, world as sandboxWorld, type World as SandboxWorld } from './world.js';

const KEY = 'merchant_otel_key_0123456789abcdef';
const SECRET = 'otel-test-session-secret-0123456789abcdef';

/** A reader whose every collect returns what was recorded since the last one. */
class DeltaReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.DELTA });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

const spans = new InMemorySpanExporter();
const reader = new DeltaReader();
const contextManager = new AsyncLocalStorageContextManager();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const meterProvider = new MeterProvider({ readers: [reader] });

before(() => {
  // What an app's SDK setup does (NodeSDK does the same three registrations).
  context.setGlobalContextManager(contextManager.enable());
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
});

interface World extends SandboxWorld {
  /** Rewrites the provider's answers to the handler (null: as they are). */
  rewrite: ((req: Request, body: string) => string) | null;
  /** The provider answers 502 to everything. */
  down: boolean;
}
after(async () => {
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
});

/** `OTEL_TEST_LOG=1` prints the handler's log. */
const print = (level: string) => (message: string, fields?: unknown) => process.env.OTEL_TEST_LOG && console.log(level, message, fields);

function world(options: Partial<CheckoutHandlerOptions> = {}): World {
  const w: World = Object.assign(
    sandboxWorld({
      key: KEY,
      secret: SECRET,
      record: ['paid', 'flagged'],
      toSandbox: async (req, forward) => {
        if (w.down) return new Response('upstream down', { status: 502, headers: { 'content-type': 'text/plain' } });
        const res = await forward(req.clone());
        if (!w.rewrite) return res;
        return new Response(w.rewrite(req, await res.text()), { status: res.status, headers: res.headers });
      },
      handler: {
        resolveOrder: (ref) => (ref === 'tee' ? { amount: '1500.00' } : null),
        logger: { info: print('info'), warn: print('warn'), error: print('error') },
        ...options,
      },
    }),
    { rewrite: null, down: false },
  );
  return w;
}

/** The data points of one metric recorded since the last call, with their attributes. */
async function collect(): Promise<Map<string, DataPoint<number | Histogram>[]>> {
  const { resourceMetrics } = await reader.collect();
  const out = new Map<string, DataPoint<number | Histogram>[]>();
  for (const scope of resourceMetrics.scopeMetrics) {
    for (const m of scope.metrics) out.set(m.descriptor.name, [...(out.get(m.descriptor.name) ?? []), ...(m.dataPoints as DataPoint<number | Histogram>[])]);
  }
  return out;
}
const sum = (points: DataPoint<number | Histogram>[] | undefined) => (points ?? []).reduce((n, p) => n + (p.value as number), 0);
const named = (name: string) => spans.getFinishedSpans().filter((s) => s.name === name);
const only = (name: string): ReadableSpan => {
  const found = named(name);
  assert.equal(found.length, 1, `one ${name} span (spans: ${spans.getFinishedSpans().map((s) => s.name).join(', ')})`);
  return found[0]!;
};

async function fresh(): Promise<void> {
  spans.reset();
  await collect();
}

describe('OpenTelemetry with an SDK registered', () => {
  test('a purchase: create, webhook, hook and sweep spans with the order ids; sessions.created 1, orders.paid 1 (late=false), the paid delay', async () => {
    await fresh();
    const w = world();
    const { order } = await buy(w);
    const create = only('paydesk.session.create');
    assert.equal(create.attributes['paydesk.order_id'], order.id);
    assert.equal(create.attributes['paydesk.client_order_id'], order.client_order_id);
    assert.equal(create.attributes['paydesk.mode'], 'h2h');
    assert.equal(create.status.code, 0, 'not an error');

    await complete(w, order.id);
    assert.equal(w.paid.length, 1);
    const webhook = named('paydesk.webhook.receive').find((s) => s.attributes['paydesk.order_id'] === order.id);
    assert.ok(webhook, 'a webhook span names the order');
    assert.equal(webhook.attributes['paydesk.client_order_id'], order.client_order_id);
    assert.equal(webhook.attributes['paydesk.webhook.outcome'], 'confirmed');
    assert.equal(webhook.attributes['http.response.status_code'], 200);
    const hook = only('paydesk.hook.order_paid');
    assert.equal(hook.attributes['paydesk.order_id'], order.id);
    assert.equal(hook.attributes['paydesk.client_order_id'], order.client_order_id);
    assert.equal(hook.attributes['paydesk.late'], false);
    // One trace per order: the hook runs under the order's create span, linked to the webhook that
    // brought the news; the webhook's span links to the order it changed.
    assert.equal(hook.spanContext().traceId, create.spanContext().traceId);
    assert.equal(hook.parentSpanContext?.spanId, create.spanContext().spanId);
    assert.deepEqual(hook.links.map((l) => l.context.spanId), [webhook.spanContext().spanId]);
    assert.ok(webhook.links.some((l) => l.context.spanId === create.spanContext().spanId && l.context.traceId === create.spanContext().traceId), 'the webhook span links to the order');

    await w.handler.reconcile();
    const sweep = only('paydesk.reconcile');
    assert.equal(typeof sweep.attributes['paydesk.reconcile.checked'], 'number');

    const m = await collect();
    assert.equal(sum(m.get('paydesk.sessions.created')), 1);
    const paid = m.get('paydesk.orders.paid') ?? [];
    assert.deepEqual(
      paid.map((p) => [p.attributes.late, p.value]),
      [[false, 1]],
    );
    assert.equal(sum(m.get('paydesk.orders.flagged')), 0);
    const delay = m.get('paydesk.orders.paid.delay') ?? [];
    assert.equal(delay.length, 1);
    assert.equal(delay[0]!.attributes.via, 'webhook');
    const h = delay[0]!.value as Histogram;
    assert.equal(h.count, 1);
    const seconds = h.sum ?? NaN;
    assert.ok(seconds >= 0 && seconds < 60, `a delay in seconds: ${seconds}`);
  });

  test('an amount the provider changed: orders.flagged (reason amount_mismatch), not paid', async () => {
    await fresh();
    const w = world();
    const { order } = await buy(w);
    // The provider's record of the order, read back after the webhook, says another amount.
    w.rewrite = (req, body) => (req.method === 'GET' && new URL(req.url).pathname.endsWith(`/${order.id}`) ? body.replaceAll('"1500.00"', '"1400.00"') : body);
    await complete(w, order.id);
    assert.equal(w.paid.length, 0);
    assert.deepEqual(
      w.flagged.map((f) => f.reason),
      ['amount_mismatch'],
    );
    const m = await collect();
    assert.deepEqual(
      (m.get('paydesk.orders.flagged') ?? []).map((p) => [p.attributes.reason, p.value]),
      [['amount_mismatch', 1]],
    );
    assert.equal(sum(m.get('paydesk.orders.paid')), 0);
  });

  test('a paid order whose session the store lost: orders.flagged (reason session_lost) once, over two sweeps', async () => {
    await fresh();
    // The merchant's own client order id: no order_ref to report it by, so it is flagged session_lost.
    const w = world({ resolveOrder: (ref) => (ref === 'tee' ? { amount: '1500.00', client_order_id: 'otel-lost-1' } : null) });
    const { order } = await buy(w);
    const [summary] = await w.handler.inspect.sessions();
    assert.equal(await w.handler.store.delete(sessionKey(summary!.session_id)), true);
    await complete(w, order.id);
    await w.handler.reconcile();
    await w.handler.reconcile();
    assert.deepEqual(
      w.flagged.map((f) => f.reason),
      ['session_lost'],
    );
    const m = await collect();
    assert.deepEqual(
      (m.get('paydesk.orders.flagged') ?? []).map((p) => [p.attributes.reason, p.value]),
      [['session_lost', 1]],
    );
    const orphan = named('paydesk.webhook.receive').find((s) => s.attributes['paydesk.order_id'] === order.id);
    assert.equal(orphan?.attributes['paydesk.webhook.outcome'], 'orphan');
  });

  test('a hook that throws: its span has status ERROR and the exception; a refused webhook is a span without the payload ids', async () => {
    await fresh();
    const w = world({
      onOrderPaid: () => {
        throw new Error('the shop database is down');
      },
    });
    const { order } = await buy(w);
    await complete(w, order.id);
    const hook = only('paydesk.hook.order_paid');
    assert.equal(hook.status.code, 2, 'SpanStatusCode.ERROR');
    assert.equal(hook.events[0]?.name, 'exception');
    assert.equal(hook.events[0]?.attributes?.['exception.message'], 'the shop database is down');

    spans.reset();
    const forged = await w.handler(
      new Request(`${ENDPOINT}/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ payload: { id: order.id, client_order_id: order.client_order_id, status: 'Completed' } }),
      }),
    );
    assert.equal(forged.status, 401);
    const refused = only('paydesk.webhook.receive');
    assert.equal(refused.attributes['paydesk.webhook.outcome'], 'refused');
    assert.equal(refused.attributes['paydesk.webhook.verified'], false);
    assert.equal(refused.attributes['paydesk.error_code'], 'unauthorized');
    assert.equal(refused.attributes['paydesk.order_id'], undefined, 'an unverified payload names nothing on a span');
    assert.equal(refused.status.code, 0, "a caller's refusal is not the server's error");
  });

  test('a create the provider fails: the span has status ERROR and the error code; nothing is counted', async () => {
    await fresh();
    const w = world();
    w.down = true;
    const body = { order_ref: 'tee', method_type: 'SBP' };
    const r = createRequest(body, { origin: 'http://merchant.test' });
    const res = await w.handler(new Request(`${ENDPOINT}/sessions`, { method: 'POST', headers: r.headers, body: JSON.stringify(body) }));
    assert.ok(res.status >= 500, String(res.status));
    const create = only('paydesk.session.create');
    assert.equal(create.status.code, 2, 'SpanStatusCode.ERROR');
    assert.equal(create.attributes['paydesk.error_code'], ((await res.json()) as { error: { code: string } }).error.code);
    assert.equal(create.events[0]?.name, 'exception');
    assert.equal(sum((await collect()).get('paydesk.sessions.created')), 0);
  });

  test('the first request is traced even while @opentelemetry/api is still loading', async () => {
    await fresh();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    setTelemetryLoader(async () => {
      await gate;
      return import('@opentelemetry/api');
    });
    try {
      const w = world();
      const pending = buy(w);
      release();
      const { order } = await pending;
      assert.equal(only('paydesk.session.create').attributes['paydesk.order_id'], order.id);
      assert.equal(sum((await collect()).get('paydesk.sessions.created')), 1);
    } finally {
      setTelemetryLoader(null);
    }
  });
});

describe('without @opentelemetry/api installed', () => {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  // Module hooks that make every import of the package fail, as when it is not installed.
  const block = `data:text/javascript,${encodeURIComponent(`
    import { register } from 'node:module';
    register('data:text/javascript,' + encodeURIComponent(\`
      export async function resolve(specifier, context, next) {
        if (specifier === '@opentelemetry/api' || specifier.startsWith('@opentelemetry/api/')) {
          throw Object.assign(new Error("Cannot find package '@opentelemetry/api'"), { code: 'ERR_MODULE_NOT_FOUND' });
        }
        return next(specifier, context);
      }\`));`)}`;
  // A purchase through the handler against the sandbox; prints what happened.
  const purchase = `
    import { createProviderClient } from './src/provider/index.ts';
    import { createSandbox } from './src/sandbox/index.ts';
    import { createCheckoutHandler } from './src/server/index.ts';
    import { telemetryState } from './src/server/telemetry.ts';
    const KEY = '${KEY}';
    let handler;
    const sandbox = createSandbox({ apiKey: KEY, seed: false, sweepIntervalMs: 0, webhookUrl: 'http://m.test/api/paydesk/webhooks', webhookRetryDelaysMs: [], fetch: (i, init) => handler(new Request(i, init)) });
    const client = createProviderClient({ baseUrl: 'http://s.test', apiKey: KEY, maxRetries: 0, fetch: (i, init) => sandbox.fetch(new Request(i, init)) });
    const paid = [];
    handler = createCheckoutHandler({ provider: { client, apiKey: KEY }, sessionSecrets: ['${SECRET}'], webhookSecrets: [sandbox.webhookSecret(KEY)],
      resolveOrder: () => ({ amount: '1500.00' }), rateLimits: false, reconcileIntervalSeconds: 0, onOrderPaid: (e) => { paid.push(e.provider_order_id); } });
    const res = await handler(new Request('http://m.test/api/paydesk/sessions', { method: 'POST', headers: { 'content-type': 'application/json', 'x-paydesk': '1' }, body: JSON.stringify({ order_ref: 'tee', method_type: 'SBP' }) }));
    const { order } = await res.json();
    await sandbox.fetch(new Request('http://s.test/sandbox/orders/' + order.id + '/complete', { method: 'POST', headers: { 'X-API-Key': KEY } }));
    await sandbox.webhooks.idle();
    await handler.idle();
    const report = await handler.reconcile();
    console.log(JSON.stringify({ created: res.status, paid: paid.length === 1 && paid[0] === order.id, errors: report.errors, telemetry: telemetryState() }));
    await handler.close();
    await sandbox.close();`;
  const run = (blocked: boolean) =>
    spawnSync(process.execPath, ['--import', 'tsx', ...(blocked ? ['--import', block] : []), '--input-type=module', '-e', purchase], { cwd: root, encoding: 'utf8', timeout: 60_000 });

  test('a purchase works end to end; the failed import is a no-op', () => {
    const blocked = run(true);
    assert.equal(blocked.status, 0, blocked.stderr);
    assert.deepEqual(JSON.parse(blocked.stdout.trim().split('\n').at(-1)!), { created: 201, paid: true, errors: 0, telemetry: 'absent' });
    // The control: the same run with the package resolvable loads it.
    const control = run(false);
    assert.equal(control.status, 0, control.stderr);
    assert.equal(JSON.parse(control.stdout.trim().split('\n').at(-1)!).telemetry, 'api');
  });
});
