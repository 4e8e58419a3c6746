import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { START, buyOrder, makeSandbox, sellOrder, type TestSandbox } from './helpers.js';

async function balance(t: TestSandbox, key?: string) {
  return (await t.get('/api/v1/finance/balance', key)).json.deposit as { available: string; frozen: string; total: string };
}
/** `amount` (a 2-digit decimal string) plus `kopecks`, exactly. */
function addKopecks(amount: string, kopecks: number): string {
  const minor = BigInt(amount.replace('.', '')) + BigInt(kopecks);
  const text = minor.toString().padStart(3, '0');
  return `${text.slice(0, -2)}.${text.slice(-2)}`;
}
async function order(t: TestSandbox, clientOrderId: string) {
  return (await t.get(`/api/v1/order/search-by-client-order-id?id=${clientOrderId}`)).json.orders.items[0];
}

describe('status transitions and money', () => {
  test('a completed Buy credits amount − fee and records a deposit transaction', async () => {
    const t = makeSandbox({ seed: false });
    const before = await balance(t);
    const o = (await t.post('/api/v1/order/', buyOrder({ client_order_id: 'buy-1', amount: '1500.00' }))).json;
    const r = await t.post(`/sandbox/orders/${o.id}/complete`);
    assert.equal(r.status, 200);
    assert.equal(r.json.order.status, 'Completed');
    const after = await balance(t);
    assert.equal(Number(after.available) * 100 - Number(before.available) * 100, 143250, '1500.00 − 67.50');
    const tx = (await t.get('/api/v1/finance/transactions?transaction_type=deposit&size=1')).json.items[0];
    assert.equal(tx.amount, '1432.50');
    assert.match(tx.client_description, /buy-1/);
    await t.close();
  });

  test('a Sell freezes amount + fee, and completing it withdraws the frozen money', async () => {
    const t = makeSandbox({ seed: false });
    const before = await balance(t);
    const o = (await t.post('/api/v1/order/', sellOrder({ client_order_id: 'sell-1', amount: '2000.00' }))).json;
    assert.equal(o.fee, '70.00', '2 % + 30.00 fixed');
    assert.equal(o.fixed_fee, 30);
    assert.equal(o.customer_account, '+79161234567');
    const frozen = await balance(t);
    assert.equal(frozen.frozen, '2070.00');
    assert.equal(frozen.total, before.total);
    await t.post(`/sandbox/orders/${o.id}/complete`);
    const after = await balance(t);
    assert.equal(after.frozen, '0.00');
    assert.equal(after.available, frozen.available);
    const tx = (await t.get('/api/v1/finance/transactions?transaction_type=withdrawal&size=1')).json.items[0];
    assert.equal(tx.amount, '2070.00');
    await t.close();
  });

  test('a cancelled Sell gives the frozen money back', async () => {
    const t = makeSandbox({ seed: false });
    const before = await balance(t);
    const o = (await t.post('/api/v1/order/', sellOrder())).json;
    await t.post(`/sandbox/orders/${o.id}/cancel`);
    assert.deepEqual(await balance(t), before);
    assert.equal((await order(t, o.client_order_id)).status, 'CanceledByService');
    await t.close();
  });

  test('a Sell needs amount + fee available: the fee alone can make it 402', async () => {
    const t = makeSandbox({ seed: false, autoPayAfterSeconds: null });
    await t.post('/sandbox/balance/top-up', { amount: '2000.00' }, 'sandbox_empty_balance');
    const r = await t.post('/api/v1/order/', sellOrder({ amount: '2000.00' }), 'sandbox_empty_balance');
    assert.equal(r.status, 402);
    await t.close();
  });

  test('only an Unpaid order changes status: a second transition answers 409', async () => {
    const t = makeSandbox({ seed: false });
    const o = (await t.post('/api/v1/order/', buyOrder())).json;
    await t.post(`/sandbox/orders/${o.id}/complete`);
    const again = await t.post(`/sandbox/orders/${o.id}/cancel`);
    assert.equal(again.status, 409);
    assert.match(again.json.message, /Completed/);
    await t.close();
  });

  test('the expire control sets CanceledByTimeout', async () => {
    const t = makeSandbox({ seed: false });
    const o = (await t.post('/api/v1/order/', buyOrder())).json;
    const r = await t.post(`/sandbox/orders/${o.id}/expire`);
    assert.equal(r.json.order.status, 'CanceledByTimeout');
    await t.close();
  });

  test('an unknown order id answers 404 on the controls', async () => {
    const t = makeSandbox({ seed: false });
    assert.equal((await t.post('/sandbox/orders/nope/complete')).status, 404);
    await t.close();
  });
});

