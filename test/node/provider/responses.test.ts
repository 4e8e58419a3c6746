import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { orderOutcome, ProviderError } from '../../../src/provider/index.js';
import {
  buyRequest,
  dispute,
  formCreated,
  formRequest,
  formSession,
  formSessionsPage,
  json,
  makeClient,
  order,
  ordersPage,
  paymentMethod,
  transaction,
} from './fake-provider.js';

async function invalid(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(
    () => assert.fail('expected invalid_response'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof ProviderError, String(err));
  assert.equal(err.code, 'invalid_response');
  assert.equal(err.retryable, false);
  return err;
}

describe('answers are checked: an unexpected shape names its path', () => {
  test('an order amount that is not a decimal: orders.items.0.amount', async () => {
    const { client } = makeClient(() => json(ordersPage([order({ amount: '15OO.00' })])));
    const err = await invalid(client.listOrders());
    assert.equal(err.path, 'orders.items.0.amount');
    assert.match(err.message, /orders\.items\.0\.amount/);
    assert.equal(err.status, 200);
  });

  test('where money is decided nothing is guessed: an empty id, status or currency, a null amount', async () => {
    for (const [field, value] of [
      ['id', ''],
      ['status', ''],
      ['currency', ''],
      ['amount', null],
      ['amount', '1500,00'],
      ['fee', '-'],
    ] as const) {
      const { client } = makeClient(() => json(ordersPage([order({ [field]: value })])));
      assert.equal((await invalid(client.listOrders())).path, `orders.items.0.${field}`, `${field} = ${JSON.stringify(value)}`);
    }
  });

  test('a second item with a bad amount is named by its index', async () => {
    const { client } = makeClient(() => json(ordersPage([order(), order({ amount: '1,500.00' })])));
    const err = await invalid(client.searchOrdersByClientOrderId({ id: 'shop-1001' }));
    assert.equal(err.path, 'orders.items.1.amount');
  });

  test('a missing field of a created order names it', async () => {
    const { id: _id, ...withoutId } = order();
    const { client } = makeClient(() => json(withoutId, 201));
    const err = await invalid(client.createOrder(buyRequest()));
    assert.equal(err.path, 'id');
  });

  test('a balance without deposit: deposit', async () => {
    const { client } = makeClient(() => json({ success: true, message: 'ok' }));
    assert.equal((await invalid(client.getBalance())).path, 'deposit');
  });

  test('a fee range bound that is not a number: payment_methods.0.ranges.0.min_amount', async () => {
    const pm = paymentMethod();
    pm.ranges[0] = { ...pm.ranges[0]!, min_amount: 'one hundred' as unknown as number };
    const { client } = makeClient(() => json({ success: true, message: 'ok', payment_methods: [pm] }));
    assert.equal((await invalid(client.listPaymentMethods())).path, 'payment_methods.0.ranges.0.min_amount');
  });

  test('a dispute list without the data envelope: data', async () => {
    const { client } = makeClient(() => json({ success: true, message: 'ok', items: [dispute()] }));
    assert.equal((await invalid(client.searchDisputes())).path, 'data');
  });

  test('a transaction page with a total that is no count: total', async () => {
    const { client } = makeClient(() => json({ items: [transaction()], total: 'many', page: 1, size: 20, pages: 1 }));
    assert.equal((await invalid(client.listTransactions())).path, 'total');
  });

  test('a form session with search_count missing: items.0.search_count', async () => {
    const { search_count: _sc, ...session } = formSession();
    const { client } = makeClient(() => json(formSessionsPage([session])));
    assert.equal((await invalid(client.searchFormSessions())).path, 'items.0.search_count');
  });

  test('a form creation answer without form_url: form_data.form_url', async () => {
    const created = formCreated();
    const { form_url: _u, ...formData } = created.form_data;
    const { client } = makeClient(() => json({ ...created, form_data: formData }, 201));
    assert.equal((await invalid(client.createForm(formRequest()))).path, 'form_data.form_url');
  });

  test('a 2xx answer that is not JSON', async () => {
    const { client } = makeClient(() => new Response('<html>ok</html>', { status: 200 }));
    const err = await invalid(client.getBalance());
    assert.equal(err.path, '(root)');
    assert.match(err.message, /not JSON/);
  });

  test('a 2xx answer that is JSON but not an object', async () => {
    const { client } = makeClient(() => json([1, 2, 3]));
    assert.equal((await invalid(client.getBalance())).path, '(root)');
  });

  test('an unreadable 2xx answer to a create says the order was probably created, and is not resent', async () => {
    const { client, calls } = makeClient(() => new Response(null, { status: 201 }));
    const err = await invalid(client.createOrder(buyRequest()));
    assert.match(err.message, /probably created/);
    assert.equal(calls.length, 1);
  });

  test('any replaced field value of an order that breaks its type is caught, never passed on', async () => {
    const fields = ['id', 'amount', 'fee', 'status', 'holder_account', 'created_at', 'fixed_fee'] as const;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...fields), fc.constantFrom<unknown>(true, { x: 1 }, [1], 'not-a-number-1,5'), async (field, value) => {
        if (value === 'not-a-number-1,5' && !['amount', 'fee', 'fixed_fee'].includes(field)) return; // a string is valid there
        const { client } = makeClient(() => json(ordersPage([order({ [field]: value })])));
        const err = await invalid(client.listOrders());
        assert.equal(err.path, `orders.items.0.${field}`);
      }),
      { numRuns: 60 },
    );
  });
});

