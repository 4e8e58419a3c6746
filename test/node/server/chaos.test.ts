/**
 * The chaos suite (issue 11): each way a paid order could be lost or paid twice, driven against the
 * real sandbox the way it happens — a killed process, webhooks that never arrive, slow confirmations,
 * hooks that throw or run long, late completions and disputes, two hosted-form attempts, a create
 * that lands after the client gave up, two instances on one Redis and on one SQLite file.
 */
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { createProviderClient } from '../../../src/provider/index.js';
import type { Order } from '../../../src/provider/index.js';
import { createSandbox } from '../../../src/sandbox/index.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { createCheckoutHandler, createRedisStore, createSqliteStore } from '../../../src/server/index.js';
import type { CheckoutHandler, CheckoutHandlerOptions, CheckoutStore, FlaggedOrderEvent, OrderEvent } from '../../../src/server/index.js';
import type { OrderView } from '../../../src/protocol/index.js';
import { SseReader } from './fake-provider.js';
import { freePort, startRedis } from './redis-server.js';

const KEY = 'chaos_terminal_key_0123456789abcdef';
const PROVIDER = 'http://sandbox.test';
const ENDPOINT = 'http://merchant.test/api/paydesk';
const SECRET = 'chaos-session-secret-0123456789abcdef0123';
const dir = mkdtempSync(join(tmpdir(), 'paydesk-chaos-'));
const cleanups: Array<() => Promise<unknown> | unknown> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

// ---------------------------------------------------------------------------------------------
// An in-process world: the sandbox, and merchant instances whose webhooks may be lost.

interface Instance {
  handler: CheckoutHandler;
  paid: OrderEvent[];
  flagged: FlaggedOrderEvent[];
}

interface World {
  sandbox: Sandbox;
  instances: Instance[];
  /** While true, every webhook delivery fails (the merchant is down). */
  down: boolean;
  /** Added to the merchant's clock (hook backoffs), in ms. */
  skew: number;
  /** Held before a create reaches the sandbox (a slow network), in ms. */
  createDelayMs: number;
  paid(): OrderEvent[];
  instance(options?: Partial<CheckoutHandlerOptions>): Instance;
}

function world(opts: { form?: boolean } = {}): World {
  const w = { instances: [], down: false, skew: 0, createDelayMs: 0 } as unknown as World;
  w.sandbox = createSandbox({
    apiKey: KEY,
    seed: false,
    sweepIntervalMs: 0,
    webhookUrl: `${ENDPOINT}/webhooks`,
    webhookRetryDelaysMs: [],
    fetch: async (input, init) => {
      if (w.down || w.instances.length === 0) throw new TypeError('fetch failed: connect ECONNREFUSED');
      // Webhooks reach the instances in turn, as a load balancer spreads them.
      const target = w.instances[Math.floor(Math.random() * w.instances.length)]!;
      return target.handler(new Request(input, init));
    },
  });
  cleanups.push(() => w.sandbox.close());
  const toSandbox = async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    if (req.method === 'POST' && new URL(req.url).pathname === '/api/v1/order/' && w.createDelayMs > 0) {
      // The request is on its way: it reaches the provider even if the client stops waiting.
      const copy = req.clone();
      const delivered = sleep(w.createDelayMs).then(() => w.sandbox.fetch(copy));
      return await new Promise<Response>((resolve, reject) => {
        // The client's own signal: a Request's copy of it may miss the abort after a garbage collection.
        const signal = init?.signal ?? req.signal;
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        delivered.then(resolve, reject);
      });
    }
    return w.sandbox.fetch(req);
  };
  w.paid = () => w.instances.flatMap((i) => i.paid);
  w.instance = (options = {}) => {
    const inst: Instance = { paid: [], flagged: [] } as unknown as Instance;
    const client = createProviderClient({ baseUrl: PROVIDER, apiKey: KEY, fetch: toSandbox, timeoutMs: 200, maxRetries: 0, lookupWindowMs: 1000 });
    inst.handler = createCheckoutHandler({
      provider: { client, apiKey: KEY },
      sessionSecrets: [SECRET],
      webhookSecrets: [w.sandbox.webhookSecret(KEY)],
      webhookUrl: `${ENDPOINT}/webhooks`,
      resolveOrder: (ref) => (ref === 'tee' ? { amount: '1500.00' } : ref === 'cart' ? { amount: '1500.00', client_order_id: `cart-${dirSuffix}` } : null),
      rateLimits: false,
      reconcileIntervalSeconds: 0,
      now: () => Date.now() + w.skew,
      logger: { warn: () => undefined, error: () => undefined },
      onOrderPaid: (e) => void inst.paid.push(e),
      onOrderFlagged: (e) => void inst.flagged.push(e),
      ...(opts.form && { mode: 'form' as const }),
      ...options,
    });
    cleanups.push(() => inst.handler.close());
    w.instances.push(inst);
    return inst;
  };
  return w;
}
let dirSuffix = 0;