describe('the sandbox clock', () => {
  test('an unpaid order expires 30 minutes after creation, read lazily', async () => {
    const t = makeSandbox({ seed: false });
    const o = (await t.post('/api/v1/order/', buyOrder())).json;
    t.time.now = START + 30 * 60 * 1000 - 1;
    assert.equal((await order(t, o.client_order_id)).status, 'Unpaid');
    t.time.now = START + 30 * 60 * 1000;
    const expired = await order(t, o.client_order_id);
    assert.equal(expired.status, 'CanceledByTimeout');
    assert.equal(expired.updated_at, expired.expires_at);
    await t.close();
  });

  test('POST /sandbox/clock/advance moves time, expires orders at once and sends their webhooks', async () => {
    const sent: string[] = [];
    const t = makeSandbox({
      seed: false,
      webhookUrl: 'https://merchant.example/hook',
      fetch: async (_url, init) => {
        sent.push(String(init?.body));
        return new Response('ok');
      },
    });
    const o = (await t.post('/api/v1/order/', buyOrder())).json;
    const r = await t.post('/sandbox/clock/advance', { seconds: 1800 });
    assert.equal(r.status, 200);
    assert.equal(r.json.now, new Date(START + 1800 * 1000).toISOString());
    await t.sandbox.webhooks.idle();
    assert.equal(sent.length, 1);
    assert.equal(JSON.parse(sent[0]!).payload.id, o.id);
    assert.equal(JSON.parse(sent[0]!).payload.status, 'CanceledByTimeout');
    await t.close();
  });

  test('new orders are stamped with the advanced time', async () => {
    const t = makeSandbox({ seed: false });
    await t.post('/sandbox/clock/advance', { seconds: 3600 });
    const o = (await t.post('/api/v1/order/', buyOrder())).json;
    assert.equal(o.created_at, new Date(START + 3600 * 1000).toISOString());
    await t.close();
  });

  test('advance refuses negative or non-numeric seconds with 422', async () => {
    const t = makeSandbox({ seed: false });
    assert.equal((await t.post('/sandbox/clock/advance', { seconds: -1 })).status, 422);
    assert.equal((await t.post('/sandbox/clock/advance', { seconds: '10' })).status, 422);
    await t.close();
  });

  test('auto-pay completes unpaid orders after the configured seconds', async () => {
    const t = makeSandbox({ seed: false, autoPayAfterSeconds: 20 });
    const o = (await t.post('/api/v1/order/', buyOrder())).json;
    t.sandbox.clock.advance(19);
    assert.equal((await order(t, o.client_order_id)).status, 'Unpaid');
    t.sandbox.clock.advance(1);
    assert.equal((await order(t, o.client_order_id)).status, 'Completed');
    await t.close();
  });

  test('the sweep expires orders without any request', async () => {
    const t = makeSandbox({ seed: false });
    const o = (await t.post('/api/v1/order/', buyOrder())).json;
    t.time.now = START + 31 * 60 * 1000;
    t.sandbox.sweep();
    const log = t.sandbox.webhooks.log();
    assert.equal(log.length, 1);
    assert.equal(log[0]!.order_id, o.id);
    assert.equal(log[0]!.status, 'skipped', 'no webhook URL configured');
    await t.close();
  });
});

