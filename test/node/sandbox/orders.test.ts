import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { OrderSchema } from '../../../src/provider/schemas.js';
import { PROVIDER_MESSAGES, verifyNspkLinkCrc } from '../../../src/provider/facts.js';
import { START, buyOrder, makeSandbox, methodId, sellOrder } from './helpers.js';

describe('H2H order creation', () => {
  const t = makeSandbox({ seed: false });
  after(() => t.close());

  test('answers 201 with an order that matches the document’s schema', async () => {
    const r = await t.post('/api/v1/order/', buyOrder());
    assert.equal(r.status, 201);
    assert.ok(OrderSchema.safeParse(r.json).success);
    assert.equal(r.json.status, 'Unpaid');
    assert.equal(r.json.currency, 'RUB');
    assert.equal(r.json.customer_account, null);
    assert.equal('form_url' in r.json, false, 'form_url only with order_with_form');
  });

  test('expires_at is created_at + 30 minutes on the sandbox clock', async () => {
    const r = await t.post('/api/v1/order/', buyOrder());
    assert.equal(r.json.created_at, new Date(START).toISOString());
    assert.equal(Date.parse(r.json.expires_at) - Date.parse(r.json.created_at), 30 * 60 * 1000);
  });

  test('the SBP aggregate routes to a bank method and keeps itself as initial_method_id', async () => {
    const r = await t.post('/api/v1/order/', buyOrder());
    assert.equal(r.json.initial_method_id, methodId('sbp'));
    assert.notEqual(r.json.method_id, methodId('sbp'));
    assert.equal(r.json.method_type, 'SBP');
    assert.match(r.json.method_name, /^СБП — /);
  });

  test('the fee comes from the matching range of the method asked for (SBP 1500.00 at 4.5 %)', async () => {
    const r = await t.post('/api/v1/order/', buyOrder({ amount: '1500.00' }));
    assert.equal(r.json.fee, '67.50');
    assert.equal(r.json.fixed_fee, null);
    const big = await t.post('/api/v1/order/', buyOrder({ amount: '20000' }));
    assert.equal(big.json.amount, '20000.00');
    assert.equal(big.json.fee, '800.00', 'the 10000–300000 range has 4 %');
  });

  test('a JSON number amount is taken and written back as a decimal string', async () => {
    const r = await t.post('/api/v1/order/', buyOrder({ amount: 1234.5 }));
    assert.equal(r.status, 201);
    assert.equal(r.json.amount, '1234.50');
  });

  test('method_type with nspk_code picks the bank method', async () => {
    const r = await t.post('/api/v1/order/', buyOrder({ method_type: 'BankCard', nspk_code: 'bank100000000111' }));
    assert.equal(r.status, 201);
    assert.equal(r.json.method_id, methodId('card:sber'));
    assert.equal(r.json.initial_method_id, methodId('card:sber'));
  });

  test('requisites follow the method type: card number, phone, account', async () => {
    const card = await t.post('/api/v1/order/', buyOrder({ method_type: 'BankCard' }));
    assert.match(card.json.holder_account, /^\d{16}$/);
    assert.equal(card.json.payment_link, null);
    const sbp = await t.post('/api/v1/order/', buyOrder());
    assert.match(sbp.json.holder_account, /^\+79\d{9}$/);
    const account = await t.post('/api/v1/order/', buyOrder({ method_type: 'BankAccount', amount: '5000.00' }));
    assert.match(account.json.holder_account, /^\d{20}$/);
    for (const r of [card, sbp, account]) assert.match(r.json.holder_name, /^\S+ \S+ \S+$/);
  });

  test('SBP orders carry an NSPK payment_link with the bank, the sum in kopecks and a correct crc', async () => {
    const r = await t.post('/api/v1/order/', buyOrder({ payment_method_id: methodId('sbp:tbank'), method_type: undefined, amount: '1500.50' }));
    const link: string = r.json.payment_link;
    assert.match(link, /^https:\/\/qr\.nspk\.ru\/[A-Z0-9]{32}\?type=02&bank=100000000004&sum=150050&cur=RUB&crc=[0-9A-F]{4}$/);
    assert.ok(verifyNspkLinkCrc(link));
  });

  test('the NSPK link method gives a link order whose holder_account is the QR id', async () => {
    const r = await t.post('/api/v1/order/', buyOrder({ method_type: 'NSPKLink' }));
    assert.equal(r.status, 201);
    assert.ok(r.json.payment_link.includes(`/${r.json.holder_account}?`));
  });

  test('webhook_url and customer_name are kept on the order', async () => {
    const r = await t.post('/api/v1/order/', buyOrder({ webhook_url: 'https://shop.example/hook', customer_name: 'Иван' }));
    assert.equal(r.json.webhook_url, 'https://shop.example/hook');
    assert.equal(r.json.customer_name, 'Иван');
  });

  test('POST /api/v1/order without the trailing slash works too', async () => {
    assert.equal((await t.post('/api/v1/order', buyOrder())).status, 201);
  });
});

