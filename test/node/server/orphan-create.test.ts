/**
 * An order without a session while its create is still out: the real handler over the in-process
 * sandbox, on a SQLite file that outlives the process.
 *
 * - A process killed while the create's answer was on its way, the order paid meanwhile: after the
 *   restart the paid webhook is kept as an orphan, and the sweep leaves it to the shopper's retry
 *   (same Idempotency-Key, or the merchant's client order id), which adopts it: one onOrderPaid, no
 *   session_lost. Only once no retry can come any more (the create's records are gone) is it lost.
 * - A webhook that outruns the create's answer (the same process): the answer shows the payment the
 *   webhook reported, and onOrderPaid runs at once, not at the next sweep.
 */
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProviderClient } from '../../../src/provider/index.js';
import type { Order } from '../../../src/provider/index.js';
import { createSandbox } from '../../../src/sandbox/index.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { createCheckoutHandler, createSqliteStore } from '../../../src/server/index.js';
import type { CheckoutHandler, FlaggedOrderEvent, OrderEvent } from '../../../src/server/index.js';
import type { OrderView } from '../../../src/protocol/index.js';

const KEY = 'orphan_terminal_key_0123456789abcdef';
const PROVIDER = 'http://sandbox.test';
const ENDPOINT = 'http://merchant.test/api/paydesk';
const SECRET = 'orphan-session-secret-0123456789abcdef012';
const LEASE_MS = 90_000; // idempotencyLeaseSeconds' default
const DAY = 24 * 3600_000;
const dir = mkdtempSync(join(tmpdir(), 'paydesk-orphan-'));
const cleanups: Array<() => Promise<unknown> | unknown> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}
function deferred<T = void>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

interface Proc {
  handler: CheckoutHandler;
  paid: OrderEvent[];
  flagged: FlaggedOrderEvent[];
  errors: string[];
}

/** The sandbox, and merchant processes one after the other on one SQLite file. */
class World {
  readonly sandbox: Sandbox;
  /** The process the provider's webhooks reach; null while it is down. */
  live: Proc | null = null;
  /** Added to the merchant's clock (and its store's), in ms. */
  skew = 0;
  /** The next create's answer: held until this resolves ('forever': the process dies first). */
  holdCreate: Promise<void> | 'forever' | null = null;
  /** The next read of this order: `reached` resolves when it starts, it goes on when `go` resolves. */
  holdRead: { orderId: string; reached: () => void; go: Promise<void> } | null = null;
  /** Resolves with the order each create made at the provider (before its answer is held). */
  private madeNext = deferred<Order>();
  private readonly db: string;

  constructor(name: string) {
    this.db = join(dir, `${name}.db`);
    this.sandbox = createSandbox({
      apiKey: KEY,
      seed: false,
      sweepIntervalMs: 0,
      webhookUrl: `${ENDPOINT}/webhooks`,
      webhookRetryDelaysMs: [100, 200, 400, 800, 1600],
      fetch: async (input, init) => {
        if (!this.live) throw new TypeError('fetch failed: connect ECONNREFUSED');
        return this.live.handler(new Request(input, init));
      },
    });
    cleanups.push(() => this.sandbox.close());
  }

  /** The order the provider made for the create in flight (its answer may be held). */
  async made(): Promise<Order> {
    const order = await this.madeNext.promise;
    this.madeNext = deferred<Order>();
    return order;
  }

