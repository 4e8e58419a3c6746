import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  BalanceResponseSchema,
  DisputeSearchResponseSchema,
  FormSearchResponseSchema,
  OrdersResponseSchema,
  PaymentMethodsResponseSchema,
  TransactionsResponseSchema,
} from '../../../src/provider/schemas.js';
import { compareAmounts } from '../../../src/money/index.js';
import { OrderColumns, compareByAmount } from '../../../src/sandbox/columns.js';
import type { OrderRecord } from '../../../src/sandbox/records.js';
import { START, buyOrder, makeSandbox, methodId } from './helpers.js';

const DAY = 24 * 3600 * 1000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('order list', () => {
  const t = makeSandbox();
  after(() => t.close());

  test('defaults: page 1, size 10, the last 24 hours, newest first, envelope inside orders', async () => {
    const r = await t.get('/api/v1/order/');
    assert.equal(r.status, 200);
    assert.ok(OrdersResponseSchema.safeParse(r.json).success);
    const { orders } = r.json;
    assert.equal(orders.page, 1);
    assert.equal(orders.size, 10);
    assert.equal(orders.items.length, 10);
    assert.ok(orders.total >= 21, 'the seeded history fills several pages');
    assert.equal(orders.pages, Math.ceil(orders.total / 10));
    const times = orders.items.map((o: { created_at: string }) => Date.parse(o.created_at));
    for (const time of times) assert.ok(time >= START - DAY && time <= START);
    assert.deepEqual(times, [...times].sort((a, b) => b - a));
  });

  test('start_date and end_date widen the period (the seeded history spans 30 days)', async () => {
    const recent = (await t.get('/api/v1/order/')).json.orders.total;
    const month = (await t.get(`/api/v1/order/?start_date=${iso(START - 31 * DAY)}&end_date=${iso(START)}`)).json.orders.total;
    assert.ok(month > recent);
    const old = await t.get(`/api/v1/order/?start_date=${iso(START - 31 * DAY)}&end_date=${iso(START - DAY - 1)}&size=100`);
    assert.equal(old.json.orders.total, month - recent);
    for (const o of old.json.orders.items) assert.ok(Date.parse(o.created_at) < START - DAY);
  });

  test('a date without a zone is read as UTC', async () => {
    const withZone = (await t.get(`/api/v1/order/?start_date=2025-02-28T12:00:00Z`)).json.orders.total;
    const withoutZone = (await t.get(`/api/v1/order/?start_date=2025-02-28T12:00:00`)).json.orders.total;
    assert.equal(withoutZone, withZone);
  });

  test('status, order_side and payment_method_id filter', async () => {
    const all = (await t.get(`/api/v1/order/?size=100&start_date=${iso(START - 31 * DAY)}`)).json.orders.items as {
      status: string;
      order_side: string;
      method_id: string;
      initial_method_id: string;
    }[];
    for (const status of ['Completed', 'CanceledByTimeout']) {
      const r = await t.get(`/api/v1/order/?size=100&status=${status}&start_date=${iso(START - 31 * DAY)}`);
      assert.equal(r.json.orders.total, all.filter((o) => o.status === status).length);
      assert.ok(r.json.orders.total > 0);
    }
    const sells = await t.get(`/api/v1/order/?size=100&order_side=Sell&start_date=${iso(START - 31 * DAY)}`);
    assert.equal(sells.json.orders.total, all.filter((o) => o.order_side === 'Sell').length);
    const sbp = methodId('sbp');
    const byMethod = await t.get(`/api/v1/order/?size=100&payment_method_id=${sbp}&start_date=${iso(START - 31 * DAY)}`);
    assert.equal(byMethod.json.orders.total, all.filter((o) => o.method_id === sbp || o.initial_method_id === sbp).length);
  });

  test('sort_by amount in both directions', async () => {
    for (const sort of ['asc', 'desc'] as const) {
      const r = await t.get(`/api/v1/order/?size=100&sort_by=amount&sort=${sort}&start_date=${iso(START - 31 * DAY)}`);
      const amounts: string[] = r.json.orders.items.map((o: { amount: string }) => o.amount);
      const sorted = [...amounts].sort((a, b) => (sort === 'asc' ? compareAmounts(a, b) : compareAmounts(b, a)));
      assert.deepEqual(amounts, sorted);
    }
  });

  test('sort asc by created_at gives the oldest first', async () => {
    const r = await t.get('/api/v1/order/?sort=asc');
    const times = r.json.orders.items.map((o: { created_at: string }) => Date.parse(o.created_at));
    assert.deepEqual(times, [...times].sort((a, b) => a - b));
  });

  test('a page past the end is empty but keeps the totals', async () => {
    const r = await t.get('/api/v1/order/?page=50');
    assert.equal(r.json.orders.items.length, 0);
    assert.equal(r.json.orders.page, 50);
    assert.ok(r.json.orders.total > 0);
  });

  test('pages do not overlap and together give every order', async () => {
    const total = (await t.get('/api/v1/order/')).json.orders.total;
    const ids = new Set<string>();
    for (let page = 1; page <= Math.ceil(total / 7); page++) {
      for (const o of (await t.get(`/api/v1/order/?size=7&page=${page}`)).json.orders.items) ids.add(o.id);
    }
    assert.equal(ids.size, total);
  });

  for (const [query, field] of [
    ['size=101', 'size'],
    ['size=0', 'size'],
    ['page=0', 'page'],
    ['page=abc', 'page'],
    ['status=Lost', 'status'],
    ['sort=up', 'sort'],
    ['sort_by=fee', 'sort_by'],
    ['order_side=buy', 'order_side'],
    ['start_date=yesterday', 'start_date'],
    ['start_date=1', 'start_date'],
    ['end_date=12%2F31%2F2024', 'end_date'],
    ['end_date=2025-02-30', 'end_date'],
    ['page=1&page=2', 'page'],
    ['status=Unpaid&status=Completed', 'status'],
  ]) {
    test(`${query} answers 422 naming ${field}`, async () => {
      const r = await t.get(`/api/v1/order/?${query}`);
      assert.equal(r.status, 422);
      assert.equal(r.json.success, false);
      assert.match(r.json.message, new RegExp(field!));
    });
  }

  test('a space for T, an offset, and an unencoded + (read as a space) all name the same instant', async () => {
    const total = async (start: string) => (await t.get(`/api/v1/order/?size=1&start_date=${start}`)).json.orders.total as number;
    const utc = await total('2025-02-28T12:00:00Z');
    assert.equal(await total('2025-02-28%2012:00:00'), utc, 'space for T, no zone: UTC');
    assert.equal(await total('2025-02-28T15:00:00%2B03:00'), utc, 'an offset');
    assert.equal(await total('2025-02-28T15:00:00+03:00'), utc, 'a + that arrives as a space');
  });

  test('a parameter given twice is refused as such, not as a strange number', async () => {
    const r = await t.get('/api/v1/order/?page=1&page=2');
    assert.match(r.json.message, /page: must be given once/);
    const search = await t.get('/api/v1/order/search-by-client-order-id?id=a&id=b');
    assert.equal(search.status, 422);
    assert.match(search.json.message, /id: must be given once/);
  });

  test('size 100 is allowed', async () => {
    assert.equal((await t.get('/api/v1/order/?size=100')).status, 200);
  });

  test('a legacy status filter is accepted and matches nothing', async () => {
    const r = await t.get('/api/v1/order/?status=Processing');
    assert.equal(r.status, 200);
    assert.equal(r.json.orders.total, 0);
  });

  test('parameters the endpoint does not know are ignored', async () => {
    assert.equal((await t.get('/api/v1/order/?cache_buster=1')).status, 200);
  });
});

