import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createProviderClient, ProviderError } from '../../../src/provider/index.js';
import type { ProviderClientOptions } from '../../../src/provider/index.js';
import {
  API_KEY,
  balance,
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
  recordingFetch,
  transaction,
} from './fake-provider.js';

const query = (url: URL) => [...url.searchParams];

function assertReadHeaders(headers: Headers) {
  assert.equal(headers.get('x-api-key'), API_KEY);
  assert.equal(headers.get('accept'), 'application/json');
  assert.equal(headers.get('content-type'), null, 'a GET carries no body, so no Content-Type');
}

function assertBodyHeaders(headers: Headers) {
  assert.equal(headers.get('x-api-key'), API_KEY);
  assert.equal(headers.get('accept'), 'application/json');
  assert.equal(headers.get('content-type'), 'application/json');
}

describe('searchFormSessions: GET /api/v1/form/search', () => {
  test('sends no query when none is given (the provider applies page 1, size 10)', async () => {
    const { client, calls } = makeClient(() => json(formSessionsPage([formSession()])));
    const res = await client.searchFormSessions();
    assert.equal(calls.length, 1);
    assert.equal(calls[0]!.method, 'GET');
    assert.equal(calls[0]!.path, '/api/v1/form/search');
    assert.equal(calls[0]!.url.search, '');
    assertReadHeaders(calls[0]!.headers);
    assert.equal(res.items[0]!.session_id, 'a1b2c3d4-session');
  });

  test('sends every given filter and nothing else', async () => {
    const { client, calls } = makeClient(() => json(formSessionsPage([])));
    await client.searchFormSessions({
      page: 2,
      size: 50,
      order_id: 'o-1',
      client_order_id: 'c-1',
      session_id: 's-1',
      state: 'requisites_found',
      currency: 'RUB',
    });
    assert.deepEqual(
      Object.fromEntries(calls[0]!.url.searchParams),
      { page: '2', size: '50', order_id: 'o-1', client_order_id: 'c-1', session_id: 's-1', state: 'requisites_found', currency: 'RUB' },
    );
  });

  test('leaves out filters given as undefined or null', async () => {
    const { client, calls } = makeClient(() => json(formSessionsPage([])));
    await client.searchFormSessions({ page: undefined, order_id: null as unknown as string, client_order_id: 'c-1' });
    assert.deepEqual(query(calls[0]!.url), [['client_order_id', 'c-1']]);
  });
});

describe('createForm: POST /api/v1/form/create', () => {
  test('posts the body as JSON with the key, Accept and Content-Type', async () => {
    const { client, calls } = makeClient(() => json(formCreated(), 201));
    const body = formRequest(
      { button_name: 'SberPay', user_id: 'u-1', unique_amount: true },
      { redirect_url: 'https://shop.test/thanks', support_url: 'https://shop.test/support', return_url: 'https://shop.test/cart' },
    );
    const res = await client.createForm(body);
    assert.equal(calls.length, 1);
    assert.equal(calls[0]!.method, 'POST');
    assert.equal(calls[0]!.path, '/api/v1/form/create');
    assert.equal(calls[0]!.url.search, '');
    assertBodyHeaders(calls[0]!.headers);
    assert.deepEqual(calls[0]!.body, body);
    assert.equal(res.form_url, 'https://pay.provider.test/pay?session_id=a1b2c3d4-session');
  });
});

describe('searchDisputes: GET /api/v1/disputes/search', () => {
  test('sends filters with booleans as true/false and dates as ISO text', async () => {
    const { client, calls } = makeClient(() =>
      json({ success: true, message: 'ok', data: { items: [dispute()], total: 1, page: 1, size: 10, pages: 1 } }),
    );
    const res = await client.searchDisputes({
      page: 1,
      size: 100,
      order_id: 'o-1',
      dispute_id: 'd-1',
      processed: false,
      start_date: new Date('2025-01-01T00:00:00Z'),
      end_date: '2025-01-31T23:59:59Z',
    });
    assert.equal(calls[0]!.path, '/api/v1/disputes/search');
    assertReadHeaders(calls[0]!.headers);
    assert.deepEqual(Object.fromEntries(calls[0]!.url.searchParams), {
      page: '1',
      size: '100',
      order_id: 'o-1',
      dispute_id: 'd-1',
      processed: 'false',
      start_date: '2025-01-01T00:00:00.000Z',
      end_date: '2025-01-31T23:59:59Z',
    });
    assert.equal(res.items[0]!.dispute_id, 'd-1');
  });

  test('processed: true is sent as the text true', async () => {
    const { client, calls } = makeClient(() =>
      json({ success: true, message: 'ok', data: { items: [], total: 0, page: 1, size: 10, pages: 0 } }),
    );
    await client.searchDisputes({ processed: true });
    assert.equal(calls[0]!.url.search, '?processed=true');
  });
});