  private readonly toSandbox = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const req = new Request(input, init);
    const path = new URL(req.url).pathname;
    if (req.method === 'POST' && path === '/api/v1/order/') {
      const res = await this.sandbox.fetch(req);
      const body = (await res.clone().json()) as { order?: Order } & Order;
      this.madeNext.resolve(body.order ?? body);
      const hold = this.holdCreate;
      this.holdCreate = null;
      // The answer is on its way back; a process that dies meanwhile never sees it (nor its own timeout).
      if (hold === 'forever') return new Promise<Response>(() => undefined);
      if (hold) await hold;
      return res;
    }
    const read = this.holdRead;
    if (req.method === 'GET' && read && path === `/api/v1/order/${read.orderId}`) {
      this.holdRead = null;
      read.reached();
      await read.go;
    }
    return this.sandbox.fetch(req);
  };

  /** Starts a merchant process on the world's SQLite file; it receives the webhooks from now on. */
  start(): Proc {
    const now = () => Date.now() + this.skew;
    const proc: Proc = { paid: [], flagged: [], errors: [] } as unknown as Proc;
    const client = createProviderClient({ baseUrl: PROVIDER, apiKey: KEY, fetch: this.toSandbox, timeoutMs: 5000, maxRetries: 0, lookupWindowMs: 1000 });
    proc.handler = createCheckoutHandler({
      provider: { client, apiKey: KEY },
      store: createSqliteStore({ path: this.db, now }),
      sessionSecrets: [SECRET],
      webhookSecrets: [this.sandbox.webhookSecret(KEY)],
      webhookUrl: `${ENDPOINT}/webhooks`,
      resolveOrder: (ref) => (ref === 'tee' ? { amount: '1500.00' } : ref === 'cart' ? { amount: '1500.00', client_order_id: 'cart-41' } : null),
      rateLimits: false,
      reconcileIntervalSeconds: 0,
      now,
      logger: { warn: () => undefined, error: (m) => void proc.errors.push(m) },
      onOrderPaid: (e) => void proc.paid.push(e),
      onOrderFlagged: (e) => void proc.flagged.push(e),
    });
    this.live = proc;
    return proc;
  }

  /** kill -9: the process answers nothing more and writes nothing more (its create stays out forever). */
  kill(proc: Proc): void {
    if (this.live === proc) this.live = null;
  }

  async complete(orderId: string): Promise<void> {
    const res = await this.sandbox.fetch(new Request(`${PROVIDER}/sandbox/orders/${orderId}/complete`, { method: 'POST', headers: { 'X-API-Key': KEY } }));
    assert.ok(res.ok, `complete: ${res.status} ${await res.text()}`);
  }

  async ordersOf(coid: string): Promise<Order[]> {
    const res = await this.sandbox.fetch(new Request(`${PROVIDER}/api/v1/order/search-by-client-order-id?id=${encodeURIComponent(coid)}&size=100`, { headers: { 'X-API-Key': KEY } }));
    return ((await res.json()) as { orders: { items: Order[] } }).orders.items;
  }
}