describe('orders by client order id', () => {
  const t = makeSandbox({ seed: false });
  after(() => t.close());

  test('all orders with the id, newest first, page always 1', async () => {
    await t.post('/api/v1/order/', buyOrder({ client_order_id: 'dup' }));
    t.sandbox.clock.advance(5);
    await t.post('/api/v1/order/', buyOrder({ client_order_id: 'dup' }));
    const r = await t.get('/api/v1/order/search-by-client-order-id?id=dup&page=3');
    assert.equal(r.status, 200);
    assert.ok(OrdersResponseSchema.safeParse(r.json).success);
    assert.equal(r.json.orders.page, 1);
    assert.equal(r.json.orders.total, 2);
    assert.ok(Date.parse(r.json.orders.items[0].created_at) > Date.parse(r.json.orders.items[1].created_at));
    const one = await t.get('/api/v1/order/search-by-client-order-id?id=dup&size=1');
    assert.equal(one.json.orders.items.length, 1);
    assert.equal(one.json.orders.size, 1);
  });

  test('finds orders older than 24 hours too', async () => {
    await t.post('/api/v1/order/', buyOrder({ client_order_id: 'old' }));
    t.sandbox.clock.advance(3 * 24 * 3600);
    assert.equal((await t.get('/api/v1/order/search-by-client-order-id?id=old')).json.orders.total, 1);
  });

  test('without id answers 422', async () => {
    const r = await t.get('/api/v1/order/search-by-client-order-id');
    assert.equal(r.status, 422);
    assert.match(r.json.message, /id/);
  });

  test('size over 100 answers 422', async () => {
    assert.equal((await t.get('/api/v1/order/search-by-client-order-id?id=x&size=101')).status, 422);
  });
});

