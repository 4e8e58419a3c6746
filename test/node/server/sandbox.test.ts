/**
 * The token endpoint against the in-process sandbox: the real provider client talks to the
 * sandbox's fetch (no port), and the sandbox delivers its signed webhooks straight into the handler.
 * Every route end to end, the preset terminals' refusals, and provider faults injected in between.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { applyFee } from '../../../src/money/index.js';
import type { Order, PaymentMethod } from '../../../src/provider/index.js';
import { createSandbox, PRESET_KEYS, signWebhook } from '../../../src/sandbox/index.js';
import { createCheckoutHandler } from '../../../src/server/index.js';
import type { CheckoutHandlerOptions } from '../../../src/server/index.js';
import type { OrderView } from '../../../src/protocol/index.js';
import { createRequest, SseReader } from './fake-provider.js';
import { created, ENDPOINT, KEY as MERCHANT_KEY, post, PROVIDER, SECRET, view as read, world as sandboxWorld, type World as SandboxWorld } from './world.js';

const PRODUCTS: Record<string, { amount: string; user_id?: string }> = {
  tee: { amount: '1500.00' },
  hoodie: { amount: '4200.00' },
  no_traders: { amount: '1500.13' },
  fraud: { amount: '900.00', user_id: 'mass-buyer' },
};

/**
 * `signal`: the client's own signal. A `new Request(…, { signal })` follows it only while undici's weak
 * reference to its inner controller lives: after a garbage collection its abort may never arrive.
 */
type Fault = (req: Request, forward: () => Promise<Response>, signal: AbortSignal) => Promise<Response>;

interface World extends SandboxWorld {
  /** Replace to inject faults between the client and the sandbox. */
  fault: Fault | null;
  providerRequests: Request[];
}

/** A sandbox (the merchant's terminal) and a handler wired to each other in process; `key`: the handler's terminal. */
function world(opts: { key?: string; handler?: Partial<CheckoutHandlerOptions>; fastClient?: boolean } = {}): World {
  const w: World = Object.assign(
    sandboxWorld({
      key: opts.key ?? MERCHANT_KEY,
      sandbox: { apiKey: MERCHANT_KEY },
      client: { timeoutMs: 200, maxRetries: opts.fastClient === false ? 2 : 0, sleep: async () => undefined },
      toSandbox: (req, forward, signal) => {
        w.providerRequests.push(req.clone());
        const again = () => forward(req.clone());
        return w.fault ? w.fault(req, again, signal) : again();
      },
      record: ['paid', 'closed'],
      handler: { resolveOrder: (ref) => PRODUCTS[ref] ?? null, reconcileIntervalSeconds: undefined, ...opts.handler },
    }),
    { fault: null, providerRequests: [] as Request[] },
  );
  return w;
}

const control = (w: World, path: string, key = MERCHANT_KEY) =>
  w.sandbox.fetch(new Request(`${PROVIDER}${path}`, { method: 'POST', headers: { 'X-API-Key': key } }));
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string; retryable: boolean } }).error;
async function sandboxOrders(w: World, key = MERCHANT_KEY): Promise<Order[]> {
  const res = await w.sandbox.fetch(new Request(`${PROVIDER}/api/v1/order/?size=100`, { headers: { 'X-API-Key': key } }));
  return ((await res.json()) as { orders: { items: Order[] } }).orders.items;
}

