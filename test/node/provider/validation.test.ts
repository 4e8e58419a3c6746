import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ProviderError } from '../../../src/provider/index.js';
import type { ProviderClient } from '../../../src/provider/index.js';
import { buyRequest, formRequest, json, makeClient, order } from './fake-provider.js';
import type { Recorded } from './fake-provider.js';

/** Runs `call`, asserts an `invalid_request` naming `field`, and that nothing reached the provider. */
async function refused(
  call: (client: ProviderClient) => Promise<unknown>,
  field: string,
  extra: Parameters<typeof makeClient>[1] = {},
): Promise<ProviderError> {
  const { client, calls } = makeClient(() => json(order(), 201), extra);
  let caught: unknown;
  await call(client).catch((err) => (caught = err));
  assert.ok(caught instanceof ProviderError, `expected a ProviderError, got ${String(caught)}`);
  assert.equal(caught.code, 'invalid_request');
  assert.equal(caught.field, field);
  assert.match(caught.message, new RegExp(field.replace(/\./g, '\\.')));
  assert.equal(caught.status, null);
  assert.equal(caught.retryable, false);
  assertNothingSent(calls);
  return caught;
}

function assertNothingSent(calls: Recorded[]) {
  assert.equal(calls.length, 0, 'nothing may be sent for an invalid request');
}

describe('list queries: size 1..100, page ≥ 1', () => {
  for (const size of [0, 101, -1, 2.5]) {
    test(`size ${size} is refused before sending`, async () => {
      await refused((c) => c.listOrders({ size }), 'size');
    });
  }
  for (const size of [1, 100]) {
    test(`size ${size} is accepted`, async () => {
      const { client, calls } = makeClient(() => json({ items: [], total: 0, page: 1, size, pages: 0 }));
      await client.listTransactions({ size });
      assert.equal(calls[0]!.url.searchParams.get('size'), String(size));
    });
  }
  test('size above 100 is refused on every list endpoint', async () => {
    await refused((c) => c.searchFormSessions({ size: 101 }), 'size');
    await refused((c) => c.searchDisputes({ size: 101 }), 'size');
    await refused((c) => c.listTransactions({ size: 101 }), 'size');
    await refused((c) => c.searchOrdersByClientOrderId({ id: 'x', size: 101 }), 'size');
  });
  test('page 0 is refused', async () => {
    await refused((c) => c.listOrders({ page: 0 }), 'page');
  });
  test('any size outside 1..100 is refused, any inside is sent', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: -1000, max: 1000 }), async (size) => {
        const { client, calls } = makeClient(() => json({ items: [], total: 0, page: 1, size: 1, pages: 0 }));
        const result = await client.listTransactions({ size }).then(
          () => 'sent',
          (err: ProviderError) => err.code,
        );
        if (size >= 1 && size <= 100) {
          assert.equal(result, 'sent');
          assert.equal(calls.length, 1);
        } else {
          assert.equal(result, 'invalid_request');
          assert.equal(calls.length, 0);
        }
      }),
    );
  });
  test('an unknown query parameter is refused by name', async () => {
    await refused((c) => c.listOrders({ colour: 'red' } as never), 'colour');
  });
  test('a bad enum in a filter is refused (sort, order_side, transaction_type)', async () => {
    await refused((c) => c.listOrders({ sort: 'up' as never }), 'sort');
    await refused((c) => c.listOrders({ order_side: 'Hold' as never }), 'order_side');
    await refused((c) => c.listTransactions({ transaction_type: 'refund' as never }), 'transaction_type');
  });
  test('a date that is not a date is refused', async () => {
    await refused((c) => c.searchDisputes({ start_date: 'yesterday' }), 'start_date');
  });
  test('a date in another format, or one that names no real time, is refused (Date.parse would take it)', async () => {
    for (const date of ['1', '0', '12/31/2024', 'March 7, 2024', '2025-02-30', '2025-13-01', '2025-01-01T24:00:00Z', '2025-01-01T10:00:00+15:00']) {
      await refused((c) => c.listOrders({ start_date: date }), 'start_date');
    }
  });
  test('ISO 8601 dates and date-times are sent as given', async () => {
    for (const date of ['2025-01-31', '2025-01-31T23:59:59Z', '2025-01-31T23:59:59.123456+03:00', '2025-01-31T23:59', '2025-01-31 23:59:59', '2024-02-29T00:00:00-0500']) {
      const { client, calls } = makeClient(() => json({ success: true, message: 'Success', orders: { items: [], total: 0, page: 1, size: 10, pages: 0 } }));
      await client.listOrders({ end_date: date });
      assert.equal(calls[0]!.url.searchParams.get('end_date'), date);
    }
  });
  test('search by client order id requires id', async () => {
    await refused((c) => c.searchOrdersByClientOrderId({} as never), 'id');
    await refused((c) => c.searchOrdersByClientOrderId({ id: '' }), 'id');
  });
});