describe('disputes, top-up and reset', () => {
  test('the dispute control opens a dispute that the search finds, in work', async () => {
    const t = makeSandbox({ seed: false });
    const o = (await t.post('/api/v1/order/', buyOrder({ amount: '2500.00' }))).json;
    const d = await t.post(`/sandbox/orders/${o.id}/dispute`);
    assert.equal(d.status, 201);
    const found = await t.get(`/api/v1/disputes/search?order_id=${o.id}`);
    assert.equal(found.json.data.total, 1);
    assert.deepEqual(found.json.data.items[0], {
      dispute_id: d.json.dispute.dispute_id,
      order_id: o.id,
      client_order_id: o.client_order_id,
      amount: 2500,
      currency: 'RUB',
      processed: false,
      created_at: new Date(START).toISOString(),
    });
    await t.close();
  });

  test('an accepted dispute on an expired Buy credits the balance and is processed', async () => {
    const t = makeSandbox({ seed: false });
    const o = (await t.post('/api/v1/order/', buyOrder({ amount: '1000.00' }))).json;
    await t.post(`/sandbox/orders/${o.id}/expire`);
    const d = (await t.post(`/sandbox/orders/${o.id}/dispute`)).json.dispute;
    const before = await balance(t);
    const r = await t.post(`/sandbox/disputes/${d.dispute_id}/process`, { accepted: true });
    assert.equal(r.json.dispute.processed, true);
    const after = await balance(t);
    assert.equal(Math.round(Number(after.available) * 100 - Number(before.available) * 100), 95500, '1000.00 − 45.00');
    assert.equal((await t.post(`/sandbox/disputes/${d.dispute_id}/process`, {})).status, 409);
    await t.close();
  });

  test('several accepted disputes on one expired Buy credit it only once', async () => {
    const t = makeSandbox({ seed: false });
    const o = (await t.post('/api/v1/order/', buyOrder({ amount: '1000.00' }))).json;
    await t.post(`/sandbox/orders/${o.id}/expire`);
    const before = await balance(t);
    const d1 = (await t.post(`/sandbox/orders/${o.id}/dispute`)).json.dispute;
    const d2 = (await t.post(`/sandbox/orders/${o.id}/dispute`)).json.dispute;
    assert.equal((await t.post(`/sandbox/disputes/${d1.dispute_id}/process`, { accepted: true })).status, 200);
    assert.equal((await t.post(`/sandbox/disputes/${d2.dispute_id}/process`, { accepted: true })).status, 200);
    const after = await balance(t);
    assert.equal(after.available, addKopecks(before.available, 95500), 'one credit of 1000.00 − 45.00');
    const deposits = (await t.get('/api/v1/finance/transactions?transaction_type=deposit&size=100')).json.items;
    assert.equal(deposits.filter((x: { client_description: string }) => x.client_description.includes(o.client_order_id)).length, 1);
    await t.close();
  });

  test('an accepted dispute on an unpaid Buy completes it, and the order is credited once in all', async () => {
    const t = makeSandbox({ seed: false });
    const o = (await t.post('/api/v1/order/', buyOrder({ amount: '1000.00' }))).json;
    const before = await balance(t);
    const d = (await t.post(`/sandbox/orders/${o.id}/dispute`)).json.dispute;
    assert.equal((await t.post(`/sandbox/disputes/${d.dispute_id}/process`, { accepted: true })).status, 200);
    assert.equal((await order(t, o.client_order_id)).status, 'Completed');
    assert.equal((await t.post(`/sandbox/orders/${o.id}/complete`)).status, 409, 'no second completion');
    assert.equal((await balance(t)).available, addKopecks(before.available, 95500));
    await t.close();
  });

  test('top-up adds to available and records a deposit; a bad amount is 422', async () => {
    const t = makeSandbox({ seed: false });
    const r = await t.post('/sandbox/balance/top-up', { amount: '100.50' }, 'sandbox_empty_balance');
    assert.equal(r.json.deposit.available, '100.50');
    assert.equal((await t.post('/sandbox/balance/top-up', { amount: '1e3' })).status, 422);
    assert.equal((await t.post('/sandbox/balance/top-up', { amount: '-1' })).status, 422);
    await t.close();
  });

  test('reset throws away the terminal’s own data and settings, not other terminals’', async () => {
    const t = makeSandbox();
    const seeded = (await t.get('/api/v1/order/')).json.orders.total;
    await t.post('/api/v1/order/', buyOrder({ client_order_id: 'to-forget' }));
    await t.post('/api/v1/order/', buyOrder({ client_order_id: 'to-keep' }), 'sandbox_with_form');
    await t.post('/sandbox/terminal', { webhook_url: 'https://x.example/h' });
    const r = await t.post('/sandbox/reset');
    assert.equal(r.status, 200);
    assert.equal(r.json.terminal.webhook_url, null);
    assert.equal((await t.get('/api/v1/order/search-by-client-order-id?id=to-forget')).json.orders.total, 0);
    assert.equal((await t.get('/api/v1/order/')).json.orders.total, seeded);
    assert.equal((await t.get('/api/v1/order/search-by-client-order-id?id=to-keep', 'sandbox_with_form')).json.orders.total, 1);
    await t.close();
  });
});