describe('against the sandbox: methods and sessions', () => {
  test('GET /methods: the active Buy methods of the terminal with applyFee fees (feePayer shopper)', async () => {
    const w = world({ handler: { feePayer: 'shopper' } });
    const res = await w.handler(new Request(`${ENDPOINT}/methods?order_ref=tee`));
    assert.equal(res.status, 200);
    const { methods } = (await res.json()) as { methods: Array<{ id: string; fee: string; total: string; bank: string | null }> };
    const listed = await w.sandbox.fetch(new Request(`${PROVIDER}/api/v1/finance/payment_methods?active=true`, { headers: { 'X-API-Key': MERCHANT_KEY } }));
    const all = ((await listed.json()) as { payment_methods: PaymentMethod[] }).payment_methods;
    assert.ok(methods.length > 0);
    for (const m of methods) {
      const pm = all.find((x) => x.method_id === m.id)!;
      const range = pm.ranges.find((r) => r.fee_side === 'Buy' && r.min_amount <= 1500 && r.max_amount >= 1500)!;
      const expected = applyFee('1500.00', { percent: range.fee, fixed: range.fixed_fee }, 'RUB');
      assert.equal(m.fee, expected.fee, pm.method_name);
      assert.equal(m.total, expected.total);
    }
    assert.ok(methods.some((m) => m.bank === 'sberbank'));
  });

  test('H2H: requisites from the sandbox; complete → signed webhook → paid on the stream → stream closes; onOrderPaid once', async () => {
    const w = world();
    const { session, order } = await created(w, { order_ref: 'tee', method_type: 'SBP' });
    assert.equal(order.status, 'pending');
    assert.equal(order.amount, '1500.00');
    assert.equal(order.requisites?.kind, 'phone');
    const sse = new SseReader(await w.handler(new Request(`${ENDPOINT}/sessions/${session}/events`)));
    assert.equal(JSON.parse((await sse.next())!.data!).status, 'pending');
    assert.equal((await control(w, `/sandbox/orders/${order.id}/complete`)).status, 200);
    const ev = await sse.next();
    assert.equal(JSON.parse(ev!.data!).status, 'paid');
    assert.equal(await sse.next(), null);
    await w.sandbox.webhooks.idle();
    await w.handler.idle();
    const log = w.sandbox.webhooks.log();
    assert.ok(log.length >= 1);
    assert.ok(log.every((d) => d.status === 'delivered'), JSON.stringify(log.map((d) => d.status)));
    assert.equal(w.paid.length, 1);
    assert.equal(w.paid[0]!.provider_order_id, order.id);
    assert.equal((await read(w, session)).status, 'paid');
  });

  test('expire and cancel controls end the session expired / cancelled, with onOrderClosed', async () => {
    const w = world();
    const a = await created(w, { order_ref: 'tee', payment_method_id: (await firstMethod(w, 'BankCard')).method_id });
    const b = await created(w, { order_ref: 'tee', button_name: 'SberPay' });
    await control(w, `/sandbox/orders/${a.order.id}/expire`);
    await control(w, `/sandbox/orders/${b.order.id}/cancel`);
    await w.sandbox.webhooks.idle();
    await w.handler.idle();
    assert.equal((await read(w, a.session)).status, 'expired');
    assert.equal((await read(w, b.session)).status, 'cancelled');
    assert.equal(w.closed.length, 2);
    assert.equal(w.paid.length, 0);
  });

  test('the requisites kind follows the method type (card, phone, account, link)', async () => {
    const w = world();
    for (const [type, kind] of [
      ['BankCard', 'card'],
      ['SBP', 'phone'],
      ['BankAccount', 'account'],
      ['NSPKLink', 'link'],
    ] as const) {
      const { order } = await created(w, { order_ref: 'hoodie', method_type: type });
      assert.equal(order.requisites?.kind ?? 'link', kind, type);
      if (type === 'NSPKLink') assert.match(order.payment_link ?? '', /^https:\/\/qr\.nspk\.ru\//);
    }
  });

  test('order_with_form terminal: the H2H answer carries the sandbox form_url', async () => {
    const w = world({ key: PRESET_KEYS.withForm, handler: { mode: 'order_with_form' } });
    const { order } = await created(w, { order_ref: 'tee', customer_bank: 'sberbank' });
    assert.match(order.form_url ?? '', /\/pay\?session_id=/);
    assert.equal(order.bank, 'sberbank');
  });

  test('form mode: pending with form_url; the shopper picks a method on the hosted form; the order is followed to paid', async () => {
    const w = world({ handler: { mode: 'form' } });
    const { session, order } = await created(w, { order_ref: 'tee' });
    assert.equal(order.status, 'pending');
    const formUrl = new URL(order.form_url!);
    const formSession = formUrl.searchParams.get('session_id')!;
    // The shopper on the provider's form (the same widget protocol, served by the sandbox).
    const pick = await w.sandbox.fetch(
      new Request(`${PROVIDER}/pay/api/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
        body: JSON.stringify({ order_ref: formSession, method_type: 'SBP' }),
      }),
    );
    assert.equal(pick.status, 201, await pick.clone().text());
    await w.sandbox.webhooks.idle();
    await w.handler.idle();
    const followed = await read(w, session, '?refresh=1');
    assert.notEqual(followed.id, '');
    assert.equal(followed.requisites?.kind, 'phone');
    await control(w, `/sandbox/orders/${followed.id}/complete`);
    await w.sandbox.webhooks.idle();
    await w.handler.idle();
    assert.equal((await read(w, session)).status, 'paid');
    assert.equal(w.paid.length, 1);
  });

  test('configured with { baseUrl, apiKey, fetch }: the handler builds its own provider client', async () => {
    const sandbox = createSandbox({ apiKey: MERCHANT_KEY, seed: false, sweepIntervalMs: 0 });
    const handler = createCheckoutHandler({
      provider: { baseUrl: PROVIDER, apiKey: MERCHANT_KEY, fetch: (input, init) => sandbox.fetch(new Request(input, init)) },
      sessionSecrets: [SECRET],
      resolveOrder: (ref) => PRODUCTS[ref] ?? null,
      logger: { warn: () => undefined, error: () => undefined },
    });
    try {
      const res = await handler(createRequest({ order_ref: 'tee', method_type: 'SBP' }));
      assert.equal(res.status, 201);
      assert.equal(((await res.json()) as { order: OrderView }).order.amount, '1500.00');
    } finally {
      await handler.close();
      await sandbox.close();
    }
  });

  test('the same Idempotency-Key twice and ten at once: one sandbox order', async () => {
    const w = world();
    const first = await created(w, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'int-1' });
    const again = await created(w, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'int-1' });
    assert.equal(first.session, again.session);
    const burst = await Promise.all(Array.from({ length: 10 }, () => post(w, { order_ref: 'hoodie', method_type: 'SBP' }, { 'idempotency-key': 'int-2' })));
    assert.deepEqual(
      burst.map((r) => r.status),
      Array(10).fill(201),
    );
    assert.equal((await sandboxOrders(w)).length, 2);
  });
});

describe('against the sandbox: refusals map to stable codes', () => {
  test('form on a terminal without the form: 409 form_not_activated', async () => {
    const w = world({ key: PRESET_KEYS.formOff, handler: { mode: 'form' } });
    const res = await post(w, { order_ref: 'tee' });
    assert.equal(res.status, 409);
    assert.equal((await errorOf(res)).code, 'form_not_activated');
  });

  test('a button the terminal has not enabled: 409 button_not_enabled', async () => {
    const w = world({ key: PRESET_KEYS.sberOnly, handler: { mode: 'form' } });
    const res = await post(w, { order_ref: 'tee', button_name: 'TPay' });
    assert.equal(res.status, 409);
    assert.equal((await errorOf(res)).code, 'button_not_enabled');
    assert.equal((await post(w, { order_ref: 'tee', button_name: 'SberPay' })).status, 201);
  });

  test('no available traders (an amount ending in .13): 503 no_traders, retryable, no session', async () => {
    const w = world();
    const res = await post(w, { order_ref: 'no_traders', method_type: 'SBP' });
    assert.equal(res.status, 503);
    const e = await errorOf(res);
    assert.equal(e.code, 'no_traders');
    assert.equal(e.retryable, true);
    assert.ok(!e.message.includes('traders that match'), 'the shopper gets our message, not the provider text');
  });

  test('anti-fraud: a user_id with three unpaid orders gets 429 rate_limited on the fourth', async () => {
    const w = world();
    for (let i = 0; i < 3; i++) await created(w, { order_ref: 'fraud', method_type: 'SBP' });
    const res = await post(w, { order_ref: 'fraud', method_type: 'SBP' });
    assert.equal(res.status, 429);
    assert.ok(res.headers.get('retry-after'));
    const e = await errorOf(res);
    assert.equal(e.code, 'rate_limited');
    assert.equal(e.retryable, true);
  });

  test('a rate-limited terminal: 429 with Retry-After once the provider limits', async () => {
    const w = world({ key: PRESET_KEYS.rateLimited });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await post(w, { order_ref: 'tee', method_type: 'SBP' })).status);
    assert.ok(statuses.includes(429), statuses.join(','));
    assert.ok(statuses.slice(0, 2).every((s) => s === 201));
  });
});

describe('against the sandbox: webhooks', () => {
  test('a webhook signed with another terminal\'s secret is refused', async () => {
    const w = world();
    const { order } = await created(w, { order_ref: 'tee', method_type: 'SBP' });
    const body = JSON.stringify({ request_id: 'x', webhook_type: 'buy_update', datetime: 'x', payload: { ...order, status: 'Completed', client_order_id: order.client_order_id } });
    const res = await w.handler(
      new Request(`${ENDPOINT}/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-paydesk-signature': signWebhook(w.sandbox.webhookSecret(PRESET_KEYS.withForm), body, Math.floor(Date.now() / 1000)) },
        body,
      }),
    );
    assert.equal(res.status, 401);
  });

  test('API-key mode against the sandbox: its repeated X-API-Key is accepted', async () => {
    const w = world({ handler: { webhookSecrets: [], webhookAuth: 'api_key' } });
    const { session, order } = await created(w, { order_ref: 'tee', method_type: 'SBP' });
    await control(w, `/sandbox/orders/${order.id}/complete`);
    await w.sandbox.webhooks.idle();
    await w.handler.idle();
    assert.equal((await read(w, session)).status, 'paid');
  });
});