describe('unknown enum values from the provider are kept, not crashes', () => {
  test('an unknown order status is kept as a string and maps to pending', async () => {
    const { client } = makeClient(() => json(ordersPage([order({ status: 'AwaitingTrader' })])));
    const res = await client.listOrders();
    assert.equal(res.items[0]!.status, 'AwaitingTrader');
    assert.equal(orderOutcome(res.items[0]!.status), 'pending');
  });

  test('an unknown method_type, order_side and currency are kept', async () => {
    const { client } = makeClient(() => json(order({ method_type: 'CryptoLink', order_side: 'Refund', currency: 'KZT' }), 201));
    const res = await client.createOrder(buyRequest());
    assert.equal(res.method_type, 'CryptoLink');
    assert.equal(res.order_side, 'Refund');
    assert.equal(res.currency, 'KZT');
  });

  test('an unknown form session state and transaction type are kept', async () => {
    const { client } = makeClient((req) =>
      req.path === '/api/v1/form/search'
        ? json(formSessionsPage([formSession({ state: 'waiting_for_bank' })]))
        : json({ items: [transaction({ transaction_type: 'chargeback' })], total: 1, page: 1, size: 20, pages: 1 }),
    );
    assert.equal((await client.searchFormSessions()).items[0]!.state, 'waiting_for_bank');
    assert.equal((await client.listTransactions()).items[0]!.transaction_type, 'chargeback');
  });

  test('extra fields the document does not list pass through', async () => {
    const { client } = makeClient(() => json(order({ deeplink: 'sberbankonline://x' }), 201));
    const res = await client.createOrder(buyRequest());
    assert.equal((res as unknown as Record<string, unknown>).deeplink, 'sberbankonline://x');
  });
});

describe('answers are read leniently where the real service varies', () => {
  test('an amount sent as a JSON number is read exactly as written, as a decimal string', async () => {
    const { client } = makeClient(() => json(ordersPage([order({ amount: 1500, fee: 67.5 }), order({ amount: 1500.05 })])));
    const res = await client.listOrders();
    assert.equal(res.items[0]!.amount, '1500');
    assert.equal(res.items[0]!.fee, '67.5');
    assert.equal(res.items[1]!.amount, '1500.05');
  });

  test('counts and fee numbers written as strings are read as numbers', async () => {
    const pm = paymentMethod();
    pm.ranges[0] = { ...pm.ranges[0]!, min_amount: '100' as const, fee: '4.5', fixed_fee: '30' } as unknown as (typeof pm.ranges)[number];
    const { client } = makeClient((req) =>
      req.path === '/api/v1/finance/payment_methods'
        ? json({ success: true, message: 'ok', payment_methods: [pm] })
        : json({ items: [transaction()], total: '1', page: '1', size: '20', pages: '1' }),
    );
    const range = (await client.listPaymentMethods())[0]!.ranges[0]!;
    assert.deepEqual([range.min_amount, range.fee, range.fixed_fee], [100, 4.5, 30]);
    const page = await client.listTransactions();
    assert.deepEqual([page.total, page.page, page.size, page.pages], [1, 1, 20, 1]);
  });

  test('a nullable field that is absent reads null; extra fields are kept', async () => {
    const { customer_name: _n, payment_link: _l, webhook_url: _w, ...sparse } = order();
    const { client } = makeClient(() => json({ ...sparse, trader_id: 'T-9' }, 201));
    const res = await client.createOrder(buyRequest());
    assert.equal(res.customer_name, null);
    assert.equal(res.payment_link, null);
    assert.equal(res.webhook_url, null);
    assert.equal((res as unknown as Record<string, unknown>).trader_id, 'T-9');
  });

  test('a dispute with a numeric id and its amount as text, flags as text', async () => {
    const { client } = makeClient(() =>
      json({ success: true, message: 'ok', data: { items: [dispute({ dispute_id: 42, amount: '1500.00' as const, processed: 'false' })], total: 1, page: 1, size: 10, pages: 1 } }),
    );
    const item = (await client.searchDisputes()).items[0]!;
    assert.equal(item.dispute_id, '42');
    assert.equal(item.amount, 1500);
    assert.equal(item.processed, false);
  });
});