async function post(h: CheckoutHandler, body: Record<string, unknown>, key?: string) {
  return h(
    new Request(`${ENDPOINT}/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paydesk': '1', origin: 'http://merchant.test', ...(key && { 'idempotency-key': key }) },
      body: JSON.stringify(body),
    }),
  );
}
async function created(h: CheckoutHandler, body: Record<string, unknown> = { order_ref: 'tee', method_type: 'SBP' }, key?: string) {
  const res = await post(h, body, key);
  const json = (await res.json()) as { session: string; order: OrderView };
  assert.equal(res.status, 201, JSON.stringify(json));
  return json;
}
const read = async (h: CheckoutHandler, token: string) => ((await (await h(new Request(`${ENDPOINT}/sessions/${token}`))).json()) as { order: OrderView }).order;
async function control(w: World, path: string, body?: unknown) {
  const res = await w.sandbox.fetch(
    new Request(`${PROVIDER}${path}`, {
      method: 'POST',
      headers: { 'X-API-Key': KEY, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    }),
  );
  assert.ok(res.ok, `${path}: ${res.status} ${await res.clone().text()}`);
  return res.json() as Promise<Record<string, unknown>>;
}
async function ordersOf(w: World, coid: string): Promise<Order[]> {
  const res = await w.sandbox.fetch(new Request(`${PROVIDER}/api/v1/order/search-by-client-order-id?id=${encodeURIComponent(coid)}&size=100`, { headers: { 'X-API-Key': KEY } }));
  return ((await res.json()) as { orders: { items: Order[] } }).orders.items;
}

// ---------------------------------------------------------------------------------------------

describe('chaos: a process that dies', () => {
  test('killed mid-payment and started again on the same data: the reload resumes the same order; the paid webhook reaches onOrderPaid once', async () => {
    const port = await freePort();
    const db = join(dir, 'restart.db');
    const paidLog = join(dir, 'restart-paid.log');
    const sandbox = createSandbox({ apiKey: KEY, seed: false, webhookRetryDelaysMs: [300, 600, 1200, 2400, 4800] });
    cleanups.push(() => sandbox.close());
    const { url: providerUrl } = await sandbox.listen({ port: 0 });
    const merchantUrl = `http://127.0.0.1:${port}/api/paydesk`;
    const script = fileURLToPath(new URL('./fixtures/merchant-process.ts', import.meta.url));
    const start = async (): Promise<ChildProcess> => {
      const child = spawn(process.execPath, ['--import', 'tsx', script], {
        env: { ...process.env, PORT: String(port), DB: db, PROVIDER_URL: providerUrl, API_KEY: KEY, SESSION_SECRET: SECRET, WEBHOOK_SECRET: sandbox.webhookSecret(KEY), PAID_LOG: paidLog },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      cleanups.push(() => child.kill('SIGKILL'));
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (d: Buffer) => (String(d).includes('ready') ? resolve() : undefined));
        child.once('exit', (code) => reject(new Error(`merchant exited with ${code}`)));
      });
      return child;
    };
    const paidLines = () => (existsSync(paidLog) ? readFileSync(paidLog, 'utf8').trim().split('\n').filter(Boolean) : []);

    let merchant = await start();
    const res = await fetch(`${merchantUrl}/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paydesk': '1', 'idempotency-key': 'restart-1' },
      body: JSON.stringify({ order_ref: 'tee', method_type: 'SBP' }),
    });
    assert.equal(res.status, 201);
    const { session, order } = (await res.json()) as { session: string; order: OrderView };

    // The process crashes (no shutdown), and the shopper pays while it is down.
    const exited = new Promise((r) => merchant.once('exit', r));
    merchant.kill('SIGKILL');
    await exited;
    await control({ sandbox } as World, `/sandbox/orders/${order.id}/complete`);
    const firstAttempt = sandbox.webhooks.log(KEY).find((d) => d.order_id === order.id);
    assert.ok(firstAttempt, 'a webhook was attempted while the merchant was down');

    merchant = await start();
    // The shopper's reload: the same session, the same order.
    const again = await fetch(`${merchantUrl}/sessions/${session}`);
    assert.equal(again.status, 200);
    assert.equal(((await again.json()) as { order: OrderView }).order.id, order.id);
    await until('onOrderPaid in the restarted process', () => paidLines().length >= 1);
    await sandbox.webhooks.idle();
    const view = ((await (await fetch(`${merchantUrl}/sessions/${session}`)).json()) as { order: OrderView }).order;
    assert.equal(view.status, 'paid');
    // A second restart changes nothing: the hook is done for good.
    const stopped = new Promise((r) => merchant.once('exit', r));
    merchant.kill('SIGTERM');
    await stopped;
    merchant = await start();
    await fetch(`${merchantUrl}/sessions/${session}`);
    await sleep(200);
    assert.equal(paidLines().length, 1, paidLines().join('\n'));
    merchant.kill('SIGTERM');
  });
});

describe('chaos: lost webhooks, slow confirmations, hooks', () => {
  test('every webhook lost and the tab closed: one reconcile() later, paid once', async () => {
    const w = world();
    const m = w.instance();
    const { order } = await created(m.handler);
    w.down = true;
    await control(w, `/sandbox/orders/${order.id}/complete`);
    await w.sandbox.webhooks.idle();
    assert.equal(w.paid().length, 0);
    const report = await m.handler.reconcile();
    assert.equal(report.paid, 1);
    assert.equal(w.paid().length, 1);
    await m.handler.reconcile();
    assert.equal(w.paid().length, 1);
  });

  test('a webhook answered 202 (its confirming read timed out) and a hook that throws: later sweeps finish both, once', async () => {
    const w = world();
    let calls = 0;
    const m = w.instance({
      webhookConfirmTimeoutMs: 1,
      onOrderPaid: (e) => {
        calls++;
        if (calls === 1) throw new Error('warehouse API down');
        w.instances[0]!.paid.push(e);
      },
    });
    const { order } = await created(m.handler);
    await control(w, `/sandbox/orders/${order.id}/complete`);
    await w.sandbox.webhooks.idle();
    const delivery = w.sandbox.webhooks.log(KEY).find((d) => d.order_id === order.id);
    assert.equal(delivery?.status, 'delivered', 'the 202 is a delivery: the provider stops');
    await m.handler.idle();
    await m.handler.reconcile();
    assert.equal(calls, 1, 'ran once and threw');
    w.skew += 10_000;
    await m.handler.reconcile();
    assert.equal(calls, 2);
    w.skew += 3_600_000;
    await m.handler.reconcile();
    assert.equal(calls, 2);
    assert.equal(w.paid().length, 1);
  });
});

describe('chaos: late payments', () => {
  async function expired(w: World, m: Instance) {
    const made = await created(m.handler);
    await control(w, `/sandbox/orders/${made.order.id}/expire`);
    await m.handler.reconcile();
    assert.equal((await read(m.handler, made.session)).status, 'expired');
    return made;
  }

  test('Completed after CanceledByTimeout with the webhook lost: late: true, onOrderPaid once', async () => {
    const w = world();
    const m = w.instance();
    const { session, order } = await expired(w, m);
    w.down = true;
    await control(w, `/sandbox/orders/${order.id}/complete`, { late: true });
    const r = await m.handler.reconcile();
    assert.equal(r.late_paid, 1);
    const v = await read(m.handler, session);
    assert.deepEqual([v.status, v.late], ['paid', true]);
    await m.handler.reconcile();
    assert.equal(w.paid().length, 1);
    assert.equal(w.paid()[0]!.late, true);
  });

  test('a receipt uploaded after expiry opens the provider dispute; accepted (the order stays cancelled): paid late once, dispute_id named', async () => {
    const w = world();
    const m = w.instance();
    const { session, order } = await expired(w, m);
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
    const form = new FormData();
    form.append('files', new Blob([png], { type: 'image/png' }), 'receipt.png');
    form.append('comment', 'paid at 12:29 from T-Bank');
    const up = await m.handler(new Request(`${ENDPOINT}/sessions/${session}/dispute`, { method: 'POST', headers: { 'x-paydesk': '1' }, body: form }));
    assert.equal(up.status, 201, await up.clone().text());
    const dispute = ((await up.json()) as { order: OrderView }).order.dispute!;
    assert.equal(dispute.status, 'open');
    const found = await w.sandbox.fetch(new Request(`${PROVIDER}/api/v1/disputes/search?order_id=${order.id}`, { headers: { 'X-API-Key': KEY } }));
    const items = ((await found.json()) as { data: { items: Array<{ dispute_id: string; processed: boolean }> } }).data.items;
    assert.deepEqual(items.map((d) => [d.dispute_id, d.processed]), [[dispute.id, false]]);
    await control(w, `/sandbox/disputes/${dispute.id}/process`, { accepted: true });
    const r = await m.handler.reconcile();
    assert.equal(r.late_paid, 1);
    const v = await read(m.handler, session);
    assert.deepEqual([v.status, v.late, v.dispute?.status, v.provider_status], ['paid', true, 'closed', 'CanceledByTimeout']);
    await m.handler.reconcile();
    assert.equal(w.paid().length, 1);
    assert.deepEqual([w.paid()[0]!.late, w.paid()[0]!.dispute_id], [true, dispute.id]);
  });

  test('a dispute filed with the provider and rejected: flagged dispute_unconfirmed once, never paid', async () => {
    const w = world();
    const m = w.instance();
    const { order } = await expired(w, m);
    const opened = (await control(w, `/sandbox/orders/${order.id}/dispute`)) as { dispute_id?: string; dispute?: { dispute_id: string } };
    const disputeId = opened.dispute_id ?? opened.dispute!.dispute_id;
    await m.handler.reconcile();
    await control(w, `/sandbox/disputes/${disputeId}/process`, { accepted: false });
    await m.handler.reconcile();
    assert.equal(m.flagged.length, 0, 'the deposit is given time to appear');
    w.skew += 10 * 60_000;
    await m.handler.reconcile();
    await m.handler.reconcile();
    assert.equal(w.paid().length, 0);
    assert.equal(m.flagged.length, 1);
    assert.deepEqual([m.flagged[0]!.reason, m.flagged[0]!.dispute_id], ['dispute_unconfirmed', disputeId]);
  });
});

describe('chaos: several disputes of one order (issue 19)', () => {
  const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
  async function upload(m: Instance, session: string): Promise<OrderView> {
    const form = new FormData();
    form.append('files', new Blob([PNG], { type: 'image/png' }), 'receipt.png');
    const res = await m.handler(new Request(`${ENDPOINT}/sessions/${session}/dispute`, { method: 'POST', headers: { 'x-paydesk': '1' }, body: form }));
    assert.equal(res.status, 201, await res.clone().text());
    return ((await res.json()) as { order: OrderView }).order;
  }

  test('the receipt\'s dispute d1, then d2 opened at the provider: d2 rejected is flagged (naming d2), then d1 accepted pays the order late once (naming d1)', async () => {
    const w = world();
    const m = w.instance();
    const made = await created(m.handler);
    await control(w, `/sandbox/orders/${made.order.id}/expire`);
    await m.handler.reconcile();
    const { session, order } = made;
    const d1 = (await upload(m, session)).dispute!;
    assert.deepEqual([d1.status, d1.outcome], ['open', null]);
    const opened = (await control(w, `/sandbox/orders/${order.id}/dispute`)) as { dispute: { dispute_id: string } };
    const d2 = opened.dispute.dispute_id;
    await m.handler.reconcile();
    await control(w, `/sandbox/disputes/${d2}/process`, { accepted: false });
    await m.handler.reconcile();
    w.skew += 10 * 60_000;
    await m.handler.reconcile();
    assert.deepEqual(m.flagged.map((f) => [f.reason, f.dispute_id]), [['dispute_unconfirmed', d2]], 'd2 is flagged, naming d2');
    let v = await read(m.handler, session);
    assert.deepEqual([v.status, v.dispute?.id, v.dispute?.status, v.dispute?.outcome], ['expired', d1.id, 'open', null], 'd1 is still being checked');

    await control(w, `/sandbox/disputes/${d1.id}/process`, { accepted: true });
    const r = await m.handler.reconcile();
    assert.equal(r.late_paid, 1);
    v = await read(m.handler, session);
    assert.deepEqual([v.status, v.late, v.dispute?.id, v.dispute?.status, v.dispute?.outcome], ['paid', true, d1.id, 'closed', 'confirmed']);
    for (let hours = 1; hours <= 3; hours++) {
      w.skew += 3600_000;
      await m.handler.reconcile();
    }
    assert.deepEqual(w.paid().map((e) => [e.provider_order_id, e.late, e.dispute_id]), [[order.id, true, d1.id]], 'onOrderPaid once, naming d1');
    assert.equal(m.flagged.length, 1, 'd2 is flagged once');
    const detail = await m.handler.inspect.session(order.id);
    assert.deepEqual(
      detail?.disputes.map((d) => [d.id, d.outcome]),
      [[d1.id, 'paid'], [d2, 'unconfirmed']],
      'both disputes are followed, each with its outcome',
    );
  });

  test('two rejected disputes: each is flagged once, naming it, and the order is never paid', async () => {
    const w = world();
    const m = w.instance();
    const made = await created(m.handler);
    await control(w, `/sandbox/orders/${made.order.id}/expire`);
    await m.handler.reconcile();
    const d1 = (await upload(m, made.session)).dispute!.id;
    const d2 = ((await control(w, `/sandbox/orders/${made.order.id}/dispute`)) as { dispute: { dispute_id: string } }).dispute.dispute_id;
    await m.handler.reconcile();
    await control(w, `/sandbox/disputes/${d2}/process`, { accepted: false });
    await m.handler.reconcile();
    w.skew += 10 * 60_000;
    await m.handler.reconcile();
    await control(w, `/sandbox/disputes/${d1}/process`, { accepted: false });
    await m.handler.reconcile();
    w.skew += 10 * 60_000;
    await m.handler.reconcile();
    await m.handler.reconcile();
    assert.deepEqual(m.flagged.map((f) => [f.reason, f.dispute_id]), [['dispute_unconfirmed', d2], ['dispute_unconfirmed', d1]]);
    assert.equal(w.paid().length, 0);
    const v = await read(m.handler, made.session);
    assert.deepEqual([v.status, v.dispute?.status, v.dispute?.outcome], ['expired', 'closed', 'unconfirmed']);
  });
});

describe('chaos: hosted form and creation', () => {
  test('two hosted-form attempts with one client_order_id: the shopper pays the first; it is bound to its own order and paid once', async () => {
    dirSuffix++;
    const w = world({ form: true });
    const m = w.instance();
    const payOnForm = async (formUrl: string) => {
      const sessionId = new URL(formUrl).searchParams.get('session_id')!;
      const res = await w.sandbox.fetch(
        new Request(`${PROVIDER}/pay/api/sessions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
          body: JSON.stringify({ order_ref: sessionId, method_type: 'SBP' }),
        }),
      );
      assert.equal(res.status, 201, await res.clone().text());
      return ((await res.json()) as { order: OrderView }).order;
    };
    const a = await created(m.handler, { order_ref: 'cart', mode: 'form' });
    const orderA = await payOnForm(a.order.form_url!);
    // The first attempt times out; the shopper starts again with the same cart.
    await control(w, `/sandbox/orders/${orderA.id}/expire`);
    await m.handler.reconcile();
    assert.equal((await read(m.handler, a.session)).status, 'expired');
    const b = await created(m.handler, { order_ref: 'cart', mode: 'form' });
    assert.notEqual(b.session, a.session);
    const orderB = await payOnForm(b.order.form_url!);
    assert.notEqual(orderB.id, orderA.id);
    // ...but the money for the FIRST attempt arrives.
    await control(w, `/sandbox/orders/${orderA.id}/complete`, { late: true });
    await m.handler.idle();
    await m.handler.reconcile();
    assert.equal(w.paid().length, 1);
    assert.equal(w.paid()[0]!.provider_order_id, orderA.id);
    assert.equal((await read(m.handler, a.session)).status, 'paid');
    assert.equal((await read(m.handler, b.session)).status, 'pending');
  });

  test('a create the provider receives after the client gave up: looked up and adopted, exactly one provider order', async () => {
    const w = world();
    const m = w.instance();
    w.createDelayMs = 500; // the client's timeout is 200 ms; its lookup window 1 s
    const made = await created(m.handler, { order_ref: 'tee', method_type: 'SBP' }, 'slow-1');
    w.createDelayMs = 0;
    assert.equal((await ordersOf(w, made.order.client_order_id)).length, 1);
  });

  test('a create that lands even after the lookup window: retries meanwhile create nothing; once it landed, it is adopted — one order', async () => {
    const w = world();
    const m = w.instance();
    w.createDelayMs = 1800;
    const first = await post(m.handler, { order_ref: 'tee', method_type: 'SBP' }, 'slow-2');
    assert.ok(first.status >= 500, String(first.status));
    assert.equal(((await first.json()) as { error: { retryable: boolean } }).error.retryable, true);
    w.createDelayMs = 0;
    // The shopper taps "try again" at once: the first create is still on its way.
    const early = await post(m.handler, { order_ref: 'tee', method_type: 'SBP' }, 'slow-2');
    assert.equal(early.status, 409);
    assert.equal(((await early.json()) as { error: { code: string } }).error.code, 'idempotency_in_progress');
    await until('the first create to land', async () => (await w.sandbox.fetch(new Request(`${PROVIDER}/api/v1/order/?size=100`, { headers: { 'X-API-Key': KEY } })).then((r) => r.json() as Promise<{ orders: { total: number } }>)).orders.total === 1);
    const retry = await created(m.handler, { order_ref: 'tee', method_type: 'SBP' }, 'slow-2');
    const orders = await ordersOf(w, retry.order.client_order_id);
    assert.deepEqual(orders.map((o) => o.id), [retry.order.id]);
  });
});