function post(h: CheckoutHandler, body: Record<string, unknown>, key?: string): Promise<Response> {
  return h(
    new Request(`${ENDPOINT}/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paydesk': '1', origin: 'http://merchant.test', ...(key && { 'idempotency-key': key }) },
      body: JSON.stringify(body),
    }),
  );
}
async function answer(res: Response): Promise<{ session: string; order: OrderView }> {
  const json = (await res.json()) as { session: string; order: OrderView };
  assert.equal(res.status, 201, JSON.stringify(json));
  return json;
}
const read = async (h: CheckoutHandler, token: string) => ((await (await h(new Request(`${ENDPOINT}/sessions/${token}`))).json()) as { order: OrderView }).order;
async function keptAsOrphan(p: Proc, orderId: string): Promise<void> {
  await until('the paid webhook kept as an orphan', async () => (await p.handler.inspect.webhooks({ order_id: orderId })).some((e) => e.outcome === 'orphan'));
}

const TEE = { order_ref: 'tee', method_type: 'SBP' };

describe('killed while the create was out, the order paid meanwhile (durable store)', () => {
  /** Process A dies with its create out; the shopper pays; B starts on the same file and gets the paid webhook. */
  async function killedMidCreate(w: World, body: Record<string, unknown>, key?: string): Promise<{ b: Proc; order: Order }> {
    const a = w.start();
    w.holdCreate = 'forever';
    void post(a.handler, body, key); // never answered: the process dies first
    const order = await w.made();
    w.kill(a);
    await w.complete(order.id); // the webhook finds no one
    const b = w.start();
    await keptAsOrphan(b, order.id);
    return { b, order };
  }

  test('the retry with the same Idempotency-Key adopts the paid order: onOrderPaid once, no session_lost', async () => {
    const w = new World('idem-retry');
    const { b, order } = await killedMidCreate(w, TEE, 'kill-1');
    const first = await b.handler.reconcile();
    assert.equal(first.flagged, 0, 'a retry may still adopt it: not lost');
    assert.deepEqual(b.flagged, []);
    // The shopper's widget retries once the dead process's claim has lapsed.
    w.skew += LEASE_MS + 1000;
    assert.equal((await b.handler.reconcile()).flagged, 0);
    const { session, order: view } = await answer(await post(b.handler, TEE, 'kill-1'));
    assert.deepEqual([view.id, view.status], [order.id, 'paid']);
    await b.handler.idle();
    assert.deepEqual(b.paid.map((e) => e.provider_order_id), [order.id], 'onOrderPaid at once, from the retry');
    w.skew += 10 * 60_000;
    await b.handler.reconcile();
    await b.handler.reconcile();
    assert.deepEqual(b.flagged, [], 'never session_lost');
    assert.equal(b.paid.length, 1);
    assert.equal((await read(b.handler, session)).status, 'paid');
    assert.equal((await w.ordersOf(order.client_order_id)).length, 1, 'one provider order');
  });

  test("the merchant's client order id, no Idempotency-Key: the retry looks the order up and adopts it, one order, no session_lost", async () => {
    const w = new World('coid-retry');
    const { b, order } = await killedMidCreate(w, { order_ref: 'cart', method_type: 'SBP' });
    assert.equal(order.client_order_id, 'cart-41');
    assert.equal((await b.handler.reconcile()).flagged, 0);
    w.skew += LEASE_MS + 1000; // the dead process's create lease has lapsed
    const { order: view } = await answer(await post(b.handler, { order_ref: 'cart', method_type: 'SBP' }));
    assert.deepEqual([view.id, view.status], [order.id, 'paid']);
    await b.handler.idle();
    await b.handler.reconcile();
    assert.deepEqual(b.paid.map((e) => e.provider_order_id), [order.id]);
    assert.deepEqual(b.flagged, []);
    assert.deepEqual((await w.ordersOf('cart-41')).map((o) => o.id), [order.id], 'no second order');
  });

  test('no retry comes: left to it while the create may be retried (the key lives 24 h), then reported once: onOrderPaid by the order_ref its client order id carries', async () => {
    const w = new World('no-retry');
    const { b, order } = await killedMidCreate(w, TEE, 'kill-2');
    assert.equal((await b.handler.reconcile()).paid, 0);
    w.skew += 23 * 3600_000;
    assert.equal((await b.handler.reconcile()).paid, 0, 'the key still lets the shopper retry');
    assert.deepEqual(b.paid, []);
    w.skew += DAY - 23 * 3600_000 + 2 * LEASE_MS;
    const late = await b.handler.reconcile();
    assert.equal(late.paid, 1);
    await b.handler.reconcile();
    assert.equal(b.paid.length, 1);
    const p = (b.paid as OrderEvent[])[0]!;
    assert.deepEqual([p.order_ref, p.provider_order_id, p.session_id], ['tee', order.id, '']);
    assert.deepEqual(b.flagged, []);
  });

  test('a generated client order id without an Idempotency-Key (no retry can reuse it): left only while its create could be answered, then reported (onOrderPaid by its order_ref)', async () => {
    const w = new World('one-shot');
    const { b, order } = await killedMidCreate(w, TEE);
    assert.equal((await b.handler.reconcile()).paid, 0, 'its create could still be answered');
    w.skew += LEASE_MS + 1000;
    assert.equal((await b.handler.reconcile()).paid, 1);
    assert.deepEqual(b.paid.map((e) => [e.order_ref, e.provider_order_id]), [['tee', order.id]]);
    assert.deepEqual(b.flagged, []);
  });
});

describe('a webhook before the create\'s answer (one process)', () => {
  test('the answer shows the payment the webhook reported; onOrderPaid runs at once; no session_lost, and no error log', async () => {
    const w = new World('webhook-first');
    const m = w.start();
    const hold = deferred();
    w.holdCreate = hold.promise;
    const pending = post(m.handler, TEE, 'first-1');
    const order = await w.made();
    await w.complete(order.id);
    await keptAsOrphan(m, order.id);
    hold.resolve();
    const { session, order: view } = await answer(await pending);
    assert.deepEqual([view.id, view.status], [order.id, 'paid'], 'paid in the create\'s answer');
    await m.handler.idle();
    assert.deepEqual(m.paid.map((e) => e.provider_order_id), [order.id], 'before any sweep');
    assert.equal((await read(m.handler, session)).status, 'paid');
    await m.handler.reconcile();
    w.skew += 10 * 60_000;
    await m.handler.reconcile();
    assert.deepEqual(m.flagged, []);
    assert.equal(m.paid.length, 1);
    assert.deepEqual(m.errors, [], 'nothing to report: no session was lost');
  });

  test("the webhook's read of the order outlasts the create's answer: the webhook itself confirms the new session", async () => {
    const w = new World('webhook-race');
    const m = w.start();
    const hold = deferred();
    w.holdCreate = hold.promise;
    const pending = post(m.handler, TEE);
    const order = await w.made();
    const reached = deferred();
    const go = deferred();
    w.holdRead = { orderId: order.id, reached: reached.resolve, go: go.promise };
    await w.complete(order.id);
    await reached.promise; // the webhook found no session and reads the order
    hold.resolve();
    const { session, order: view } = await answer(await pending);
    assert.equal(view.status, 'pending', 'the answer came before the webhook recorded anything');
    go.resolve();
    await w.sandbox.webhooks.idle();
    await m.handler.idle();
    assert.deepEqual(m.paid.map((e) => e.provider_order_id), [order.id], 'before any sweep');
    assert.equal((await read(m.handler, session)).status, 'paid');
    await m.handler.reconcile();
    assert.deepEqual(m.flagged, []);
    assert.equal(m.paid.length, 1);
  });
});