describe('listTransactions: GET /api/v1/finance/transactions', () => {
  test('sends only the given filters (the provider defaults size to 20)', async () => {
    const { client, calls } = makeClient(() => json({ items: [transaction()], total: 1, page: 1, size: 20, pages: 1 }));
    const res = await client.listTransactions({ transaction_type: 'withdrawal', start_date: '2025-01-01T00:00:00Z' });
    assert.equal(calls[0]!.path, '/api/v1/finance/transactions');
    assertReadHeaders(calls[0]!.headers);
    assert.deepEqual(query(calls[0]!.url), [
      ['transaction_type', 'withdrawal'],
      ['start_date', '2025-01-01T00:00:00Z'],
    ]);
    assert.equal(res.items[0]!.amount, '1000.00');
  });
});

describe('listPaymentMethods: GET /api/v1/finance/payment_methods', () => {
  test('sends method_type as repeated query parameters and active as true/false', async () => {
    const { client, calls } = makeClient(() => json({ success: true, message: 'ok', payment_methods: [paymentMethod()] }));
    const res = await client.listPaymentMethods({ active: true, method_type: ['SBP', 'BankCard'] });
    assert.equal(calls[0]!.path, '/api/v1/finance/payment_methods');
    assertReadHeaders(calls[0]!.headers);
    assert.equal(calls[0]!.url.search, '?active=true&method_type=SBP&method_type=BankCard');
    assert.equal(res[0]!.ranges[0]!.fee, 1.5);
  });

  test('a single method_type is one parameter; active: false is sent as false', async () => {
    const { client, calls } = makeClient(() => json({ success: true, message: 'ok', payment_methods: [] }));
    await client.listPaymentMethods({ active: false, method_type: 'SBP' });
    assert.equal(calls[0]!.url.search, '?active=false&method_type=SBP');
  });
});

describe('getBalance: GET /api/v1/finance/balance', () => {
  test('sends no parameters and returns the deposit', async () => {
    const { client, calls } = makeClient(() => json(balance()));
    const res = await client.getBalance();
    assert.equal(calls[0]!.method, 'GET');
    assert.equal(calls[0]!.path, '/api/v1/finance/balance');
    assert.equal(calls[0]!.url.search, '');
    assertReadHeaders(calls[0]!.headers);
    assert.deepEqual(res, balance().deposit);
  });
});

describe('createOrder: POST /api/v1/order/', () => {
  test('posts the request as given and returns the order', async () => {
    const { client, calls } = makeClient(() => json(order(), 201));
    const res = await client.createOrder(buyRequest({ nspk_code: 'bank100000000111', user_id: 'u-1', webhook_url: 'https://shop.test/hook' }));
    assert.equal(calls.length, 1);
    assert.equal(calls[0]!.method, 'POST');
    assert.equal(calls[0]!.path, '/api/v1/order/');
    assertBodyHeaders(calls[0]!.headers);
    assert.deepEqual(calls[0]!.body, {
      client_order_id: 'shop-1001',
      order_side: 'Buy',
      method_type: 'SBP',
      amount: '1500.00' as const,
      nspk_code: 'bank100000000111',
      user_id: 'u-1',
      webhook_url: 'https://shop.test/hook',
    });
    assert.equal(res.id, order().id);
    assert.equal(res.amount, '1500.00');
  });

  test('a Sell order with payment_method_id and customer_account is sent as given', async () => {
    const { client, calls } = makeClient(() => json(order({ order_side: 'Sell', customer_account: '4627100101654724' }), 201));
    const body = {
      client_order_id: 'payout-1',
      order_side: 'Sell' as const,
      payment_method_id: '0b8a3c1e-5d6f-4a2b-9c8d-7e6f5a4b3c2d',
      amount: '2500.50' as const,
      customer_account: '4627100101654724',
      customer_name: 'Иван Иванов',
    };
    await client.createOrder(body);
    assert.deepEqual(calls[0]!.body, body);
  });

  test('order_with_form fields are sent for Buy and form_url is returned', async () => {
    const { client, calls } = makeClient(() => json(order({ form_url: 'https://pay.provider.test/pay?session_id=s' }), 201), {
      integrationType: 'order_with_form',
    });
    const res = await client.createOrder(
      buyRequest({ customer_bank: 'sberbank', redirect_url: 'https://shop.test/ok', support_url: 'https://shop.test/help', return_url: 'https://shop.test/cart' }),
    );
    assert.equal((calls[0]!.body as Record<string, unknown>).customer_bank, 'sberbank');
    assert.equal(res.form_url, 'https://pay.provider.test/pay?session_id=s');
  });
});

