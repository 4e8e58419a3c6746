/**
 * Contract between `paydesk/provider` and `paydesk/sandbox` for what merchants' production code
 * relies on (provider-notes.md): one order by id, disputes with receipts, the real aggregate ids,
 * customer_payment_account, late payments, and a UZS terminal end to end.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AGGREGATE_METHOD_IDS, createProviderClient, decimalAmount, ProviderError, type ProviderClient } from '../../../src/provider/index.js';
import { createSandbox, PRESET_KEYS, type Sandbox } from '../../../src/sandbox/index.js';
import { HTML_PAGE, makePdf, makePng } from '../sandbox/receipt-files.js';

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
const coid = () => `observed-${process.pid}-${++seq}`;
const control = (path: string, body: unknown = {}, key = sandbox.apiKey) =>
  sandbox.fetch(new Request(`http://sandbox.test${path}`, { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) }));

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
  sandbox = createSandbox({ apiKey: 'observed_key', sweepIntervalMs: 0, seed: false });
  client = clientFor(sandbox.apiKey);
});
after(() => sandbox.close());

describe('getOrder', () => {
  test('returns the order as created, and its later status', async () => {
    const created = await client.createOrder({ client_order_id: coid(), order_side: 'Buy', payment_method_id: AGGREGATE_METHOD_IDS.SBP, amount: '1500.00' as const });
    assert.deepEqual(await client.getOrder(created.id), created);
    await control(`/sandbox/orders/${created.id}/complete`);
    assert.equal((await client.getOrder(created.id)).status, 'Completed');
  });

  test('an unknown id is order_not_found (404, not retryable)', async () => {
    const err = await providerError(client.getOrder('00000000-0000-4000-8000-000000000000'));
    assert.equal(err.code, 'order_not_found');
    assert.equal(err.status, 404);
    assert.equal(err.retryable, false);
  });
});

describe('the real aggregate ids and customer_payment_account', () => {
  test('every aggregate id creates a Buy order whose initial_method_id is that id', async () => {
    for (const [type, id] of Object.entries(AGGREGATE_METHOD_IDS)) {
      const order = await client.createOrder({ client_order_id: coid(), order_side: 'Buy', payment_method_id: id, amount: '2000.00' as const });
      assert.equal(order.initial_method_id, id, type);
      assert.equal(order.method_type, type);
    }
  });

  test('a payout with customer_payment_account and a whole amount', async () => {
    const order = await client.createOrder({
      client_order_id: coid(),
      order_side: 'Sell',
      payment_method_id: AGGREGATE_METHOD_IDS.BankCard,
      amount: '2500',
      customer_payment_account: '2200123412341234',
    });
    assert.equal(order.amount, '2500.00');
    assert.equal(order.customer_account, '2200123412341234');
  });
});

describe('createDispute with real receipts', () => {
  test('a PNG and a PDF: the dispute is in searchDisputes; accepted, it credits a deposit naming the order', async () => {
    const id = coid();
    const order = await client.createOrder({ client_order_id: id, order_side: 'Buy', payment_method_id: AGGREGATE_METHOD_IDS.BankCard, amount: '1500.00' as const });
    await control(`/sandbox/orders/${order.id}/expire`);
    const res = await client.createDispute({
      order_id: order.id,
      amount: decimalAmount(order.amount),
      files: [
        { name: 'receipt.png', type: 'image/png', data: makePng() },
        { name: 'statement.pdf', type: 'application/pdf', data: makePdf() },
      ],
    });
    assert.equal(res.order_id, order.id);
    assert.equal(res.dispute_files.length, 2);
    assert.equal(res.recovered, undefined);
    const found = await client.searchDisputes({ order_id: order.id });
    assert.deepEqual(
      found.items.map((d) => [d.dispute_id, d.processed]),
      [[res.dispute_id, false]],
    );
    const processed = await control(`/sandbox/disputes/${res.dispute_id}/process`, { accepted: true });
    assert.equal(processed.status, 200);
    assert.equal((await client.searchDisputes({ dispute_id: res.dispute_id })).items[0]!.processed, true);
    assert.equal((await client.getOrder(order.id)).status, 'CanceledByTimeout', 'the order keeps its status');
    const deposits = await client.listTransactions({ transaction_type: 'deposit', size: 100 });
    const credit = deposits.items.find((x) => x.client_description.includes(order.id));
    assert.ok(credit, 'a deposit names the order id');
    assert.ok(credit.client_description.includes(id), 'and its client_order_id');
  });

  test('an HTML page renamed .png never leaves the client', async () => {
    const before = (await client.searchDisputes({ size: 100 })).total;
    const err = await providerError(client.createDispute({ order_id: 'whatever', amount: '1.00' as const, files: [{ name: 'receipt.png', type: 'image/png', data: HTML_PAGE }] }));
    assert.equal(err.code, 'invalid_request');
    assert.equal(err.field, 'files.0.data');
    assert.equal((await client.searchDisputes({ size: 100 })).total, before);
  });

  test('a dispute for an order of another terminal is order_not_found', async () => {
    const order = await clientFor(PRESET_KEYS.withForm).createOrder({ client_order_id: coid(), order_side: 'Buy', method_type: 'SBP', amount: '1500.00' as const });
    const err = await providerError(client.createDispute({ order_id: order.id, amount: decimalAmount(order.amount), files: [{ name: 'r.png', type: 'image/png', data: makePng() }] }));
    assert.equal(err.code, 'order_not_found');
    assert.equal(err.outcome, 'not_created');
  });
});

describe('a late completion as the client sees it', () => {
  test('CanceledByTimeout, then Completed, with the money credited once', async () => {
    const order = await client.createOrder({ client_order_id: coid(), order_side: 'Buy', method_type: 'SBP', amount: '1200.00' as const });
    await control(`/sandbox/orders/${order.id}/expire`);
    const before = await client.getBalance();
    assert.equal((await control(`/sandbox/orders/${order.id}/complete`, { late: true })).status, 200);
    const after = await client.getBalance();
    assert.equal((await client.getOrder(order.id)).status, 'Completed');
    const credited = Math.round((Number(after.available) - Number(before.available)) * 100);
    assert.equal(credited, Math.round((Number(order.amount) - Number(order.fee)) * 100));
  });
});

describe('a UZS terminal end to end', () => {
  const uzs = () => clientFor(PRESET_KEYS.uzs);

  test('methods, create, list, complete, balance: all in UZS, no SBP, no NSPK link', async () => {
    const methods = (await uzs().listPaymentMethods({ active: true }));
    assert.ok(methods.length > 0);
    assert.ok(methods.every((m) => m.method_currency === 'UZS' && !['SBP', 'TransSBP', 'NSPKLink'].includes(m.method_type)));
    const card = methods.find((m) => m.method_id === AGGREGATE_METHOD_IDS.BankCard)!;
    const min = card.ranges.find((r) => r.fee_side === 'Buy')!.min_amount;

    const id = coid();
    const amount = String(min * 5);
    const order = await uzs().createOrder({ client_order_id: id, order_side: 'Buy', payment_method_id: card.method_id, amount: decimalAmount(amount) });
    assert.equal(order.currency, 'UZS');
    assert.equal(order.payment_link, null);

    const listed = await uzs().listOrders({ size: 100 });
    assert.ok(listed.items.some((o) => o.id === order.id));
    assert.deepEqual((await uzs().searchOrdersByClientOrderId({ id })).items.map((o) => o.id), [order.id]);

    const before = await uzs().getBalance();
    assert.equal(before.currency, 'UZS');
    assert.equal((await control(`/sandbox/orders/${order.id}/complete`, {}, PRESET_KEYS.uzs)).status, 200);
    const after = await uzs().getBalance();
    const credited = Math.round((Number(after.available) - Number(before.available)) * 100);
    assert.equal(credited, Math.round((Number(order.amount) - Number(order.fee)) * 100));
    assert.equal((await uzs().getOrder(order.id)).status, 'Completed');
    const tx = (await uzs().listTransactions({ transaction_type: 'deposit', size: 1 })).items[0]!;
    assert.equal(tx.terminal.currency, 'UZS');
    assert.ok(tx.client_description.includes(order.id));
  });

  test('a UZS payout by the card aggregate id', async () => {
    const card = (await uzs().listPaymentMethods()).find((m) => m.method_id === AGGREGATE_METHOD_IDS.BankCard)!;
    const sellMin = card.ranges.find((r) => r.fee_side === 'Sell')!.min_amount;
    const payout = await uzs().createOrder({ client_order_id: coid(), order_side: 'Sell', payment_method_id: card.method_id, amount: decimalAmount(String(sellMin)), customer_account: '8600123412341234' });
    assert.equal(payout.currency, 'UZS');
    assert.equal(payout.status, 'Unpaid');
  });
});