describe('against the sandbox: provider faults', () => {
  const isCreate = (req: Request) => req.method === 'POST' && new URL(req.url).pathname === '/api/v1/order/';

  test('provider down: a clear retryable error, and the retry with the same key creates one order', async () => {
    const w = world();
    await w.handler(new Request(`${ENDPOINT}/methods?order_ref=tee`)); // methods cached
    w.fault = async () => {
      throw new TypeError('fetch failed: connect ECONNREFUSED');
    };
    const res = await post(w, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'down' });
    assert.equal(res.status, 503);
    const e = await errorOf(res);
    assert.deepEqual([e.code, e.retryable], ['provider_unavailable', true]);
    w.fault = null;
    assert.equal((await post(w, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'down' })).status, 201);
    assert.equal((await sandboxOrders(w)).length, 1);
  });

  test('slow beyond the timeout: 504 timeout, retryable', async () => {
    const w = world();
    await w.handler(new Request(`${ENDPOINT}/methods?order_ref=tee`));
    w.fault = (_req, _forward, signal) =>
      new Promise((_, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason));
      });
    // The client's timeout timer is unref'd (it never holds a server open); keep this test's loop alive.
    const keepAlive = setInterval(() => undefined, 1000);
    const res = await post(w, { order_ref: 'tee', method_type: 'SBP' }).finally(() => clearInterval(keepAlive));
    assert.equal(res.status, 504);
    const e = await errorOf(res);
    assert.deepEqual([e.code, e.retryable], ['timeout', true]);
  });

  test('5xx, 429 and garbage from the provider are retryable errors with stable codes', async () => {
    const cases: Array<[Response, number, string]> = [
      [new Response('<html>502 Bad Gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }), 502, 'provider_unavailable'],
      [new Response(JSON.stringify({ success: false, message: 'Too many requests' }), { status: 429, headers: { 'retry-after': '7' } }), 429, 'rate_limited'],
      [new Response('this is not json', { status: 200 }), 502, 'invalid_response'],
      [new Response(JSON.stringify({ id: 42 }), { status: 201, headers: { 'content-type': 'application/json' } }), 502, 'invalid_response'],
    ];
    for (const [answer, status, code] of cases) {
      const w = world();
      await w.handler(new Request(`${ENDPOINT}/methods?order_ref=tee`));
      w.fault = async (req, forward) => (isCreate(req) ? answer.clone() : forward());
      const res = await post(w, { order_ref: 'tee', method_type: 'SBP' });
      assert.equal(res.status, status, code);
      const e = await errorOf(res);
      assert.equal(e.code, code);
      assert.equal(e.retryable, true, code);
      if (status === 429) assert.equal(res.headers.get('retry-after'), '7');
    }
  });

  test('the order is created but the answer is lost: the client finds it; exactly one order', async () => {
    const w = world();
    await w.handler(new Request(`${ENDPOINT}/methods?order_ref=tee`));
    let dropped = false;
    w.fault = async (req, forward) => {
      if (isCreate(req) && !dropped) {
        dropped = true;
        await forward(); // the provider creates the order...
        throw new TypeError('fetch failed: socket hang up'); // ...and the answer never arrives
      }
      return forward();
    };
    const res = await post(w, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'lost-1' });
    assert.equal(res.status, 201);
    const orders = await sandboxOrders(w);
    assert.equal(orders.length, 1);
    assert.equal(((await res.json()) as { order: OrderView }).order.id, orders[0]!.id);
  });

  test('answer lost and the lookup fails too: a retryable error; the retry with the same key reuses the order', async () => {
    const w = world();
    await w.handler(new Request(`${ENDPOINT}/methods?order_ref=tee`));
    let phase: 'lose' | 'fail-lookup' | 'ok' = 'lose';
    w.fault = async (req, forward) => {
      if (phase === 'lose' && isCreate(req)) {
        phase = 'fail-lookup';
        await forward();
        throw new TypeError('fetch failed: socket hang up');
      }
      // Every lookup of the client's window fails while the first request runs.
      if (phase === 'fail-lookup' && req.method === 'GET') throw new TypeError('fetch failed: connect ECONNREFUSED');
      return forward();
    };
    const first = await post(w, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'lost-2' });
    phase = 'ok';
    assert.ok(first.status >= 500, String(first.status));
    assert.equal((await errorOf(first)).retryable, true);
    const retry = await post(w, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'lost-2' });
    assert.equal(retry.status, 201);
    const orders = await sandboxOrders(w);
    assert.equal(orders.length, 1, 'never a duplicate order');
    assert.equal(((await retry.json()) as { order: OrderView }).order.id, orders[0]!.id);
  });

  test('the provider key appears in no answer and no log line through all of this', async () => {
    const texts: string[] = [];
    const w = world();
    w.fault = async (req, forward) => (isCreate(req) ? new Response(`internal error for key ${MERCHANT_KEY}`, { status: 500 }) : forward());
    for (const r of [await post(w, { order_ref: 'tee', method_type: 'SBP' }), await w.handler(new Request(`${ENDPOINT}/methods?order_ref=tee`))]) {
      texts.push(await r.text());
    }
    await w.handler.idle();
    assert.ok(w.logs.length > 0);
    assert.ok(!(texts.join('') + w.logs.join('')).includes(MERCHANT_KEY));
  });
});