describe('listOrders: GET /api/v1/order/', () => {
  test('sends every given filter (sort and period defaults are left to the provider)', async () => {
    const { client, calls } = makeClient(() => json(ordersPage([order()])));
    const res = await client.listOrders({
      page: 3,
      size: 25,
      payment_method_id: 'pm-1',
      order_side: 'Sell',
      status: 'Completed',
      sort_by: 'amount',
      sort: 'asc',
      start_date: '2025-01-01T00:00:00Z',
      end_date: '2025-01-02T00:00:00Z',
    });
    assert.equal(calls[0]!.method, 'GET');
    assert.equal(calls[0]!.path, '/api/v1/order/');
    assertReadHeaders(calls[0]!.headers);
    assert.deepEqual(Object.fromEntries(calls[0]!.url.searchParams), {
      page: '3',
      size: '25',
      payment_method_id: 'pm-1',
      order_side: 'Sell',
      status: 'Completed',
      sort_by: 'amount',
      sort: 'asc',
      start_date: '2025-01-01T00:00:00Z',
      end_date: '2025-01-02T00:00:00Z',
    });
    assert.equal(res.items.length, 1);
  });

  test('sends no query when none is given', async () => {
    const { client, calls } = makeClient(() => json(ordersPage([])));
    await client.listOrders();
    assert.equal(calls[0]!.url.search, '');
  });
});

describe('searchOrdersByClientOrderId: GET /api/v1/order/search-by-client-order-id', () => {
  test('sends id and size', async () => {
    const { client, calls } = makeClient(() => json(ordersPage([order(), order({ id: 'second' })])));
    const res = await client.searchOrdersByClientOrderId({ id: 'shop-1001', size: 5 });
    assert.equal(calls[0]!.path, '/api/v1/order/search-by-client-order-id');
    assertReadHeaders(calls[0]!.headers);
    assert.equal(calls[0]!.url.search, '?id=shop-1001&size=5');
    assert.equal(res.items.length, 2);
  });

  test('encodes any client order id safely in the query', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 64 }), async (id) => {
        const { client, calls } = makeClient(() => json(ordersPage([])));
        await client.searchOrdersByClientOrderId({ id });
        assert.equal(calls[0]!.url.searchParams.get('id'), id);
        assert.equal(calls[0]!.path, '/api/v1/order/search-by-client-order-id');
      }),
      { numRuns: 100 },
    );
  });
});

describe('base URL', () => {
  for (const baseUrl of ['http://provider.test', 'http://provider.test/', 'http://provider.test//']) {
    test(`${baseUrl} joins to one slash before /api/v1`, async () => {
      const { fetch, calls } = recordingFetch(() => json(balance()));
      const client = createProviderClient({ baseUrl, apiKey: API_KEY, fetch });
      await client.getBalance();
      assert.equal(calls[0]!.url.href, 'http://provider.test/api/v1/finance/balance');
    });
  }

  test('a base URL with a path prefix keeps the prefix', async () => {
    const { fetch, calls } = recordingFetch(() => json(balance()));
    const client = createProviderClient({ baseUrl: 'https://gw.test/provider/', apiKey: API_KEY, fetch });
    await client.getBalance();
    assert.equal(calls[0]!.url.href, 'https://gw.test/provider/api/v1/finance/balance');
  });

  const valid: ProviderClientOptions = { baseUrl: 'http://provider.test', apiKey: API_KEY };
  for (const [name, field, options] of [
    ['a base URL that is not http(s)', 'baseUrl', { ...valid, baseUrl: 'ftp://provider.test' }],
    ['a base URL that is not a URL', 'baseUrl', { ...valid, baseUrl: 'provider.test' }],
    ['an empty API key', 'apiKey', { ...valid, apiKey: '' }],
    ['a negative timeout', 'timeoutMs', { ...valid, timeoutMs: -1 }],
    ['a fractional maxRetries', 'maxRetries', { ...valid, maxRetries: 1.5 }],
  ] as const) {
    test(`${name} is refused when the client is created`, () => {
      assert.throws(
        () => createProviderClient(options),
        (err: unknown) => err instanceof ProviderError && err.code === 'invalid_request' && err.field === field,
      );
    });
  }
});
