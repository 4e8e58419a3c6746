/**
 * Raw HTTP as merchants' production code sends it (provider-notes.md, "Observed in merchants'
 * production code"): PHP floats and Java integers as amounts, fields the document does not list,
 * `customer_payment_account` as the payout destination, `Y-m-d H:i:s` query dates.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { AGGREGATE_METHOD_IDS, PROVIDER_MESSAGES } from '../../../src/provider/facts.js';
import { KEY, START, buyOrder, makeSandbox, methodId, sellOrder } from './helpers.js';

/** A JSON body written as text, exactly as a PHP or Java client would put it on the wire. */
const raw = (t: ReturnType<typeof makeSandbox>, path: string, text: string) =>
  t.call('POST', path, undefined, { headers: { 'Content-Type': 'application/json' }, raw: text });

describe('amounts as JSON numbers', () => {
  test('a PHP float (json_encode of 1500.5) is the amount 1500.50', async () => {
    const t = makeSandbox({ seed: false });
    const r = await raw(t, '/api/v1/order/', `{"client_order_id":"php-1","order_side":"Buy","payment_method_id":"${AGGREGATE_METHOD_IDS.SBP}","amount":1500.5}`);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.amount, '1500.50');
    await t.close();
  });

  test('a Java integer (Long 1500) is the amount 1500.00; so is 1500.0', async () => {
    const t = makeSandbox({ seed: false });
    for (const [i, amount] of ['1500', '1500.0', '1.5e3'].entries()) {
      const r = await raw(t, '/api/v1/order/', `{"client_order_id":"java-${i}","order_side":"Buy","method_type":"BankCard","amount":${amount}}`);
      assert.equal(r.status, 201, `${amount}: ${r.text}`);
      assert.equal(r.json.amount, '1500.00', amount);
    }
    await t.close();
  });

  test('a float with more than two decimals (0.1 + 0.2) is refused with a 422 naming amount, not rounded', async () => {
    const t = makeSandbox({ seed: false });
    const r = await raw(t, '/api/v1/order/', '{"client_order_id":"php-2","order_side":"Buy","method_type":"SBP","amount":0.30000000000000004}');
    assert.equal(r.status, 422);
    assert.match(r.json.message, /amount/);
    await t.close();
  });

  test('a form order_data amount may be a number too', async () => {
    const t = makeSandbox({ seed: false });
    const r = await raw(t, '/api/v1/form/create', '{"order_data":{"client_order_id":"php-form","order_side":"Buy","amount":990}}');
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.form_data.order_data.amount, '990.00');
    await t.close();
  });

  test('a top-up takes a number as well', async () => {
    const t = makeSandbox({ seed: false });
    const before = (await t.get('/api/v1/finance/balance')).json.deposit.available;
    await t.post('/sandbox/balance/top-up', { amount: 100 });
    const after = (await t.get('/api/v1/finance/balance')).json.deposit.available;
    assert.equal(Math.round((Number(after) - Number(before)) * 100), 10000);
    await t.close();
  });
});

describe('fields the document does not list are ignored, and the request log names them', () => {
  test('H2H creation with extra top-level fields answers 201; the answer header names what was ignored', async () => {
    const lines: string[] = [];
    const t = makeSandbox({ seed: false, logRequests: true, logger: { info: (m) => lines.push(m), error() {} } });
    const r = await t.post('/api/v1/order/', buyOrder({ client_order_id: 'extra-1', colour: 'red', callback: { url: 'x' } }));
    assert.equal(r.status, 201, r.text);
    assert.equal(r.headers.get('X-Sandbox-Ignored-Fields'), 'colour, callback');
    const line = lines.find((l) => l.includes('POST /api/v1/order/'));
    assert.match(line ?? '', / 201 .*ignored=colour,callback/);
    await t.close();
  });

  test('form creation with a stray top-level order_side (a Java client) and an unknown order_data field answers 201', async () => {
    const t = makeSandbox({ seed: false });
    const r = await t.post('/api/v1/form/create', {
      order_side: 'Buy',
      order_data: { client_order_id: 'java-form', order_side: 'Buy', amount: '990.00', description: 'Order #5' },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.headers.get('X-Sandbox-Ignored-Fields'), 'order_side, order_data.description');
    await t.close();
  });

  test('an unknown enum value or a wrong type of a known field is still a 422 naming it', async () => {
    const t = makeSandbox({ seed: false });
    const r = await t.post('/api/v1/order/', buyOrder({ order_side: 'Refund', colour: 'red' }));
    assert.equal(r.status, 422);
    assert.match(r.json.message, /order_side/);
    assert.doesNotMatch(r.json.message, /colour/);
    await t.close();
  });
});

describe('customer_payment_account: the Sell destination of production payout modules', () => {
  test('taken when customer_account is absent: the order carries it as customer_account', async () => {
    const t = makeSandbox({ seed: false });
    const body = sellOrder({ customer_account: undefined, customer_payment_account: '+79161234567' });
    const r = await t.post('/api/v1/order/', body);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.customer_account, '+79161234567');
    assert.equal(r.headers.get('X-Sandbox-Ignored-Fields'), null, 'a field the sandbox knows');
    await t.close();
  });

  test('customer_account wins when both are given', async () => {
    const t = makeSandbox({ seed: false });
    const r = await t.post('/api/v1/order/', sellOrder({ customer_account: '+79161234567', customer_payment_account: '+79167654321' }));
    assert.equal(r.json.customer_account, '+79161234567');
    await t.close();
  });

  test('the same rules apply to it: blacklist 409, format 422 naming it, and a Sell with neither is 400', async () => {
    const t = makeSandbox({ seed: false });
    const blacklisted = await t.post('/api/v1/order/', sellOrder({ customer_account: undefined, customer_payment_account: '+79990000000' }));
    assert.equal(blacklisted.status, 409);
    assert.equal(blacklisted.json.message, PROVIDER_MESSAGES.customer_blacklisted);
    const card = await t.post('/api/v1/order/', sellOrder({ payment_method_id: methodId('card:sber'), customer_account: undefined, customer_payment_account: '12' }));
    assert.equal(card.status, 422);
    assert.match(card.json.message, /customer_payment_account/);
    const none = await t.post('/api/v1/order/', sellOrder({ customer_account: undefined }));
    assert.equal(none.status, 400);
    assert.equal(none.json.message, PROVIDER_MESSAGES.customer_account_required);
    await t.close();
  });

  test('a PHP payout as it is sent: the aggregate card id, a float amount, customer_payment_account', async () => {
    const t = makeSandbox({ seed: false });
    const r = await raw(
      t,
      '/api/v1/order/',
      `{"client_order_id":"payout-php","order_side":"Sell","payment_method_id":"${AGGREGATE_METHOD_IDS.BankCard}","amount":2500.0,"customer_payment_account":"2200123412341234","customer_name":"Ivanov"}`,
    );
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.amount, '2500.00');
    assert.equal(r.json.initial_method_id, AGGREGATE_METHOD_IDS.BankCard);
    assert.equal(r.json.customer_account, '2200123412341234');
    await t.close();
  });
});