describe('against the sandbox: every protection', () => {
  const signed = (w: World, body: string, t = Math.floor(Date.now() / 1000)) =>
    new Request(`${ENDPOINT}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paydesk-signature': signWebhook(w.sandbox.webhookSecret(), body, t) },
      body,
    });

  test('a tampered amount in the body: the sandbox order has the server\'s price', async () => {
    const w = world();
    await created(w, { order_ref: 'tee', method_type: 'SBP', amount: '1.00' });
    const [order] = await sandboxOrders(w);
    assert.equal(order!.amount, '1500.00');
  });

  test('missing X-Paydesk, a foreign origin, a form-encoded or oversized body: refused, no sandbox order', async () => {
    const w = world({ handler: { maxBodyBytes: 512 } });
    const json = JSON.stringify({ order_ref: 'tee', method_type: 'SBP' });
    const refused = [
      await w.handler(new Request(`${ENDPOINT}/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: json })),
      await post(w, { order_ref: 'tee', method_type: 'SBP' }, { origin: 'https://evil.example' }),
      await w.handler(
        new Request(`${ENDPOINT}/sessions`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-paydesk': '1' },
          body: 'order_ref=tee&method_type=SBP',
        }),
      ),
      await post(w, { order_ref: 'tee', method_type: 'SBP', pad: 'x'.repeat(1000) }),
    ];
    assert.deepEqual(
      refused.map((r) => r.status),
      [403, 403, 415, 413],
    );
    assert.equal((await sandboxOrders(w)).length, 0);
    assert.equal(w.providerRequests.length, 0, 'not even the method list was asked for');
  });

  test('rate limits per address and per session', async () => {
    const w = world({
      handler: {
        rateLimits: { perAddress: { limit: 3, windowSeconds: 60 }, perSession: { limit: 2, windowSeconds: 60 } },
        getClientAddress: (req) => req.headers.get('x-test-ip') ?? undefined,
      },
    });
    const { session } = await created(w, { order_ref: 'tee', method_type: 'SBP' }, { 'x-test-ip': '10.1.1.1' });
    const get = (ip: string) => w.handler(new Request(`${ENDPOINT}/sessions/${session}`, { headers: { 'x-test-ip': ip } }));
    assert.equal((await get('10.2.2.2')).status, 200);
    assert.equal((await get('10.3.3.3')).status, 200);
    const perSession = await get('10.4.4.4');
    assert.equal(perSession.status, 429);
    assert.ok(perSession.headers.get('retry-after'));
    for (let i = 0; i < 2; i++) await w.handler(new Request(`${ENDPOINT}/methods?order_ref=tee`, { headers: { 'x-test-ip': '10.1.1.1' } }));
    assert.equal((await w.handler(new Request(`${ENDPOINT}/methods?order_ref=tee`, { headers: { 'x-test-ip': '10.1.1.1' } }))).status, 429);
  });

  test('a tampered or foreign token: 401 and no provider request', async () => {
    const w = world();
    const { session } = await created(w, { order_ref: 'tee', method_type: 'SBP' });
    const before = w.providerRequests.length;
    const tampered = session.slice(0, -1) + (session.endsWith('A') ? 'B' : 'A');
    const foreign = (await created(world({ handler: { sessionSecrets: ['someone-else-secret-0123456789abcdef'] } }), { order_ref: 'tee', method_type: 'SBP' })).session;
    for (const t of [tampered, foreign]) {
      assert.equal((await w.handler(new Request(`${ENDPOINT}/sessions/${t}?refresh=1`))).status, 401);
      assert.equal((await w.handler(new Request(`${ENDPOINT}/sessions/${t}/events`))).status, 401);
    }
    assert.equal(w.providerRequests.length, before);
  });

  test('webhook forgery and replay are refused; duplicates and reordering of real deliveries are harmless', async () => {
    const w = world();
    const { session, order } = await created(w, { order_ref: 'tee', method_type: 'SBP' });
    const forgedBody = JSON.stringify({ request_id: 'f', webhook_type: 'buy_update', datetime: 'x', payload: { ...order, status: 'Completed' } });
    const unsigned = await w.handler(new Request(`${ENDPOINT}/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: forgedBody }));
    assert.equal(unsigned.status, 401);
    await control(w, `/sandbox/orders/${order.id}/complete`);
    await w.sandbox.webhooks.idle();
    await w.handler.idle();
    assert.equal((await read(w, session)).status, 'paid');
    const delivered = w.sandbox.webhooks.log().at(-1)!;
    const body = JSON.stringify(delivered.envelope);
    assert.equal((await w.handler(signed(w, body, Math.floor(Date.now() / 1000) - 400))).status, 401, 'a replay from 400 s ago');
    const dupes = await Promise.all(Array.from({ length: 5 }, () => w.handler(signed(w, body))));
    for (const d of dupes) assert.equal(d.status, 200);
    const older = JSON.stringify({ ...delivered.envelope, request_id: 'older', payload: { ...delivered.envelope.payload, status: 'Unpaid' } });
    assert.equal((await w.handler(signed(w, older))).status, 200);
    await w.handler.idle();
    assert.equal((await read(w, session)).status, 'paid');
    assert.equal(w.paid.length, 1);
  });
});

async function firstMethod(w: World, type: string): Promise<PaymentMethod> {
  const res = await w.sandbox.fetch(new Request(`${PROVIDER}/api/v1/finance/payment_methods?active=true`, { headers: { 'X-API-Key': MERCHANT_KEY } }));
  return ((await res.json()) as { payment_methods: PaymentMethod[] }).payment_methods.find((m) => m.method_type === type && m.nspk_code === null)!;
}
