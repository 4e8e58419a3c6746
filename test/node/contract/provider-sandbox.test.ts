/**
 * Contract between the typed client (`paydesk/provider`) and the sandbox (`paydesk/sandbox`): the
 * client's runtime response checks accept everything the sandbox answers, and every documented
 * error row of the sandbox maps to its own client error code.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createProviderClient, ProviderError, type ProviderClient } from '../../../src/provider/index.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js';

let sandbox: Sandbox;
const clientFor = (apiKey: string): ProviderClient =>
  createProviderClient({
    baseUrl: 'http://sandbox.test',
    apiKey,
    maxRetries: 0,
    fetch: (input, init) => sandbox.fetch(new Request(input as string, init)),
  });
let client: ProviderClient;
let seq = 0;
const coid = () => `contract-${process.pid}-${++seq}`;

async function providerError(p: Promise<unknown>): Promise<ProviderError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ProviderError, `expected ProviderError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the call to fail');
}

before(() => {
  sandbox = createSandbox({ apiKey: 'contract_key', sweepIntervalMs: 0 });
  client = clientFor(sandbox.apiKey);
});
after(() => sandbox.close());

describe('every read endpoint answers a shape the client accepts', () => {
  test('payment methods, with the active filter and several method types', async () => {
    const all = await client.listPaymentMethods();
    const active = await client.listPaymentMethods({ active: true });
    assert.ok(all.length > active.length, 'one inactive method exists');
    const some = await client.listPaymentMethods({ method_type: ['SBP', 'BankCard'] });
    assert.ok(some.length > 0);
    assert.ok(some.every((m) => m.method_type === 'SBP' || m.method_type === 'BankCard'));
  });
  test('balance', async () => {
    const deposit = await client.getBalance();
    assert.match(deposit.available, /^\d+\.\d{2}$/);
  });
  test('form sessions, disputes and transactions have several pages of history', async () => {
    const forms = await client.searchFormSessions({ size: 2 });
    assert.ok(forms.pages >= 2);
    const disputes = await client.searchDisputes({ size: 2 });
    assert.ok(disputes.pages >= 2);
    const txs = await client.listTransactions({ size: 2, transaction_type: 'deposit' });
    assert.ok(txs.pages >= 2);
    assert.ok(txs.items.every((t) => t.transaction_type === 'deposit'));
  });
  test('orders list and search by client order id', async () => {
    const id = coid();
    const order = await client.createOrder({ client_order_id: id, order_side: 'Buy', method_type: 'SBP', amount: '1500.00' as const });
    const list = await client.listOrders({ sort_by: 'amount', sort: 'asc', size: 100 });
    assert.ok(list.items.some((o) => o.id === order.id));
    const found = await client.searchOrdersByClientOrderId({ id });
    assert.equal(found.page, 1);
    assert.deepEqual(found.items.map((o) => o.id), [order.id]);
  });
});

describe('creates', () => {
  test('an H2H Buy order by method type gets requisites and an NSPK payment link', async () => {
    const order = await client.createOrder({ client_order_id: coid(), order_side: 'Buy', method_type: 'SBP', amount: '1500.00' as const });
    assert.equal(order.status, 'Unpaid');
    assert.match(order.payment_link ?? '', /^https:\/\/qr\.nspk\.ru\//);
  });
  test('a form', async () => {
    const res = await client.createForm({
      order_data: { client_order_id: coid(), order_side: 'Buy', amount: '990.00' as const, button_name: 'SberPay' },
      redirect_url: 'https://shop.example/thanks',
    });
    assert.match(res.form_url, /\/pay\?session_id=/);
    assert.equal(res.redirect_url, 'https://shop.example/thanks');
  });
});

describe('every error row maps to its client code', () => {
  const buy = (extra: Record<string, unknown> = {}) => ({ client_order_id: coid(), order_side: 'Buy' as const, method_type: 'BankCard' as const, amount: '1500.00' as const, ...extra });
  test('payment_method_not_found', async () => {
    const err = await providerError(client.createOrder({ client_order_id: coid(), order_side: 'Buy', payment_method_id: '00000000-0000-4000-8000-000000000000', amount: '1500.00' as const }));
    assert.equal(err.code, 'payment_method_not_found');
    assert.equal(err.status, 404);
  });
  test('amount_out_of_limits', async () => {
    const err = await providerError(client.createOrder(buy({ amount: '99999999.00' as const })));
    assert.equal(err.code, 'amount_out_of_limits');
  });
  test('customer_blacklisted', async () => {
    const err = await providerError(
      client.createOrder({ client_order_id: coid(), order_side: 'Sell', method_type: 'BankCard', amount: '1500.00' as const, customer_account: '4000000000000002' }),
    );
    assert.equal(err.code, 'customer_blacklisted');
  });
  test('insufficient_funds', async () => {
    const err = await providerError(
      clientFor('sandbox_empty_balance').createOrder({ client_order_id: coid(), order_side: 'Sell', method_type: 'BankCard', amount: '1500.00' as const, customer_account: '4111111111111111' }),
    );
    assert.equal(err.code, 'insufficient_funds');
  });
  test('no_traders is retryable', async () => {
    const err = await providerError(client.createOrder(buy({ amount: '1500.13' as const })));
    assert.equal(err.code, 'no_traders');
    assert.equal(err.retryable, true);
  });
  test('rate_limited for one user_id with 3 unpaid orders', async () => {
    const user = `user-${coid()}`;
    for (let i = 0; i < 3; i++) await client.createOrder(buy({ user_id: user }));
    const err = await providerError(client.createOrder(buy({ user_id: user })));
    assert.equal(err.code, 'rate_limited');
  });
  test('form_not_activated', async () => {
    const err = await providerError(
      clientFor('sandbox_form_off').createForm({ order_data: { client_order_id: coid(), order_side: 'Buy', amount: '100.00' as const } }),
    );
    assert.equal(err.code, 'form_not_activated');
  });
  test('button_not_enabled', async () => {
    const err = await providerError(
      clientFor('sandbox_sber_only').createForm({ order_data: { client_order_id: coid(), order_side: 'Buy', amount: '100.00' as const, button_name: 'TPay' } }),
    );
    assert.equal(err.code, 'button_not_enabled');
  });
  test('rate_limited on the rate-limited terminal', async () => {
    const limited = clientFor('sandbox_rate_limited');
    let err: ProviderError | undefined;
    for (let i = 0; i < 7 && !err; i++) {
      try {
        await limited.getBalance();
      } catch (e) {
        err = e as ProviderError;
      }
    }
    assert.equal(err?.code, 'rate_limited');
  });
  test('unauthorized for an unknown key', async () => {
    const err = await providerError(clientFor('nobody').getBalance());
    assert.equal(err.code, 'unauthorized');
    assert.equal(err.status, 401);
  });
});