describe('createOrder: the document rules are checked before sending', () => {
  test('client_order_id must have 1 to 64 characters', async () => {
    await refused((c) => c.createOrder(buyRequest({ client_order_id: '' })), 'client_order_id');
    await refused((c) => c.createOrder(buyRequest({ client_order_id: 'x'.repeat(65) })), 'client_order_id');
  });
  test('client_order_id of 1 and of 64 characters is sent', async () => {
    for (const id of ['x', 'y'.repeat(64)]) {
      const { client, calls } = makeClient(() => json(order({ client_order_id: id }), 201));
      await client.createOrder(buyRequest({ client_order_id: id }));
      assert.equal(calls.length, 1);
    }
  });
  test('any client_order_id length outside 1..64 is refused', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 200 }), async (length) => {
        const id = 'a'.repeat(length);
        const { client, calls } = makeClient(() => json(order({ client_order_id: id }), 201));
        const outcome = await client.createOrder(buyRequest({ client_order_id: id })).then(
          () => 'sent',
          (e: ProviderError) => e.field,
        );
        assert.equal(outcome, length >= 1 && length <= 64 ? 'sent' : 'client_order_id');
        assert.equal(calls.length, length >= 1 && length <= 64 ? 1 : 0);
      }),
      { numRuns: 60 },
    );
  });
  test('webhook_url must be an http(s) URL', async () => {
    for (const url of ['ftp://shop.test/hook', 'not a url', 'javascript:alert(1)', 'https://']) {
      await refused((c) => c.createOrder(buyRequest({ webhook_url: url })), 'webhook_url');
    }
  });
  test('webhook_url may have at most 512 characters', async () => {
    const base = 'https://shop.test/hook?x=';
    await refused((c) => c.createOrder(buyRequest({ webhook_url: base + 'a'.repeat(513 - base.length) })), 'webhook_url');
    const { client, calls } = makeClient(() => json(order(), 201));
    await client.createOrder(buyRequest({ webhook_url: base + 'a'.repeat(512 - base.length) }));
    assert.equal(calls.length, 1);
  });
  test('exactly one of payment_method_id or method_type: both is refused', async () => {
    const err = await refused(
      (c) => c.createOrder(buyRequest({ payment_method_id: '0b8a3c1e-5d6f-4a2b-9c8d-7e6f5a4b3c2d' })),
      'payment_method_id',
    );
    assert.match(err.message, /not both/);
  });
  test('exactly one of payment_method_id or method_type: neither is refused', async () => {
    await refused((c) => c.createOrder(buyRequest({ method_type: undefined })), 'payment_method_id');
  });
  test('nspk_code only together with method_type', async () => {
    await refused(
      (c) =>
        c.createOrder(
          buyRequest({ method_type: undefined, payment_method_id: '0b8a3c1e-5d6f-4a2b-9c8d-7e6f5a4b3c2d', nspk_code: 'bank100000000111' }),
        ),
      'nspk_code',
    );
  });
  test('customer_account is required for Sell', async () => {
    await refused(
      (c) => c.createOrder({ client_order_id: 'p-1', order_side: 'Sell', payment_method_id: 'pm-1', amount: '100.00' as const }),
      'customer_account',
    );
  });
  test('the aggregate method SBP is refused for Sell', async () => {
    await refused(
      (c) => c.createOrder({ client_order_id: 'p-1', order_side: 'Sell', method_type: 'SBP', amount: '100.00' as const, customer_account: '+79991234567' }),
      'method_type',
    );
  });
  for (const field of ['redirect_url', 'support_url', 'return_url', 'customer_bank'] as const) {
    test(`order_with_form field ${field} is refused for Sell`, async () => {
      const value = field === 'customer_bank' ? 'sberbank' : 'https://shop.test/x';
      await refused(
        (c) =>
          c.createOrder({
            client_order_id: 'p-1',
            order_side: 'Sell',
            payment_method_id: 'pm-1',
            amount: '100.00' as const,
            customer_account: '4627100101654724',
            [field]: value,
          }),
        field,
      );
    });
    test(`order_with_form field ${field} is refused on a terminal of integration type plain`, async () => {
      const value = field === 'customer_bank' ? 'sberbank' : 'https://shop.test/x';
      await refused((c) => c.createOrder(buyRequest({ [field]: value })), field, { integrationType: 'plain' });
    });
  }
  test('customer_bank must be one of sberbank, vtb, tinkoff, alfabank', async () => {
    await refused((c) => c.createOrder(buyRequest({ customer_bank: 'raiffeisen' as never })), 'customer_bank');
  });
  test('order_side must be Buy or Sell', async () => {
    await refused((c) => c.createOrder(buyRequest({ order_side: 'buy' as never })), 'order_side');
  });
  test('amount must be a positive decimal', async () => {
    for (const amount of ['0', '0.00', '-5', '1e3', '1,00', '1.005', '', 'NaN']) {
      const err = await refused((c) => c.createOrder(buyRequest({ amount })), 'amount');
      assert.doesNotMatch(err.message, /expected number/, 'the message explains the string rule, not the number arm');
    }
    await refused((c) => c.createOrder(buyRequest({ amount: -1 })), 'amount');
    await refused((c) => c.createOrder(buyRequest({ amount: Number.NaN })), 'amount');
  });
  test('an unknown field is refused by name', async () => {
    await refused((c) => c.createOrder(buyRequest({ currency: 'RUB' }) as never), 'currency');
  });
  test('a body that is not an object is refused', async () => {
    await refused((c) => c.createOrder(null as never), 'body');
  });
});

