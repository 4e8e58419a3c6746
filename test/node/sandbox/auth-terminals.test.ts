import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { PROVIDER_MESSAGES } from '../../../src/provider/facts.js';
import { KEY, buyOrder, makeSandbox, sellOrder } from './helpers.js';

describe('auth', () => {
  const t = makeSandbox();
  after(() => t.close());

  for (const path of [
    '/api/v1/form/search',
    '/api/v1/disputes/search',
    '/api/v1/finance/transactions',
    '/api/v1/finance/payment_methods',
    '/api/v1/finance/balance',
    '/api/v1/order/',
    '/api/v1/order/search-by-client-order-id?id=x',
  ]) {
    test(`GET ${path} without X-API-Key answers 401 with success false`, async () => {
      const r = await t.get(path, null);
      assert.equal(r.status, 401);
      assert.deepEqual(r.json, { success: false, message: PROVIDER_MESSAGES.unauthorized });
    });
  }

  test('an unknown key answers 401 on creation too', async () => {
    const r = await t.post('/api/v1/order/', buyOrder(), 'no-such-key');
    assert.equal(r.status, 401);
    assert.equal(r.json.success, false);
  });

  test('scenario controls need the key as well', async () => {
    const r = await t.post('/sandbox/clock/advance', { seconds: 1 }, null);
    assert.equal(r.status, 401);
  });

  test('the hosted form and the OpenAPI document need no key', async () => {
    assert.equal((await t.get('/openapi.json', null)).status, 200);
    assert.equal((await t.get('/pay?session_id=nope', null)).status, 404);
  });
});

describe('terminals', () => {
  const t = makeSandbox({ seed: false });
  after(() => t.close());

  test('one terminal never sees another terminal’s orders', async () => {
    const created = await t.post('/api/v1/order/', buyOrder({ client_order_id: 'isolated-1' }));
    assert.equal(created.status, 201);
    const other = await t.get('/api/v1/order/search-by-client-order-id?id=isolated-1', 'sandbox_with_form');
    assert.equal(other.json.orders.total, 0);
    const own = await t.get('/api/v1/order/search-by-client-order-id?id=isolated-1');
    assert.equal(own.json.orders.total, 1);
    const control = await t.post(`/sandbox/orders/${created.json.id}/complete`, {}, 'sandbox_with_form');
    assert.equal(control.status, 404);
  });

  test('another terminal cannot touch this one’s disputes, form sessions or their lists', async () => {
    const order = (await t.post('/api/v1/order/', buyOrder({ client_order_id: 'isolated-2' }))).json;
    assert.equal((await t.post(`/sandbox/orders/${order.id}/dispute`, {}, 'sandbox_with_form')).status, 404);
    const dispute = (await t.post(`/sandbox/orders/${order.id}/dispute`)).json.dispute;
    assert.equal((await t.post(`/sandbox/disputes/${dispute.dispute_id}/process`, { accepted: true }, 'sandbox_with_form')).status, 404);
    assert.equal((await t.get(`/api/v1/disputes/search?dispute_id=${dispute.dispute_id}`, 'sandbox_with_form')).json.data.total, 0);
    const form = (await t.post('/api/v1/form/create', { order_data: { client_order_id: 'isolated-3', order_side: 'Buy', amount: '1500.00' } })).json;
    const sid = form.form_data.session_id;
    assert.equal((await t.post(`/sandbox/sessions/${sid}/cancel`, {}, 'sandbox_with_form')).status, 404);
    assert.equal((await t.get(`/api/v1/form/search?session_id=${sid}`, 'sandbox_with_form')).json.total, 0);
    const own = await t.get(`/api/v1/form/search?session_id=${sid}`);
    assert.equal(own.json.items[0].state, 'method_selection', 'untouched');
    assert.equal((await t.get(`/api/v1/disputes/search?dispute_id=${dispute.dispute_id}`)).json.data.items[0].processed, false);
  });

  test('each terminal has its own balance', async () => {
    await t.post('/sandbox/balance/top-up', { amount: '10.00' });
    const a = await t.get('/api/v1/finance/balance');
    const b = await t.get('/api/v1/finance/balance', 'sandbox_empty_balance');
    assert.notEqual(a.json.deposit.id, b.json.deposit.id);
    assert.equal(b.json.deposit.available, '0.00');
  });

  test('GET /sandbox/terminal shows the settings and the webhook secret', async () => {
    const r = await t.get('/sandbox/terminal');
    assert.equal(r.json.terminal.integration_type, 'plain');
    assert.equal(r.json.terminal.form_activated, true);
    assert.deepEqual([...r.json.terminal.enabled_buttons].sort(), ['AlfaPay', 'SberPay', 'TPay', 'VTBPay']);
    assert.equal(r.json.terminal.webhook_secret, t.sandbox.webhookSecret(KEY));
    assert.notEqual(t.sandbox.webhookSecret(KEY), t.sandbox.webhookSecret('sandbox_with_form'));
  });

  test('POST /sandbox/terminal changes settings and refuses bad ones with 422', async () => {
    const ok = await t.post('/sandbox/terminal', { webhook_url: 'https://merchant.example/hook', enabled_buttons: ['TPay'] }, 'sandbox_form_off');
    assert.equal(ok.status, 200);
    assert.equal(ok.json.terminal.webhook_url, 'https://merchant.example/hook');
    const bad = await t.post('/sandbox/terminal', { integration_type: 'other' }, 'sandbox_form_off');
    assert.equal(bad.status, 422);
    assert.match(bad.json.message, /integration_type/);
  });
});

