/**
 * Refunds without a browser (issue 31, point 2): a token endpoint and the console over the
 * in-process sandbox, with a test double in front of the provider that can hold payout creates (a
 * slow provider) or refuse them for money (402). The handler lists a purchase paid twice
 * (`handler.doublePayments()`), the console's "To refund" shows it, and a refund makes exactly one
 * payout whatever the double submits and delays; bad input is a 400 naming its field before anything
 * is sent.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { OrderDetailResponse, OrdersPage, PayoutView, RefundResponse, RefundsDueResponse } from '../../../src/console/contract.js';
import type { PayoutMethod } from '../../../src/console/payout-rules.js';
import { createConsole } from '../../../src/console/index.js';
import { shopStateLabel } from '../../../src/console/ui/labels.js';
import { createProviderClient, type ProviderClient } from '../../../src/provider/index.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { createCheckoutHandler, createMemoryStore, type CheckoutHandler, type CheckoutStore } from '../../../src/server/index.js';

const KEY = 'refunds_test_key_0123456789abcdef';
const PROVIDER = 'http://sandbox.test';
const ENDPOINT = 'http://merchant.test/api/paydesk';
const PASSWORD = 'refunds-test-password';
const CARD = '4111 1111 1111 1111';

interface Sell {
  id: string;
  client_order_id: string;
  order_side: string;
  amount: number;
}

describe('refunds: "To refund" and one payout per refund', () => {
  let sandbox: Sandbox;
  let handler: CheckoutHandler;
  let client: ProviderClient;
  let api: (path: string, init?: RequestInit) => Promise<Response>;
  let cookie = '';
  /** While true, payout creates are held (no answer: the client times out) until `land()`. */
  let slow = false;
  let refuse = false;
  let creates = 0;
  let held: Array<() => Promise<void>> = [];

  const toSandbox = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const req = new Request(input, init);
    if (req.method === 'POST' && new URL(req.url).pathname === '/api/v1/order/') {
      const body = await req.clone().text();
      if ((JSON.parse(body) as { order_side?: string }).order_side === 'Sell') {
        creates++;
        if (refuse) return Response.json({ success: false, message: 'Insufficient funds' }, { status: 402 });
        if (slow) {
          const late = new Request(req.url, { method: 'POST', headers: req.headers, body });
          held.push(async () => void (await sandbox.fetch(late)));
          const signal = init?.signal ?? req.signal;
          return new Promise<Response>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
        }
      }
    }
    return sandbox.fetch(req);
  };
  const land = async () => {
    const due = held;
    held = [];
    for (const go of due) await go();
  };

  /**
   * The console's store, counting its reads of refunds (the per-order index `console:refunds-of:…`
   * and the records `console:refund:…`) by key.
   */
  const reads = new Map<string, number>();
  const memory = createMemoryStore();
  const count = (key: string) => {
    if (key.startsWith('console:refunds-of:') || key.startsWith('console:refund:')) reads.set(key, (reads.get(key) ?? 0) + 1);
  };
  const store: CheckoutStore = Object.assign(Object.create(memory) as CheckoutStore, {
    get: (key: string) => {
      count(key);
      return memory.get(key);
    },
    indexRange: (index: string, options: Parameters<CheckoutStore['indexRange']>[1]) => {
      count(index);
      return memory.indexRange(index, options);
    },
  });

  const alive = setInterval(() => undefined, 60_000);

  before(async () => {
    sandbox = createSandbox({ apiKey: KEY, sweepIntervalMs: 0, webhookUrl: `${ENDPOINT}/webhooks`, webhookRetryDelaysMs: [], fetch: (i, init) => handler(new Request(i, init)) });
    client = createProviderClient({ baseUrl: PROVIDER, apiKey: KEY, fetch: toSandbox, maxRetries: 0, timeoutMs: 300, lookupWindowMs: 300 });
    handler = createCheckoutHandler({
      provider: { client, apiKey: KEY },
      resolveOrder: (ref) => (ref.startsWith('cart_') ? { amount: '3000.00' } : null),
      sessionSecrets: ['refunds-test-session-secret-0123456789abcdef'],
      webhookUrl: `${ENDPOINT}/webhooks`,
      webhookSecrets: [sandbox.webhookSecret(KEY)],
      onOrderPaid: () => undefined,
      reconcileIntervalSeconds: 0,
      logger: { warn: () => undefined, error: () => undefined },
    });
    const paydeskConsole = createConsole({ client, handler, store, password: PASSWORD, payoutWaitMs: 1_000, logError: () => undefined, audit: () => undefined });
    api = (path, init) => paydeskConsole.fetch(new Request(`http://merchant.test/console/api${path}`, init));
    const login = await api('/login', { method: 'POST', headers: { 'content-type': 'application/json', 'x-paydesk': '1' }, body: JSON.stringify({ password: PASSWORD }) });
    assert.equal(login.status, 204);
    cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  });

  beforeEach(() => {
    slow = false;
    refuse = false;
    creates = 0;
    held = [];
  });

  after(async () => {
    clearInterval(alive);
    await handler?.close();
    await sandbox?.close();
  });

  /** An order of `cart` made through the token endpoint, as the widget makes it. */
  const buy = async (cart: string) => {
    const res = await handler(
      new Request(`${ENDPOINT}/sessions`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-paydesk': '1' }, body: JSON.stringify({ order_ref: cart, method_type: 'SBP' }) }),
    );
    assert.equal(res.status, 201, await res.clone().text());
    return ((await res.json()) as { order: { id: string; client_order_id: string } }).order;
  };
  const complete = async (id: string) => {
    const res = await sandbox.fetch(new Request(`${PROVIDER}/sandbox/orders/${id}/complete`, { method: 'POST', headers: { 'X-API-Key': KEY } }));
    assert.equal(res.status, 200, await res.text());
    await handler.reconcile();
  };
  const paidOrder = async () => {
    const o = await buy(`cart_${Math.random().toString(36).slice(2, 18).padEnd(16, 'x')}`);
    await complete(o.id);
    return o;
  };
  const refund = async (body: unknown, key?: string) => {
    const res = await api('/refunds', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paydesk': '1', cookie, ...(key && { 'idempotency-key': key }) },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const sellsOf = async (orderId: string): Promise<Sell[]> => {
    const list = await client.listOrders({ order_side: 'Sell', size: 100 });
    return list.items.filter((o) => o.client_order_id.startsWith(`refund-${orderId}-`)) as unknown as Sell[];
  };
  const get = async <T>(path: string): Promise<T> => {
    const res = await api(path, { headers: { cookie } });
    assert.equal(res.status, 200, path);
    return (await res.json()) as T;
  };
  /** The payout method of a bank's SBP (`СБП — ВТБ`, …) or card, as the console lists them. */
  const payoutMethod = async (type: 'SBP' | 'BankCard', nspk: string) => {
    const m = (await get<{ methods: PayoutMethod[] }>('/payout-methods')).methods.find((x) => x.type === type && x.nspk_code === nspk);
    assert.ok(m, `${type} ${nspk} makes payouts`);
    return m;
  };
  const VTB = 'bank100000000005';

  test('a cart paid by two orders: the handler lists the second as a double payment, "To refund" shows it, a refund takes it off', async () => {
    const cart = 'cart_doublepaid0000001';
    const first = await buy(cart);
    const second = await buy(cart);
    await complete(first.id);
    await complete(second.id);
    const doubles = (await handler.doublePayments()).filter((d) => d.purchase === cart);
    assert.equal(doubles.length, 1);
    assert.deepEqual([doubles[0]!.order_id, doubles[0]!.first.order_id, doubles[0]!.amount, doubles[0]!.late], [second.id, first.id, '3000.00', false]);

    const due = await get<RefundsDueResponse>('/refunds/due');
    const item = due.items.find((i) => i.order_id === second.id);
    assert.ok(item, 'the second order is to refund');
    assert.deepEqual([item.reason, item.amount, item.paid, item.refunded, item.first_order_id], ['double_payment', '3000.00', '3000.00', '0.00', first.id]);
    assert.ok(!due.items.some((i) => i.order_id === first.id), 'the order fulfilled is not');

    const made = await refund({ order_id: second.id, account: '+7 999 123-45-67', payment_method_id: (await payoutMethod('SBP', VTB)).id }, 'refund-double-1');
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const r = (made.body as RefundResponse).refund;
    assert.deepEqual([r.order_id, r.amount, r.currency, r.account_kind], [second.id, '3000.00', 'RUB', 'phone']);
    assert.ok(r.payout_id && ['pending', 'paid'].includes(r.status));
    assert.ok(!(await get<RefundsDueResponse>('/refunds/due')).items.some((i) => i.order_id === second.id), 'refunded: off the list');

    // Linked both ways: the order lists its refund, the payout names its order.
    const page = await get<OrderDetailResponse>(`/orders/${second.id}`);
    assert.deepEqual(
      page.order.refunds.map((x) => [x.id, x.payout_id, x.amount]),
      [[r.id, r.payout_id, '3000.00']],
    );
    assert.deepEqual(page.order.refundable, { paid: '3000.00', amount: '0.00', currency: 'RUB' });
    const payouts = await get<{ items: PayoutView[] }>('/payouts?size=100');
    assert.equal(payouts.items.find((p) => p.id === r.payout_id)?.refund_of, second.id);
  });

  test('the shop state of a cart paid twice: the second order is "paid twice" (never fulfilled) in the list and on its page, before and after its refund', async () => {
    const cart = 'cart_doublestate000001';
    const first = await buy(cart);
    const second = await buy(cart);
    await complete(first.id);
    await complete(second.id);
    const stateOf = async (id: string) => {
      const row = (await get<OrdersPage>(`/orders?q=${cart}&size=50`)).items.find((x) => x.id === id);
      const page = (await get<OrderDetailResponse>(`/orders/${id}`)).order.shop;
      assert.deepEqual(row?.shop?.double_payment ?? null, page?.double_payment ?? null, 'the list and the page agree');
      return { double: page!.double_payment, fulfilment: page!.fulfilment.state };
    };
    // onOrderPaid ran for both; only the first is the purchase's.
    assert.deepEqual(await stateOf(first.id), { double: null, fulfilment: 'done' });
    assert.deepEqual(await stateOf(second.id), { double: { first_order_id: first.id, refund: 'due' }, fulfilment: 'done' });
    assert.equal(shopStateLabel('en', (await get<OrderDetailResponse>(`/orders/${second.id}`)).order.shop!).text, 'Paid twice — refund due');

    const made = await refund({ order_id: second.id, account: '+7 999 123-45-68', payment_method_id: (await payoutMethod('SBP', VTB)).id }, 'refund-double-state');
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const payout = (made.body as RefundResponse).refund.payout_id!;
    const now = await stateOf(second.id);
    assert.ok(now.double && ['sending', 'refunded'].includes(now.double.refund), JSON.stringify(now));
    const done = await sandbox.fetch(new Request(`${PROVIDER}/sandbox/orders/${payout}/complete`, { method: 'POST', headers: { 'X-API-Key': KEY } }));
    assert.ok([200, 409].includes(done.status), await done.text());
    assert.deepEqual(await stateOf(second.id), { double: { first_order_id: first.id, refund: 'refunded' }, fulfilment: 'done' });
    const shop = (await get<OrderDetailResponse>(`/orders/${second.id}`)).order.shop!;
    assert.deepEqual([shopStateLabel('en', shop).text, shopStateLabel('ru', shop).text], ['Paid twice — refunded', 'Оплачен дважды — возвращено']);
    assert.equal(shopStateLabel('en', (await get<OrderDetailResponse>(`/orders/${first.id}`)).order.shop!).text, 'Paid, fulfilled');
  });

  test('an expired order paid late after the shopper paid its renewal (one createSession purchase): listed as a late payment', async () => {
    const purchase = 'checkout-late-renewal-1';
    const input = { order_ref: 'cart_laterenewal000001', method_type: 'SBP' };
    const a = await handler.createSession(input, undefined, { purchase });
    const expired = await sandbox.fetch(new Request(`${PROVIDER}/sandbox/orders/${a.order.id}/expire`, { method: 'POST', headers: { 'X-API-Key': KEY } }));
    assert.equal(expired.status, 200, await expired.text());
    await handler.reconcile();
    const b = await handler.createSession(input, undefined, { purchase });
    assert.notEqual(b.order.id, a.order.id, 'the renewal is a new order of the purchase');
    await complete(b.order.id);
    const late = await sandbox.fetch(
      new Request(`${PROVIDER}/sandbox/orders/${a.order.id}/complete`, { method: 'POST', headers: { 'X-API-Key': KEY, 'content-type': 'application/json' }, body: '{"late": true}' }),
    );
    assert.equal(late.status, 200, await late.text());
    await handler.reconcile();
    const doubles = (await handler.doublePayments()).filter((d) => d.purchase === purchase);
    assert.deepEqual(
      doubles.map((d) => [d.order_id, d.late, d.first.order_id]),
      [[a.order.id, true, b.order.id]],
    );
    const item = (await get<RefundsDueResponse>('/refunds/due')).items.find((i) => i.order_id === a.order.id);
    assert.equal(item?.reason, 'late_payment');

    // Two purchases of one order_ref (two shoppers of one product page), each paid once: no double payment.
    const one = await handler.createSession({ order_ref: 'cart_sameproduct00001', method_type: 'SBP' }, undefined, { purchase: 'checkout-shopper-1' });
    const two = await handler.createSession({ order_ref: 'cart_sameproduct00001', method_type: 'SBP' }, undefined, { purchase: 'checkout-shopper-2' });
    await complete(one.order.id);
    await complete(two.order.id);
    assert.deepEqual((await handler.doublePayments()).filter((d) => [one.order.id, two.order.id].includes(d.order_id)), []);
  });

  test('bad input is a 400 naming the field, and nothing is sent', async () => {
    const paid = await paidOrder();
    const unpaid = await buy('cart_notpaid000000001');
    const cases: Array<[unknown, string]> = [
      [{ order_id: paid.id, account: '12345' }, 'account'],
      [{ order_id: paid.id, account: '4111 1111 1111 1112' }, 'account'],
      [{ order_id: paid.id, account: '4111 1111 1111 1112', method_type: 'BankCard' }, 'account'],
      // A method named that pays out to another kind of account: the method is at fault.
      [{ order_id: paid.id, account: '4111 1111 1111 1111', method_type: 'SBP' }, 'method_type'],
      [{ order_id: paid.id, account: '4111 1111 1111 1111', payment_method_id: (await payoutMethod('SBP', VTB)).id }, 'payment_method_id'],
      [{ order_id: paid.id, account: '+7 999 123-45-67', payment_method_id: (await payoutMethod('BankCard', VTB)).id }, 'payment_method_id'],
      [{ order_id: paid.id, account: '+7 999 123-45-67', method_type: 'BankCard' }, 'method_type'],
      // A phone without its bank, while four banks pay out by SBP.
      [{ order_id: paid.id, account: '+7 999 123-45-67' }, 'payment_method_id'],
      [{ order_id: paid.id, account: '+7 999 123-45-67', method_type: 'SBP' }, 'payment_method_id'],
      [{ order_id: paid.id, account: '+998 90 123 45 67', payment_method_id: (await payoutMethod('SBP', VTB)).id }, 'account'],
      [{ order_id: paid.id, account: CARD, amount: '100' }, 'amount'],
      [{ order_id: paid.id, account: CARD, amount: '100.5' }, 'amount'],
      [{ order_id: paid.id, account: CARD, amount: 100 }, 'amount'],
      [{ order_id: paid.id, account: CARD, amount: '0.00' }, 'amount'],
      [{ order_id: paid.id, account: CARD, amount: '3000.01' }, 'amount'],
      [{ order_id: unpaid.id, account: CARD }, 'order_id'],
      [{ order_id: '../etc', account: CARD }, 'order_id'],
      [{ order_id: paid.id, account: CARD, method_type: 'BankCard', payment_method_id: 'x' }, 'method_type'],
      [{ order_id: paid.id, account: CARD, payment_method_id: 'no-such-method' }, 'payment_method_id'],
      [{ order_id: paid.id, account: CARD, extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await refund(body);
      assert.equal(res.status, 400, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.field, field, JSON.stringify(body));
    }
    const badKey = await refund({ order_id: paid.id, account: CARD }, 'has space');
    assert.equal(badKey.body.error.field, 'Idempotency-Key');
    assert.equal(creates, 0, 'no payout was asked for');
    assert.deepEqual(await sellsOf(paid.id), []);
  });

  test('a phone refund without its bank is refused, naming the banks that pay out by SBP; nothing is sent', async () => {
    const paid = await paidOrder();
    const methods = (await get<{ methods: PayoutMethod[] }>('/payout-methods')).methods.filter((m) => m.type === 'SBP');
    assert.deepEqual(methods.map((m) => m.name).sort(), ['СБП — ВТБ', 'СБП — Альфа-Банк', 'СБП — Сбербанк', 'СБП — Т-Банк'].sort(), 'the sandbox: four banks pay out by SBP');
    for (const body of [{ order_id: paid.id, account: '+7 999 123-45-67' }, { order_id: paid.id, account: '8 999 123 45 67', method_type: 'SBP' }]) {
      const res = await refund(body, `no-bank-${body.account.length}`);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.deepEqual([res.body.error.code, res.body.error.field], ['validation_failed', 'payment_method_id']);
      assert.match(res.body.error.message, /shopper’s bank/);
      for (const m of methods) assert.ok(res.body.error.message.includes(`${m.id} (${m.name})`), `the message lists ${m.name}`);
    }
    const wrong = await refund({ order_id: paid.id, account: '+7 999 123-45-67', payment_method_id: (await payoutMethod('BankCard', VTB)).id });
    assert.match(wrong.body.error.message, /Карта — ВТБ pays out to a card number, and the account is a phone number/);
    assert.equal(creates, 0, 'no payout was asked for');
    assert.deepEqual(await sellsOf(paid.id), []);
    assert.deepEqual((await get<OrderDetailResponse>(`/orders/${paid.id}`)).order.refunds, [], 'no refund recorded');
  });

  test('a phone refund to the bank named (VTB) makes one Sell order with VTB’s SBP method, whatever the double submits', async () => {
    const paid = await paidOrder();
    const vtb = await payoutMethod('SBP', VTB);
    const body = { order_id: paid.id, account: '+7 999 555-44-33', amount: '1000.00', payment_method_id: vtb.id };
    const [a, b] = await Promise.all([refund(body, 'phone-vtb-1'), refund(body, 'phone-vtb-1')]);
    assert.deepEqual([a.status, b.status].sort(), [200, 201], JSON.stringify([a.body, b.body]));
    assert.deepEqual(a.body.refund.method, { id: vtb.id, name: 'СБП — ВТБ', type: 'SBP' });
    const sells = await sellsOf(paid.id);
    assert.equal(sells.length, 1, 'one payout');
    assert.equal(creates, 1);
    const payout = await client.getOrder(sells[0]!.id);
    assert.deepEqual([payout.order_side, payout.method_id, payout.method_name, payout.customer_account], ['Sell', vtb.id, 'СБП — ВТБ', '+79995554433']);
    // The same phone and amount with another bank is another payout: a new key, never the same one.
    const again = await refund({ ...body, payment_method_id: (await payoutMethod('SBP', 'bank100000000111')).id }, 'phone-vtb-1');
    assert.equal(again.status, 409, JSON.stringify(again.body));
    // A retry under the same key that names no bank is that refund (its bank recorded), not a 400.
    const { payment_method_id: _named, ...unnamed } = body;
    const retry = await refund(unnamed, 'phone-vtb-1');
    assert.equal(retry.status, 200, JSON.stringify(retry.body));
    assert.equal(retry.body.replayed, true);
    assert.equal(retry.body.refund.payout_id, a.body.refund.payout_id);
    assert.equal((await sellsOf(paid.id)).length, 1);
  });

  test('a keyed refund reads the order’s stored refunds once: its first request and its retry (naming no bank) each read them once', async () => {
    const paid = await paidOrder();
    const vtb = await payoutMethod('SBP', VTB);
    const readsOf = () => ({ index: reads.get(`console:refunds-of:${paid.id}`) ?? 0, records: [...reads].filter(([k]) => k.startsWith(`console:refund:${paid.id}:`)).reduce((n, [, v]) => n + v, 0) });
    reads.clear();
    const made = await refund({ order_id: paid.id, account: '+7 999 321-00-11', payment_method_id: vtb.id }, 'reads-once-1');
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.deepEqual(readsOf(), { index: 1, records: 0 }, 'the first request: the index read once, no refund in it yet');
    reads.clear();
    const retry = await refund({ order_id: paid.id, account: '+7 999 321-00-11' }, 'reads-once-1');
    assert.equal(retry.status, 200, JSON.stringify(retry.body));
    assert.deepEqual([retry.body.replayed, retry.body.refund.method.id], [true, vtb.id], 'replayed with its recorded bank');
    assert.deepEqual(readsOf(), { index: 1, records: 1 }, 'the retry: the index and its one refund read once');
    assert.equal((await sellsOf(paid.id)).length, 1);
  });

  test('a partial refund, then the rest; more than is left is refused', async () => {
    const paid = await paidOrder();
    const part = await refund({ order_id: paid.id, account: CARD, amount: '1000.00' }, 'partial-1');
    assert.equal(part.status, 201, JSON.stringify(part.body));
    const tooMuch = await refund({ order_id: paid.id, account: CARD, amount: '2000.01' }, 'partial-2');
    assert.equal(tooMuch.status, 400);
    assert.equal(tooMuch.body.error.field, 'amount');
    assert.match(tooMuch.body.error.message, /2000\.00/);
    const rest = await refund({ order_id: paid.id, account: CARD }, 'partial-3');
    assert.equal(rest.status, 201, JSON.stringify(rest.body));
    assert.equal(rest.body.refund.amount, '2000.00');
    assert.equal((await sellsOf(paid.id)).length, 2);
  });

  test('a double submit makes one payout: at once, and again later (200, the same refund)', async () => {
    const paid = await paidOrder();
    const body = { order_id: paid.id, account: CARD, amount: '1000.00' };
    const [a, b] = await Promise.all([refund(body, 'double-submit-1'), refund(body, 'double-submit-1')]);
    const statuses = [a.status, b.status].sort();
    assert.ok(statuses[0] === 200 || statuses[0] === 201, JSON.stringify([a.body, b.body]));
    assert.equal(a.body.refund.payout_id, b.body.refund.payout_id);
    const again = await refund(body, 'double-submit-1');
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.replayed, true);
    assert.equal(again.body.refund.payout_id, a.body.refund.payout_id);
    // Without a key, the same amount to the same account is the same refund.
    const plain = { order_id: paid.id, account: CARD, amount: '1100.00' };
    const p1 = await refund(plain);
    const p2 = await refund(plain);
    assert.deepEqual([p1.status, p2.status], [201, 200]);
    assert.equal(p1.body.refund.payout_id, p2.body.refund.payout_id);
    assert.equal((await sellsOf(paid.id)).length, 2, 'one payout per refund');
    assert.equal(creates, 2);
    const other = await refund({ ...body, amount: '1050.00' }, 'double-submit-1');
    assert.equal(other.status, 409);
    assert.equal(other.body.error.code, 'idempotency_key_reused');
  });

  test('a slow provider: 502, then 409 payout_in_progress sending nothing, then the one payout once it landed', async () => {
    const paid = await paidOrder();
    const body = { order_id: paid.id, account: CARD };
    slow = true;
    const first = await refund(body, 'slow-1');
    assert.equal(first.status, 502, JSON.stringify(first.body));
    assert.equal(first.body.error.code, 'payout_unconfirmed');
    const again = await refund(body, 'slow-1');
    assert.equal(again.status, 409, JSON.stringify(again.body));
    assert.equal(again.body.error.code, 'payout_in_progress');
    assert.equal(creates, 1, 'the second submit sent nothing');
    // While it may land, the order has nothing left to refund: another refund is refused.
    const another = await refund(body, 'slow-2');
    assert.equal(another.status, 400);
    assert.equal(another.body.error.field, 'amount');
    const page = await get<OrderDetailResponse>(`/orders/${paid.id}`);
    assert.deepEqual(page.order.refunds.map((r) => r.status), ['sending']);

    await land();
    slow = false;
    const after = await refund(body, 'slow-1');
    assert.equal(after.status, 200, JSON.stringify(after.body));
    assert.equal(after.body.replayed, true);
    const sells = await sellsOf(paid.id);
    assert.equal(sells.length, 1);
    assert.equal(after.body.refund.payout_id, sells[0]!.id);
    assert.equal(creates, 1);
  });

  test('the balance too low: 402 insufficient_funds said plainly, no refund recorded, nothing made', async () => {
    const paid = await paidOrder();
    refuse = true;
    const res = await refund({ order_id: paid.id, account: CARD }, 'poor-1');
    assert.equal(res.status, 402, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'insufficient_funds');
    assert.match(res.body.error.message, /balance is lower/);
    assert.deepEqual(await sellsOf(paid.id), []);
    const page = await get<OrderDetailResponse>(`/orders/${paid.id}`);
    assert.deepEqual(page.order.refunds, []);
    assert.equal(page.order.refundable?.amount, '3000.00');
  });
});