describe('unique_amount', () => {
  test('concurrent creates with the same amount never share an amount on the same requisites', async () => {
    const t = makeSandbox({ seed: false });
    const replies = await Promise.all(
      Array.from({ length: 60 }, () => t.post('/api/v1/order/', buyOrder({ payment_method_id: methodId('sbp:sber'), method_type: undefined, unique_amount: true }))),
    );
    const seen = new Set<string>();
    for (const r of replies) {
      assert.equal(r.status, 201);
      const amount = Number(r.json.amount);
      assert.ok(amount >= 1500 && amount <= 1509, `amount ${r.json.amount} within amount..amount+9`);
      const key = `${r.json.holder_account}|${r.json.amount}`;
      assert.ok(!seen.has(key), `duplicate ${key}`);
      seen.add(key);
    }
    // 6 requisites × 10 amounts = 60 slots: the 61st finds no trader.
    const full = await t.post('/api/v1/order/', buyOrder({ payment_method_id: methodId('sbp:sber'), method_type: undefined, unique_amount: true }));
    assert.equal(full.status, 500);
    assert.equal(full.json.message, PROVIDER_MESSAGES.no_traders);
    // A paid order frees its slot.
    await t.post(`/sandbox/orders/${replies[0]!.json.id}/complete`);
    const again = await t.post('/api/v1/order/', buyOrder({ payment_method_id: methodId('sbp:sber'), method_type: undefined, unique_amount: true }));
    assert.equal(again.status, 201);
    assert.equal(again.json.amount, replies[0]!.json.amount);
    await t.close();
  });

  test('the first order keeps the amount asked for', async () => {
    const t = makeSandbox({ seed: false });
    const r = await t.post('/api/v1/order/', buyOrder({ amount: '777.00', unique_amount: true }));
    assert.equal(r.json.amount, '777.00');
    await t.close();
  });
});

describe('error rows of H2H creation', () => {
  const t = makeSandbox({ seed: false });
  after(() => t.close());
  const expectError = async (body: Record<string, unknown>, status: number, message: string, key?: string) => {
    const r = await t.post('/api/v1/order/', body, key);
    assert.equal(r.status, status, JSON.stringify(r.json));
    assert.deepEqual(r.json, { success: false, message });
  };

  test('400 no payment method', () =>
    expectError({ client_order_id: 'x', order_side: 'Buy', amount: '1000.00' }, 400, PROVIDER_MESSAGES.no_payment_method));
  test('400 Sell without customer_account', () =>
    expectError(sellOrder({ customer_account: undefined }), 400, PROVIDER_MESSAGES.customer_account_required));
  test('402 balance too low for a Sell', () => expectError(sellOrder({ amount: '149000.00' }), 402, PROVIDER_MESSAGES.insufficient_funds, 'sandbox_empty_balance'));
  test('404 unknown payment_method_id', () =>
    expectError(buyOrder({ method_type: undefined, payment_method_id: '00000000-0000-4000-8000-000000000000' }), 404, PROVIDER_MESSAGES.payment_method_not_found));
  test('404 an inactive method', () =>
    expectError(buyOrder({ method_type: undefined, payment_method_id: methodId('inactive') }), 404, PROVIDER_MESSAGES.payment_method_not_found));
  test('404 a method_type and nspk_code no method has', () =>
    expectError(buyOrder({ method_type: 'SBP', nspk_code: 'bank100000000022' }), 404, PROVIDER_MESSAGES.payment_method_not_found));
  test('409 amount below the method’s limits', () => expectError(buyOrder({ amount: '99.99' }), 409, PROVIDER_MESSAGES.amount_out_of_limits));
  test('409 amount above the method’s limits', () => expectError(buyOrder({ amount: '300000.01' }), 409, PROVIDER_MESSAGES.amount_out_of_limits));
  test('409 a Sell on a method without Sell ranges', () =>
    expectError(sellOrder({ payment_method_id: methodId('qr') }), 409, PROVIDER_MESSAGES.amount_out_of_limits));
  test('409 blacklisted card 4000000000000002', () =>
    expectError(sellOrder({ payment_method_id: methodId('card:sber'), customer_account: '4000000000000002' }), 409, PROVIDER_MESSAGES.customer_blacklisted));
  test('409 blacklisted phone +79990000000', () => expectError(sellOrder({ customer_account: '+79990000000' }), 409, PROVIDER_MESSAGES.customer_blacklisted));
  test('500 an amount with the fraction .13 finds no trader', () => expectError(buyOrder({ amount: '1500.13' }), 500, PROVIDER_MESSAGES.no_traders));

  test('429 anti-fraud: a user_id with 3 unpaid orders cannot make a 4th', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await t.post('/api/v1/order/', buyOrder({ user_id: 'greedy' }))).status, 201);
    await expectError(buyOrder({ user_id: 'greedy' }), 429, PROVIDER_MESSAGES.user_pending_limit);
    assert.equal((await t.post('/api/v1/order/', buyOrder({ user_id: 'someone-else' }))).status, 201);
  });

  test('429 anti-fraud lifts when one of the orders is no longer unpaid', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await t.post('/api/v1/order/', buyOrder({ user_id: 'patient' }))).json.id);
    assert.equal((await t.post('/api/v1/order/', buyOrder({ user_id: 'patient' }))).status, 429);
    await t.post(`/sandbox/orders/${ids[0]}/cancel`);
    assert.equal((await t.post('/api/v1/order/', buyOrder({ user_id: 'patient' }))).status, 201);
  });

  test('400 both ways of giving the method at once', async () => {
    const r = await t.post('/api/v1/order/', buyOrder({ payment_method_id: methodId('sbp') }));
    assert.equal(r.status, 400);
    assert.match(r.json.message, /payment_method_id/);
  });

  test('400 the SBP aggregate by method_type for a Sell', async () => {
    const r = await t.post('/api/v1/order/', sellOrder({ payment_method_id: undefined, method_type: 'SBP' }));
    assert.equal(r.status, 400);
    assert.match(r.json.message, /method_type/);
  });

  test('422 a Sell destination in the wrong format for the method', async () => {
    const r = await t.post('/api/v1/order/', sellOrder({ customer_account: '12345' }));
    assert.equal(r.status, 422);
    assert.match(r.json.message, /customer_account/);
  });
});