describe('preset keys', () => {
  const t = makeSandbox({ seed: false });
  after(() => t.close());
  const form = (extra: Record<string, unknown> = {}) => ({ order_data: { client_order_id: 'f', order_side: 'Buy', amount: '1000.00', ...extra } });

  test('sandbox_form_off: form creation answers 409', async () => {
    const r = await t.post('/api/v1/form/create', form(), 'sandbox_form_off');
    assert.equal(r.status, 409);
    assert.deepEqual(r.json, { success: false, message: PROVIDER_MESSAGES.form_not_activated });
  });

  test('sandbox_sber_only: SberPay works, another button_name answers 400', async () => {
    assert.equal((await t.post('/api/v1/form/create', form({ button_name: 'SberPay' }), 'sandbox_sber_only')).status, 201);
    const r = await t.post('/api/v1/form/create', form({ button_name: 'TPay' }), 'sandbox_sber_only');
    assert.equal(r.status, 400);
    assert.equal(r.json.message, PROVIDER_MESSAGES.button_not_enabled);
  });

  test('sandbox_empty_balance: any Sell answers 402', async () => {
    const r = await t.post('/api/v1/order/', sellOrder({ amount: '500.00' }), 'sandbox_empty_balance');
    assert.equal(r.status, 402);
    assert.equal(r.json.message, PROVIDER_MESSAGES.insufficient_funds);
  });

  test('sandbox_rate_limited: the sixth request within a minute answers 429, and the next minute works again', async () => {
    for (let i = 0; i < 5; i++) assert.equal((await t.get('/api/v1/finance/balance', 'sandbox_rate_limited')).status, 200);
    const limited = await t.get('/api/v1/finance/balance', 'sandbox_rate_limited');
    assert.equal(limited.status, 429);
    assert.equal(limited.json.message, PROVIDER_MESSAGES.rate_limited);
    assert.ok(Number(limited.headers.get('Retry-After')) >= 1);
    const create = await t.post('/api/v1/order/', buyOrder(), 'sandbox_rate_limited');
    assert.equal(create.status, 429);
    assert.equal(create.json.message, PROVIDER_MESSAGES.user_pending_limit, 'H2H creation answers the document’s 429 text');
    t.sandbox.clock.advance(61);
    assert.equal((await t.get('/api/v1/finance/balance', 'sandbox_rate_limited')).status, 200);
  });

  test('sandbox_with_form: a Buy order comes with form_url', async () => {
    const r = await t.post('/api/v1/order/', buyOrder(), 'sandbox_with_form');
    assert.equal(r.status, 201);
    assert.match(r.json.form_url, /\/pay\?session_id=/);
  });

  test('the main key cannot be a preset key', async () => {
    const { createSandbox } = await import('../../../src/sandbox/index.js');
    assert.throws(() => createSandbox({ apiKey: 'sandbox_with_form' }), /preset/);
  });
});