describe('form session list', () => {
  const t = makeSandbox();
  after(() => t.close());

  test('defaults: envelope at the top level, size 10, several pages, newest first', async () => {
    const r = await t.get('/api/v1/form/search');
    assert.ok(FormSearchResponseSchema.safeParse(r.json).success);
    assert.equal(r.json.size, 10);
    assert.equal(r.json.page, 1);
    assert.ok(r.json.pages >= 2);
    const s = r.json.items[0];
    assert.match(s.amount, /^\d+\.\d{5}$/);
    assert.match(s.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  test('filters: session_id, order_id, client_order_id, state, currency', async () => {
    const all = (await t.get('/api/v1/form/search?size=100')).json.items;
    const withOrder = all.find((s: { order_id: string | null }) => s.order_id !== null);
    assert.equal((await t.get(`/api/v1/form/search?session_id=${withOrder.session_id}`)).json.total, 1);
    assert.equal((await t.get(`/api/v1/form/search?order_id=${withOrder.order_id}`)).json.items[0].session_id, withOrder.session_id);
    assert.equal((await t.get(`/api/v1/form/search?client_order_id=${withOrder.client_order_id}`)).json.total, 1);
    const expired = all.filter((s: { state: string }) => s.state === 'expired').length;
    assert.equal((await t.get('/api/v1/form/search?state=expired&size=100')).json.total, expired);
    assert.equal((await t.get('/api/v1/form/search?currency=RUB')).json.total, all.length);
  });

  test('terminal_id of another terminal finds nothing', async () => {
    const other = (await t.get('/sandbox/terminal', 'sandbox_with_form')).json.terminal.terminal_id;
    assert.equal((await t.get(`/api/v1/form/search?terminal_id=${other}`)).json.total, 0);
  });

  test('an unknown state or currency answers 422', async () => {
    assert.equal((await t.get('/api/v1/form/search?state=lost')).status, 422);
    assert.equal((await t.get('/api/v1/form/search?currency=XYZ')).status, 422);
  });
});

describe('dispute list', () => {
  const t = makeSandbox();
  after(() => t.close());

  test('defaults: envelope inside data, size 10, several pages', async () => {
    const r = await t.get('/api/v1/disputes/search');
    assert.ok(DisputeSearchResponseSchema.safeParse(r.json).success);
    assert.equal(r.json.success, true);
    assert.equal(r.json.data.size, 10);
    assert.ok(r.json.data.pages >= 2);
    assert.match(r.json.data.items[0].created_at, /\.\d{3}Z$/);
    assert.equal(typeof r.json.data.items[0].amount, 'number');
  });

  test('processed, dispute_id and dates filter', async () => {
    const all = (await t.get('/api/v1/disputes/search?size=100')).json.data.items as { processed: boolean; dispute_id: string; created_at: string }[];
    for (const processed of [true, false]) {
      const r = await t.get(`/api/v1/disputes/search?size=100&processed=${processed}`);
      assert.equal(r.json.data.total, all.filter((d) => d.processed === processed).length);
    }
    assert.equal((await t.get(`/api/v1/disputes/search?dispute_id=${all[0]!.dispute_id}`)).json.data.total, 1);
    const cut = START - 7 * DAY;
    const recent = await t.get(`/api/v1/disputes/search?size=100&start_date=${iso(cut)}`);
    assert.equal(recent.json.data.total, all.filter((d) => Date.parse(d.created_at) >= cut).length);
    const older = await t.get(`/api/v1/disputes/search?size=100&end_date=${iso(cut)}`);
    assert.equal(older.json.data.total, all.filter((d) => Date.parse(d.created_at) <= cut).length);
  });

  test('processed must be true or false', async () => {
    assert.equal((await t.get('/api/v1/disputes/search?processed=maybe')).status, 422);
  });
});

describe('transaction list', () => {
  const t = makeSandbox();
  after(() => t.close());

  test('defaults: envelope at the top level, size 20, several pages, newest first', async () => {
    const r = await t.get('/api/v1/finance/transactions');
    assert.ok(TransactionsResponseSchema.safeParse(r.json).success);
    assert.equal(r.json.size, 20);
    assert.ok(r.json.pages >= 2);
    const times = r.json.items.map((x: { created_at: string }) => Date.parse(x.created_at));
    assert.deepEqual(times, [...times].sort((a, b) => b - a));
    const balance = (await t.get('/api/v1/finance/balance')).json.deposit;
    assert.equal(r.json.items[0].deposit_id, balance.id);
  });

  test('transaction_type and dates filter', async () => {
    const all = (await t.get('/api/v1/finance/transactions?size=100')).json.items as { transaction_type: string; created_at: string }[];
    for (const type of ['deposit', 'withdrawal']) {
      assert.equal((await t.get(`/api/v1/finance/transactions?size=100&transaction_type=${type}`)).json.total, all.filter((x) => x.transaction_type === type).length);
    }
    const cut = START - 10 * DAY;
    assert.equal(
      (await t.get(`/api/v1/finance/transactions?size=100&start_date=${iso(cut)}`)).json.total,
      all.filter((x) => Date.parse(x.created_at) >= cut).length,
    );
    assert.equal((await t.get('/api/v1/finance/transactions?transaction_type=refund')).status, 422);
  });

  test('the balance equals the sum of the transactions', async () => {
    const all = (await t.get('/api/v1/finance/transactions?size=100')).json.items as { transaction_type: string; amount: string }[];
    let kopecks = 0n;
    for (const x of all) kopecks += (x.transaction_type === 'deposit' ? 1n : -1n) * BigInt(x.amount.replace('.', ''));
    const balance = (await t.get('/api/v1/finance/balance')).json.deposit;
    assert.equal(BigInt(balance.total.replace('.', '')), kopecks);
  });
});

describe('payment methods and balance', () => {
  const t = makeSandbox({ seed: false });
  after(() => t.close());

  test('active defaults to false: the inactive method is listed; active=true hides it', async () => {
    const all = (await t.get('/api/v1/finance/payment_methods')).json;
    assert.ok(PaymentMethodsResponseSchema.safeParse(all).success);
    assert.ok(all.payment_methods.some((m: { active: boolean }) => !m.active));
    const active = (await t.get('/api/v1/finance/payment_methods?active=true')).json.payment_methods;
    assert.ok(active.every((m: { active: boolean }) => m.active));
    assert.equal(active.length, all.payment_methods.length - 1);
  });

  test('method_type may be given several times', async () => {
    const r = (await t.get('/api/v1/finance/payment_methods?method_type=BankAccount&method_type=NSPKLink')).json.payment_methods;
    assert.deepEqual(r.map((m: { method_type: string }) => m.method_type).sort(), ['BankAccount', 'NSPKLink']);
    const sbp = (await t.get('/api/v1/finance/payment_methods?method_type=SBP')).json.payment_methods;
    assert.ok(sbp.length >= 5 && sbp.every((m: { method_type: string }) => m.method_type === 'SBP'));
  });

  test('aggregate SBP and BankCard, and bank methods of Sber, T-Bank, VTB and Alfa with their nspk_code', async () => {
    const methods = (await t.get('/api/v1/finance/payment_methods?active=true')).json.payment_methods as {
      method_type: string;
      nspk_code: string | null;
      ranges: { fee_side: string; fixed_fee: number | null; min_amount: number; max_amount: number }[];
    }[];
    assert.ok(methods.some((m) => m.method_type === 'SBP' && m.nspk_code === null));
    assert.ok(methods.some((m) => m.method_type === 'BankCard' && m.nspk_code === null));
    for (const code of ['bank100000000111', 'bank100000000004', 'bank100000000005', 'bank100000000008']) {
      assert.ok(methods.some((m) => m.nspk_code === code), code);
    }
    const sbpAggregate = methods.find((m) => m.method_type === 'SBP' && m.nspk_code === null)!;
    assert.ok(sbpAggregate.ranges.every((r) => r.fee_side === 'Buy'), 'the SBP aggregate is Buy only');
    for (const m of methods) {
      for (const r of m.ranges) {
        assert.notEqual(r.fixed_fee, 0, 'fixed_fee is null unless nonzero');
        assert.ok(r.min_amount < r.max_amount);
      }
    }
    assert.ok(methods.some((m) => m.ranges.some((r) => r.fee_side === 'Sell' && r.fixed_fee !== null)));
  });

  test('active must be true or false', async () => {
    assert.equal((await t.get('/api/v1/finance/payment_methods?active=yes')).status, 422);
  });

  test('balance: available + frozen = total, two fractional digits', async () => {
    const r = (await t.get('/api/v1/finance/balance')).json;
    assert.ok(BalanceResponseSchema.safeParse(r).success);
    for (const k of ['available', 'frozen', 'total']) assert.match(r.deposit[k], /^\d+\.\d{2}$/);
    assert.equal(r.deposit.currency, 'RUB');
  });
});

describe('big terminals', () => {
  test('seedOrders adds orders that list, filter and sort like created ones', async () => {
    const t = makeSandbox({ seed: false });
    assert.equal(t.sandbox.seedOrders('test_key', 3000), 3000);
    const r = await t.get('/api/v1/order/?size=100&sort_by=amount&sort=asc&order_side=Buy');
    const amounts: string[] = r.json.orders.items.map((o: { amount: string }) => o.amount);
    assert.deepEqual(amounts, [...amounts].sort(compareAmounts));
    const unpaid = await t.get('/api/v1/order/?status=Unpaid');
    assert.ok(unpaid.json.orders.total > 0, 'orders within their lifetime stay Unpaid');
    const all = (await t.get('/api/v1/order/')).json.orders.total;
    assert.equal(all, 3000);
    const http = await t.post('/sandbox/orders/seed', { count: 500 });
    assert.equal(http.status, 201);
    assert.equal((await t.get('/api/v1/order/')).json.orders.total, 3500);
    await t.close();
  });

  test('the amount index stays sorted whatever the order of inserts', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 5 })), { maxLength: 200 }), (pairs) => {
        const columns = new OrderColumns();
        pairs.forEach(([amountKey, createdMs], seq) =>
          columns.add({ amountKey, createdMs, seq, side: 'Buy', status: 'Unpaid', method: { id: 'x' }, initialMethodId: 'x' } as OrderRecord),
        );
        const inOrder = columns.byAmount.map((slot) => columns.records[slot]!);
        assert.deepEqual(inOrder, [...columns.records].sort(compareByAmount));
      }),
    );
  });

  test('every page of an amount-sorted, filtered list equals a brute-force sort', async () => {
    const t = makeSandbox({ seed: false });
    t.sandbox.seedOrders('test_key', 1500);
    const all = (await Promise.all([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15].map((p) => t.get(`/api/v1/order/?size=100&page=${p}`))))
      .flatMap((r) => r.json.orders.items) as { id: string; amount: string; order_side: string; created_at: string }[];
    assert.equal(all.length, 1500);
    const sells = all.filter((o) => o.order_side === 'Sell');
    const expected = [...sells].sort((a, b) => compareAmounts(b.amount, a.amount) || Date.parse(b.created_at) - Date.parse(a.created_at));
    const got: string[] = [];
    for (let page = 1; page <= Math.ceil(sells.length / 40); page++) {
      const r = await t.get(`/api/v1/order/?size=40&page=${page}&order_side=Sell&sort_by=amount&sort=desc`);
      assert.equal(r.json.orders.total, sells.length);
      got.push(...r.json.orders.items.map((o: { amount: string }) => o.amount));
    }
    assert.deepEqual(got, expected.map((o) => o.amount));
    await t.close();
  });
});