describe('malformed requests answer 422 naming the field', () => {
  const t = makeSandbox({ seed: false });
  after(() => t.close());
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['unknown order_side', buyOrder({ order_side: 'Hold' }), /order_side/],
    ['unknown method_type', buyOrder({ method_type: 'Crypto' }), /method_type/],
    ['amount of the wrong type', buyOrder({ amount: true }), /amount/],
    ['amount with three fractional digits', buyOrder({ amount: '10.005' }), /amount/],
    ['negative amount', buyOrder({ amount: '-5' }), /amount/],
    ['zero amount', buyOrder({ amount: '0' }), /amount/],
    ['client_order_id longer than 64', buyOrder({ client_order_id: 'x'.repeat(65) }), /client_order_id/],
    ['empty client_order_id', buyOrder({ client_order_id: '' }), /client_order_id/],
    ['webhook_url not http(s)', buyOrder({ webhook_url: 'ftp://x' }), /webhook_url/],
    ['webhook_url over 512 characters', buyOrder({ webhook_url: `https://x.example/${'a'.repeat(600)}` }), /webhook_url/],
    ['unique_amount not a boolean', buyOrder({ unique_amount: 'yes' }), /unique_amount/],
  ];
  for (const [name, body, field] of cases) {
    test(name, async () => {
      const r = await t.post('/api/v1/order/', body);
      assert.equal(r.status, 422);
      assert.equal(r.json.success, false);
      assert.match(r.json.message, field);
    });
  }

  test('malformed JSON', async () => {
    const r = await t.call('POST', '/api/v1/order/', undefined, { raw: '{"client_order_id": ', headers: { 'Content-Type': 'application/json' } });
    assert.equal(r.status, 422);
    assert.match(r.json.message, /malformed JSON/);
  });

  test('a JSON array instead of an object', async () => {
    const r = await t.call('POST', '/api/v1/order/', undefined, { raw: '[1,2]' });
    assert.equal(r.status, 422);
    assert.match(r.json.message, /JSON object/);
  });

  test('an empty body', async () => {
    const r = await t.call('POST', '/api/v1/order/', undefined, { raw: '' });
    assert.equal(r.status, 422);
  });

  test('a body over the size limit answers 413', async () => {
    const r = await t.call('POST', '/api/v1/order/', undefined, { raw: JSON.stringify({ client_order_id: 'x'.repeat(70_000) }) });
    assert.equal(r.status, 413);
    assert.equal(r.json.success, false);
  });
});