const redis = await startRedis();

describe('chaos: several instances on one store', () => {
  async function twoInstancesPayOnce(makeStore: () => Promise<CheckoutStore> | CheckoutStore, label: string) {
    const w = world();
    let running = 0;
    let most = 0;
    const slowHook = async (inst: () => Instance, e: OrderEvent) => {
      running++;
      most = Math.max(most, running);
      await sleep(2500); // longer than several leases
      running--;
      inst().paid.push(e);
    };
    let a!: Instance;
    let b!: Instance;
    // A lease of 1 s, renewed every third of it: long enough that a loaded test machine's pauses do not
    // let it lapse (0.2 s did, at times, on a shared 2-core machine), short beside the hook's 2.5 s.
    a = w.instance({ store: await makeStore(), hookLeaseSeconds: 1, onOrderPaid: (e) => slowHook(() => a, e) });
    b = w.instance({ store: await makeStore(), hookLeaseSeconds: 1, onOrderPaid: (e) => slowHook(() => b, e) });
    const { session, order } = await created(a.handler);
    const stream = new SseReader(await b.handler(new Request(`${ENDPOINT}/sessions/${session}/events`)));
    assert.equal(JSON.parse((await stream.next())!.data!).status, 'pending');
    await control(w, `/sandbox/orders/${order.id}/complete`);
    // Reads trigger the hook without waiting for it; each instance has its own process-local state,
    // so only the store's lease (renewed every 333 ms here) keeps the second from running it.
    await read(a.handler, session);
    const deadline = Date.now() + 3000;
    while (Date.now() < deadline) {
      await Promise.all([read(a.handler, session), read(b.handler, session)]);
      void b.handler.reconcile();
      await sleep(40);
    }
    const ev = JSON.parse((await stream.next())!.data!) as OrderView;
    assert.equal(ev.status, 'paid', `${label}: the other instance's stream hears it`);
    await Promise.all([a.handler.idle(), b.handler.idle()]);
    assert.equal(w.paid().length, 1, label);
    assert.equal(most, 1, `${label}: never twice at once`);
  }

  test('one SQLite file, two instances: a session made on one is paid once, its hook never run twice at once', async () => {
    const file = join(dir, 'shared.db');
    const stores: CheckoutStore[] = [];
    cleanups.push(async () => {
      for (const s of stores) await s.close();
    });
    await twoInstancesPayOnce(() => {
      const store = createSqliteStore({ path: file, pollMs: 20 });
      stores.push(store);
      return store;
    }, 'sqlite');
  });

  if (!redis) console.log('NOTICE: no redis-server on PATH and PAYDESK_TEST_REDIS_URL is unset: the Redis chaos test is not registered.');
  else cleanups.push(() => redis.stop());
  if (redis) test('one Redis, two instances: the same', async () => {
    const prefix = `chaos:${process.pid}:${Date.now()}:`;
    const clients: Redis[] = [];
    const stores: CheckoutStore[] = [];
    // Runs after the handlers have closed (cleanups run last-in first-out): stores, then connections.
    cleanups.push(async () => {
      for (const s of stores) await s.close();
      for (const c of clients) await c.quit().catch(() => c.disconnect());
    });
    await twoInstancesPayOnce(() => {
      const c = new Redis(redis!.url);
      clients.push(c);
      const store = createRedisStore({ client: c, prefix, allowVolatile: true });
      stores.push(store);
      return store;
    }, 'redis');
  });
});