describe('query dates as Y-m-d H:i:s (UTC, a space for T, no zone)', () => {
  test('order list, transactions and disputes filter by them, the space sent as + or %20', async () => {
    const t = makeSandbox({ seed: false });
    const a = (await t.post('/api/v1/order/', buyOrder())).json;
    t.sandbox.clock.advance(3600);
    const b = (await t.post('/api/v1/order/', buyOrder())).json;
    const from = new Date(START + 1800_000).toISOString().replace('T', ' ').slice(0, 19); // 2025-03-01 12:30:00
    assert.equal(from, '2025-03-01 12:30:00');
    for (const encoded of [from.replace(' ', '+'), from.replace(' ', '%20')]) {
      const r = await t.get(`/api/v1/order/?start_date=${encoded}`);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(
        r.json.orders.items.map((o: { id: string }) => o.id),
        [b.id],
      );
      const until = await t.get(`/api/v1/order/?start_date=2025-03-01+00:00:00&end_date=${encoded}`);
      assert.deepEqual(
        until.json.orders.items.map((o: { id: string }) => o.id),
        [a.id],
      );
    }
    await t.post(`/sandbox/orders/${b.id}/complete`);
    const txs = await t.get(`/api/v1/finance/transactions?start_date=${from.replace(' ', '+')}`);
    assert.equal(txs.status, 200);
    assert.equal(txs.json.total, 1, 'only the payment of b, not the opening deposit');
    await t.post(`/sandbox/orders/${b.id}/dispute`);
    const disputes = await t.get(`/api/v1/disputes/search?start_date=${from.replace(' ', '%20')}&end_date=2025-03-01 23:59:59`);
    assert.equal(disputes.status, 200);
    assert.equal(disputes.json.data.total, 1);
    await t.close();
  });

  test('an impossible date in that form is still a 422', async () => {
    const t = makeSandbox({ seed: false });
    assert.equal((await t.get('/api/v1/order/?start_date=2025-02-30+10:00:00')).status, 422);
    await t.close();
  });
});

describe('one order by id', () => {
  test('GET /api/v1/order/{id} answers {success, message, order} with the same order as the list', async () => {
    const t = makeSandbox({ seed: false });
    const created = (await t.post('/api/v1/order/', buyOrder())).json;
    const r = await t.get(`/api/v1/order/${created.id}`);
    assert.equal(r.status, 200);
    assert.equal(r.json.success, true);
    assert.deepEqual(r.json.order, created);
    const other = await t.get(`/api/v1/order/${created.id}`, 'sandbox_with_form');
    assert.equal(other.status, 404, 'another terminal does not see it');
    assert.deepEqual(other.json, { success: false, message: PROVIDER_MESSAGES.order_not_found });
    assert.equal((await t.get(`/api/v1/order/${created.id}`, null)).status, 401);
    await t.close();
  });

  test('search-by-client-order-id is still its own endpoint, not an order id', async () => {
    const t = makeSandbox({ seed: false });
    const r = await t.get('/api/v1/order/search-by-client-order-id?id=nothing');
    assert.equal(r.status, 200);
    assert.equal(r.json.orders.total, 0);
    assert.equal(KEY, 'test_key');
    await t.close();
  });
});
