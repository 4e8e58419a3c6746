/**
 * Terminals per currency (provider-notes.md: "terminal = currency + region"): the preset
 * `sandbox_uzs`, `createSandbox({ currency })`, `POST /sandbox/terminal {"currency"}`. A non-RUB
 * terminal lists card and card-transfer methods with limits in its currency, no SBP, no NSPK link.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { AGGREGATE_METHOD_IDS } from '../../../src/provider/index.js';
import { createSandbox, paymentMethodsFor, PAYMENT_METHODS, TERMINAL_CURRENCIES } from '../../../src/sandbox/index.js';
import { KEY, makeSandbox } from './helpers.js';

const UZS = 'sandbox_uzs';

interface MethodJson {
  method_id: string;
  method_type: string;
  method_currency: string;
  nspk_code: string | null;
  ranges: { fee_side: string; currency: string; min_amount: number; max_amount: number }[];
}

describe('the aggregate methods carry the provider’s real ids; bank methods keep stable ids', () => {
  test('RUB: every aggregate id of provider-notes.md, TransSBP and TransBankCard included', async () => {
    const t = makeSandbox({ seed: false });
    const methods = (await t.get('/api/v1/finance/payment_methods')).json.payment_methods as MethodJson[];
    for (const [type, id] of Object.entries(AGGREGATE_METHOD_IDS)) {
      const m = methods.find((x) => x.method_id === id);
      assert.ok(m, `${type} ${id}`);
      assert.equal(m.method_type, type);
      assert.equal(m.nspk_code, null);
    }
    await t.close();
  });

  test('bank methods have the same ids in every sandbox (two sandboxes, two keys)', async () => {
    const a = createSandbox({ apiKey: 'a', seed: false, sweepIntervalMs: 0 });
    const b = createSandbox({ apiKey: 'b', seed: false, sweepIntervalMs: 0 });
    const ids = async (s: typeof a, key: string) =>
      ((await (await s.app.request('/api/v1/finance/payment_methods', { headers: { 'X-API-Key': key } })).json()) as { payment_methods: MethodJson[] }).payment_methods
        .map((m) => m.method_id)
        .sort();
    assert.deepEqual(await ids(a, 'a'), await ids(b, 'b'));
    await a.close();
    await b.close();
  });

  test('each aggregate id creates an order; the concrete method is a bank method of the aggregate’s type', async () => {
    const t = makeSandbox({ seed: false });
    const amounts: Record<string, string> = { SBP: '1500.00', BankCard: '1500.00', TransSBP: '1500.00', TransBankCard: '1500.00', BankAccount: '1500.00', NSPKLink: '1500.00' };
    for (const [type, id] of Object.entries(AGGREGATE_METHOD_IDS)) {
      const r = await t.post('/api/v1/order/', { client_order_id: `agg-${type}`, order_side: 'Buy', payment_method_id: id, amount: amounts[type] });
      assert.equal(r.status, 201, `${type}: ${r.text}`);
      assert.equal(r.json.initial_method_id, id);
      assert.equal(r.json.method_type, type);
      assert.equal(r.json.currency, 'RUB');
    }
    await t.close();
  });

  test('TransSBP and TransBankCard also work by method_type (way 2) on a RUB terminal', async () => {
    const t = makeSandbox({ seed: false });
    for (const type of ['TransSBP', 'TransBankCard']) {
      const r = await t.post('/api/v1/order/', { client_order_id: `way2-${type}`, order_side: 'Buy', method_type: type, amount: '2000.00' });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.json.method_id, AGGREGATE_METHOD_IDS[type as keyof typeof AGGREGATE_METHOD_IDS]);
    }
    await t.close();
  });
});

describe('non-RUB terminals', () => {
  test('the preset sandbox_uzs: card and transfer methods only, limits and fees in UZS, no SBP, no NSPK link', async () => {
    const t = makeSandbox({ seed: false });
    const methods = (await t.get('/api/v1/finance/payment_methods', UZS)).json.payment_methods as MethodJson[];
    assert.ok(methods.length >= 3);
    for (const m of methods) {
      assert.ok(['BankCard', 'TransBankCard'].includes(m.method_type), m.method_type);
      assert.equal(m.method_currency, 'UZS');
      assert.equal(m.nspk_code, null);
      for (const r of m.ranges) assert.equal(r.currency, 'UZS');
    }
    const card = methods.find((m) => m.method_id === AGGREGATE_METHOD_IDS.BankCard)!;
    assert.ok(card, 'the BankCard aggregate keeps its id on a UZS terminal');
    assert.ok(card.ranges.find((r) => r.fee_side === 'Buy')!.min_amount >= 10_000, 'limits are in sums, not roubles');
    assert.ok(methods.some((m) => m.method_id === AGGREGATE_METHOD_IDS.TransBankCard));
    const terminal = (await t.get('/sandbox/terminal', UZS)).json.terminal;
    assert.equal(terminal.currency, 'UZS');
    assert.deepEqual(terminal.enabled_buttons, [], 'the four button_names are Russian banks');
    await t.close();
  });

  test('a UZS order: card requisites, no payment link, amounts and balance in UZS', async () => {
    const t = makeSandbox({ seed: false });
    const before = (await t.get('/api/v1/finance/balance', UZS)).json.deposit;
    assert.equal(before.currency, 'UZS');
    const r = await t.call('POST', '/api/v1/order/', { client_order_id: 'uz-1', order_side: 'Buy', payment_method_id: AGGREGATE_METHOD_IDS.BankCard, amount: 250000 }, { key: UZS });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.currency, 'UZS');
    assert.equal(r.json.amount, '250000.00');
    assert.equal(r.json.payment_link, null);
    assert.match(r.json.holder_account, /^(860049|986001)\d{10}$/);
    const done = await t.call('POST', `/sandbox/orders/${r.json.id}/complete`, undefined, { key: UZS });
    assert.equal(done.status, 200);
    const after = (await t.get('/api/v1/finance/balance', UZS)).json.deposit;
    const credited = Math.round((Number(after.available) - Number(before.available)) * 100);
    assert.equal(credited, Math.round((250000 - Number(r.json.fee)) * 100));
    const tx = (await t.get('/api/v1/finance/transactions?size=1', UZS)).json.items[0];
    assert.equal(tx.terminal.currency, 'UZS');
    await t.close();
  });

  test('way 2 (method_type) works for RUB only: a UZS terminal answers 400 naming payment_method_id', async () => {
    const t = makeSandbox({ seed: false });
    const r = await t.call('POST', '/api/v1/order/', { client_order_id: 'uz-2', order_side: 'Buy', method_type: 'BankCard', amount: '250000' }, { key: UZS });
    assert.equal(r.status, 400);
    assert.match(r.json.message, /RUB.*payment_method_id/);
    const sbp = await t.call('POST', '/api/v1/order/', { client_order_id: 'uz-3', order_side: 'Buy', payment_method_id: AGGREGATE_METHOD_IDS.SBP, amount: '250000' }, { key: UZS });
    assert.equal(sbp.status, 404, 'no SBP on a UZS terminal');
    await t.close();
  });

  test('createSandbox({ currency }) makes the main terminal of that currency; its seeded history is in it', async () => {
    const t = makeSandbox({ currency: 'KZT' });
    const balance = (await t.get('/api/v1/finance/balance')).json.deposit;
    assert.equal(balance.currency, 'KZT');
    const orders = (await t.get('/api/v1/order/?size=100')).json.orders.items as { currency: string; payment_link: string | null }[];
    assert.ok(orders.length > 0);
    assert.ok(orders.every((o) => o.currency === 'KZT' && o.payment_link === null));
    const sessions = (await t.get('/api/v1/form/search?size=100')).json.items as { currency: string }[];
    assert.ok(sessions.every((s) => s.currency === 'KZT'));
    assert.equal((await t.get('/api/v1/form/search?currency=KZT')).json.total, sessions.length);
    assert.equal((await t.get('/api/v1/form/search?currency=RUB')).json.total, 0);
    await t.close();
  });

  test('an unknown currency is refused when the sandbox is made, and by POST /sandbox/terminal with a 422', async () => {
    assert.throws(() => createSandbox({ currency: 'USD' as never }), /currency must be one of RUB, UZS, KZT, AZN, TJS, EUR/);
    const t = makeSandbox({ seed: false });
    const r = await t.post('/sandbox/terminal', { currency: 'XYZ' });
    assert.equal(r.status, 422);
    assert.match(r.json.message, /currency/);
    await t.close();
  });

  test('POST /sandbox/terminal {"currency"} starts the terminal afresh in that currency; reset brings its preset back', async () => {
    const t = makeSandbox({ seed: false });
    await t.post('/api/v1/order/', { client_order_id: 'rub-1', order_side: 'Buy', method_type: 'SBP', amount: '1500.00' });
    const r = await t.post('/sandbox/terminal', { currency: 'EUR' });
    assert.equal(r.status, 200);
    assert.equal(r.json.terminal.currency, 'EUR');
    assert.match(r.json.message, /afresh in EUR/);
    assert.equal((await t.get('/api/v1/order/search-by-client-order-id?id=rub-1')).json.orders.total, 0, 'the RUB orders are gone');
    const balance = (await t.get('/api/v1/finance/balance')).json.deposit;
    assert.equal(balance.currency, 'EUR');
    assert.equal(balance.available, '2500.00');
    const eur = await t.post('/api/v1/order/', { client_order_id: 'eur-1', order_side: 'Buy', payment_method_id: AGGREGATE_METHOD_IDS.BankCard, amount: '100.00' });
    assert.equal(eur.status, 201, eur.text);
    assert.equal(eur.json.currency, 'EUR');
    await t.post('/sandbox/reset');
    assert.equal((await t.get('/sandbox/terminal')).json.terminal.currency, 'RUB');
    await t.close();
  });

  test('the exported catalogues: every currency has methods of its own money; RUB is PAYMENT_METHODS', () => {
    assert.equal(paymentMethodsFor('RUB'), PAYMENT_METHODS);
    for (const currency of TERMINAL_CURRENCIES) {
      const methods = paymentMethodsFor(currency);
      assert.ok(methods.every((m) => m.currency === currency));
      if (currency !== 'RUB') assert.ok(methods.every((m) => m.type === 'BankCard' || m.type === 'TransBankCard'), currency);
    }
    assert.equal(KEY, 'test_key');
  });

  test('the hosted form of a UZS terminal: methods and amounts in UZS', async () => {
    const t = makeSandbox({ seed: false });
    const form = await t.call('POST', '/api/v1/form/create', { order_data: { client_order_id: 'uz-form', order_side: 'Buy', amount: '250000' } }, { key: UZS });
    assert.equal(form.status, 201, form.text);
    const id = form.json.form_data.session_id;
    const methods = await t.get(`/pay/api/methods?order_ref=${id}`, null);
    assert.equal(methods.json.currency, 'UZS');
    assert.ok(methods.json.methods.length > 0);
    assert.ok(methods.json.methods.every((m: { type: string; total: string }) => m.type !== 'SBP' && m.total === '250000.00'));
    const page = await t.call('GET', `/pay?session_id=${id}&lang=en`, undefined, { key: null });
    assert.match(page.text, /UZS\s250,000</); // no minor units in sums (issue 20)
    await t.close();
  });
});