describe('createForm: the document rules are checked before sending', () => {
  test('the form exists for Buy only', async () => {
    await refused((c) => c.createForm(formRequest({ order_side: 'Sell' })), 'order_data.order_side');
  });
  test('button_name must be AlfaPay, SberPay, TPay or VTBPay', async () => {
    await refused((c) => c.createForm(formRequest({ button_name: 'MirPay' })), 'order_data.button_name');
  });
  test('every allowed button_name is sent', async () => {
    for (const button_name of ['AlfaPay', 'SberPay', 'TPay', 'VTBPay']) {
      const { client, calls } = makeClient(() =>
        json({
          success: true,
          message: null,
          form_data: {
            session_id: 's',
            form_url: 'https://pay.test/pay?session_id=s',
            order_data: { client_order_id: 'shop-2001', order_side: 'Buy', payment_method_id: null, amount: '1500.00' as const, customer_bank: null, unique_amount: false },
            support_url: null,
            redirect_url: null,
            return_url: null,
          },
        }, 201),
      );
      await client.createForm(formRequest({ button_name }));
      assert.equal(calls.length, 1);
    }
  });
  test('order_data is required', async () => {
    await refused((c) => c.createForm({} as never), 'order_data');
  });
  test('client_order_id is required', async () => {
    await refused((c) => c.createForm(formRequest({ client_order_id: undefined })), 'order_data.client_order_id');
  });
  test('redirect_url must be an http(s) URL', async () => {
    await refused((c) => c.createForm(formRequest({}, { redirect_url: 'shop.test/thanks' })), 'redirect_url');
  });
  test('customer_bank in order_data must be an allowed bank', async () => {
    await refused((c) => c.createForm(formRequest({ customer_bank: 'otkritie' })), 'order_data.customer_bank');
  });
});
