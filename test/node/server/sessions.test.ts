/**
 * GET /methods and POST /sessions against a fake provider: price and identity from the server,
 * the three modes, the choice of method checked against the provider's list, idempotency.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseOrderView } from '../../../src/protocol/index.js';
import type { CreateOrderRequest, FormCreateRequest } from '../../../src/provider/schemas.js';
import { ProviderError } from '../../../src/provider/errors.js';
import {
  BASE,
  BIG_ONLY_ID,
  CARD_ID,
  createRequest,
  CATALOG,
  createSession,
  deferred,
  FakeProvider,
  makeHarness,
  SBER_SBP_ID,
  SBP_ID,
  TBANK_SBP_ID,
} from './fake-provider.js';
import type { Harness } from './fake-provider.js';

const sentOrder = (h: Harness, i = 0) => h.provider.calls.filter((c) => c.method === 'createOrder')[i]!.args[0] as CreateOrderRequest;
const sentForm = (h: Harness, i = 0) => h.provider.calls.filter((c) => c.method === 'createForm')[i]!.args[0] as FormCreateRequest;
const post = (h: Harness, body: unknown, headers: Record<string, string> = {}) => h.handler(createRequest(body, headers));
const errorCode = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

describe('GET /methods', () => {
  test('by default the merchant bears the fee: every method shows fee 0 and the price as the total', async () => {
    const h = makeHarness();
    const res = await h.handler(new Request(`${BASE}/methods?order_ref=tee`));
    const json = (await res.json()) as { methods: Array<{ fee: string; fixed_fee: string | null; total: string }> };
    assert.ok(json.methods.length > 0);
    for (const m of json.methods) assert.deepEqual([m.fee, m.fixed_fee, m.total], ['0.00', null, '1500.00']);
  });

  test('feePayer shopper: the order is created for price + the chosen method\'s fee, the total the list showed', async () => {
    const h = makeHarness({ feePayer: 'shopper' });
    const res = await post(h, { order_ref: 'tee', payment_method_id: CARD_ID });
    assert.equal(res.status, 201);
    assert.equal(sentOrder(h).amount, '1540.00');
    assert.equal(((await res.json()) as { order: { amount: string } }).order.amount, '1540.00');
  });

  test('lists the active Buy methods whose range holds the amount, with the fee the shopper pays', async () => {
    const h = makeHarness({ feePayer: 'shopper' });
    const res = await h.handler(new Request(`${BASE}/methods?order_ref=tee`));
    assert.equal(res.status, 200);
    const json = (await res.json()) as { methods: Array<Record<string, unknown>>; amount: string; currency: string };
    assert.equal(json.amount, '1500.00');
    assert.equal(json.currency, 'RUB');
    const ids = json.methods.map((m) => m.id);
    assert.deepEqual(ids, [SBP_ID, CARD_ID, SBER_SBP_ID, TBANK_SBP_ID], 'the account method (from 100 000) is left out');
    assert.deepEqual(json.methods[0], { id: SBP_ID, name: 'СБП', type: 'SBP', bank: null, fee: '22.50', fixed_fee: null, total: '1522.50' });
    assert.deepEqual(json.methods[1], { id: CARD_ID, name: 'Карта', type: 'BankCard', bank: null, fee: '40.00', fixed_fee: '10.00', total: '1540.00' });
    assert.equal(json.methods[2]!.bank, 'sberbank');
    assert.equal(json.methods[3]!.bank, 'tinkoff');
  });

  test('the provider list is cached briefly: one provider call for many requests, a new one after the cache time', async () => {
    const h = makeHarness({ methodsCacheSeconds: 30 });
    await Promise.all(Array.from({ length: 5 }, () => h.handler(new Request(`${BASE}/methods?order_ref=tee`))));
    await h.handler(new Request(`${BASE}/methods?order_ref=mug`));
    assert.equal(h.provider.count('listPaymentMethods'), 1);
    h.clock.now += 30_000;
    await h.handler(new Request(`${BASE}/methods?order_ref=tee`));
    assert.equal(h.provider.count('listPaymentMethods'), 2);
  });

  test('offers follow the provider list: a method turned off there is gone once the list is read again', async () => {
    const h = makeHarness({ methodsCacheSeconds: 30 });
    const ids = async (ref: string) =>
      ((await (await h.handler(new Request(`${BASE}/methods?order_ref=${ref}`))).json()) as { methods: Array<{ id: string }> }).methods.map((m) => m.id);
    assert.ok((await ids('tee')).includes(CARD_ID));
    h.provider.methods[1]!.active = false;
    assert.ok((await ids('tee')).includes(CARD_ID), 'the cached list still has it');
    h.clock.now += 30_000;
    assert.ok(!(await ids('tee')).includes(CARD_ID));
    assert.ok(!(await ids('mug')).includes(CARD_ID));
  });

  test('each amount gets the offers of its own amount from one cached list', async () => {
    const h = makeHarness({ methodsCacheSeconds: 30, feePayer: 'shopper' });
    const methods = async (ref: string) =>
      ((await (await h.handler(new Request(`${BASE}/methods?order_ref=${ref}`))).json()) as { methods: Array<{ id: string; total: string }>; amount: string });
    const tee = await methods('tee');
    const tiny = await methods('tiny');
    const teeAgain = await methods('tee');
    assert.equal(h.provider.count('listPaymentMethods'), 1);
    assert.equal(tee.methods.find((m) => m.id === SBP_ID)?.total, '1522.50');
    assert.deepEqual(tiny.methods, [], 'no method takes 10.00');
    assert.deepEqual(teeAgain, tee);
  });

  test('inactive methods and methods in another currency are left out', async () => {
    const h = makeHarness();
    h.provider.methods[0]!.active = false;
    h.provider.methods[1]!.method_currency = 'KZT';
    const json = (await (await h.handler(new Request(`${BASE}/methods?order_ref=tee`))).json()) as { methods: Array<{ id: string }> };
    assert.deepEqual(
      json.methods.map((m) => m.id),
      [SBER_SBP_ID, TBANK_SBP_ID],
    );
  });

  test('an unknown order_ref is a 404; a missing one a 400', async () => {
    const h = makeHarness();
    const unknown = await h.handler(new Request(`${BASE}/methods?order_ref=nope`));
    assert.equal(unknown.status, 404);
    assert.equal(await errorCode(unknown), 'order_not_found');
    const missing = await h.handler(new Request(`${BASE}/methods`));
    assert.equal(missing.status, 400);
    assert.match(((await missing.json()) as { error: { message: string } }).error.message, /order_ref is required/);
  });

  test('a provider failure while listing is a retryable error', async () => {
    const h = makeHarness();
    h.provider.failNext('listPaymentMethods', () => {
      throw new ProviderError({ code: 'network', message: 'fetch failed', retryable: true });
    });
    const res = await h.handler(new Request(`${BASE}/methods?order_ref=tee`));
    assert.equal(res.status, 503);
    const e = ((await res.json()) as { error: { code: string; retryable: boolean } }).error;
    assert.deepEqual([e.code, e.retryable], ['provider_unavailable', true]);
    assert.equal((await h.handler(new Request(`${BASE}/methods?order_ref=tee`))).status, 200, 'a failure is not cached');
  });
});

describe('POST /sessions: price and identity come from the server', () => {
  test('creates an H2H order and answers 201 with session, OrderView and server_time', async () => {
    const h = makeHarness();
    const res = await post(h, { order_ref: 'tee', method_type: 'SBP' });
    assert.equal(res.status, 201);
    const json = (await res.json()) as { session: string; order: unknown; server_time: string };
    assert.deepEqual(Object.keys(json).sort(), ['order', 'server_time', 'session']);
    assert.equal(json.server_time, new Date(h.clock.now).toISOString());
    const view = parseOrderView(json.order);
    assert.equal(view.status, 'pending');
    assert.equal(view.provider_status, 'Unpaid');
    assert.equal(view.amount, '1500.00');
    assert.equal(view.fee, '22.50');
    assert.equal(view.currency, 'RUB');
    assert.deepEqual(view.requisites, { holder_name: 'Иванов Иван Иванович', holder_account: '+79991234567', kind: 'phone', bank_name: null });
    assert.equal(view.redirect_url, 'https://shop.example/thanks');
    assert.equal(view.support_url, 'https://shop.example/help');
    assert.equal(view.return_url, 'https://shop.example/cart');
    assert.equal(view.id, h.provider.orders[0]!.id);
    const sent = sentOrder(h);
    assert.equal(sent.amount, '1500.00');
    assert.equal(sent.order_side, 'Buy');
    assert.equal(sent.method_type, 'SBP');
    assert.equal(sent.redirect_url, undefined, 'plain H2H does not send order_with_form fields');
  });

  test('an amount in the body is ignored and never forwarded', async () => {
    const h = makeHarness();
    const res = await post(h, { order_ref: 'tee', method_type: 'SBP', amount: '1.00', price: 1, total: '0.01' });
    assert.equal(res.status, 201);
    const json = (await res.json()) as { order: { amount: string } };
    assert.equal(json.order.amount, '1500.00');
    assert.equal(sentOrder(h).amount, '1500.00');
    assert.ok(!JSON.stringify(sentOrder(h)).includes('"1.00"'));
  });

  test('identity and URLs in the body are ignored: user_id, client_order_id, redirect_url come from resolveOrder only', async () => {
    const h = makeHarness({
      resolveOrder: () => ({ amount: '1500.00', user_id: 'merchant-user-7', customer_name: 'Пётр', redirect_url: 'https://shop.example/ok' }),
    });
    const res = await post(h, {
      order_ref: 'tee',
      method_type: 'SBP',
      user_id: 'attacker',
      client_order_id: 'attacker-chosen',
      redirect_url: 'https://evil.example/phish',
      support_url: 'javascript:alert(1)',
    });
    assert.equal(res.status, 201);
    const sent = sentOrder(h);
    assert.equal(sent.user_id, 'merchant-user-7');
    assert.equal(sent.customer_name, 'Пётр');
    assert.notEqual(sent.client_order_id, 'attacker-chosen');
    const view = ((await res.json()) as { order: { redirect_url: string | null; support_url: string | null } }).order;
    assert.equal(view.redirect_url, 'https://shop.example/ok');
    assert.equal(view.support_url, null);
  });

  test('client_order_id is generated on the server: unique, at most 64 characters', async () => {
    const h = makeHarness();
    for (let i = 0; i < 20; i++) await createSession(h);
    const ids = h.provider.calls.filter((c) => c.method === 'createOrder').map((c) => (c.args[0] as CreateOrderRequest).client_order_id);
    assert.equal(new Set(ids).size, 20);
    for (const id of ids) assert.ok(id.length >= 1 && id.length <= 64, id);
  });

  test("resolveOrder's client_order_id is used when it gives one", async () => {
    const h = makeHarness({ resolveOrder: () => ({ amount: '1500.00', client_order_id: 'SHOP-ORDER-42' }) });
    const { order } = await createSession(h);
    assert.equal(sentOrder(h).client_order_id, 'SHOP-ORDER-42');
    assert.equal(order.client_order_id, 'SHOP-ORDER-42');
  });

  test('resolveOrder gets the order_ref and the request (to read the shopper\'s own cookie)', async () => {
    let seen: { ref: string; cookie: string | null } | null = null;
    const h = makeHarness({
      resolveOrder: (ref, req) => {
        seen = { ref, cookie: req.headers.get('cookie') };
        return { amount: '199.00' };
      },
    });
    await createSession(h, { order_ref: 'cart-1', method_type: 'SBP' }, { cookie: 'sid=abc' });
    assert.deepEqual(seen, { ref: 'cart-1', cookie: 'sid=abc' });
  });

  test('an unknown order_ref is a 404 and creates nothing', async () => {
    const h = makeHarness();
    const res = await post(h, { order_ref: 'nope', method_type: 'SBP' });
    assert.equal(res.status, 404);
    assert.equal(await errorCode(res), 'order_not_found');
    assert.equal(h.provider.count('createOrder'), 0);
  });

  test('a float, malformed or zero amount from resolveOrder is refused (500, logged), never sent', async () => {
    for (const amount of [1500.5, '15,00', '1e3', '0.00', '-5', '1.005'] as unknown[]) {
      const h = makeHarness({ resolveOrder: () => ({ amount: amount as string }) });
      const res = await post(h, { order_ref: 'tee', method_type: 'SBP' });
      assert.equal(res.status, 500, String(amount));
      assert.equal(await errorCode(res), 'internal_error');
      assert.equal(h.provider.count('createOrder'), 0);
      assert.ok(h.logs.some((l) => l.level === 'error' && /invalid amount/.test(l.message)));
    }
  });

  test('resolveOrder throwing is a 500 with a generic message, logged', async () => {
    const h = makeHarness({
      resolveOrder: () => {
        throw new Error('database is down: password=hunter2');
      },
    });
    const res = await post(h, { order_ref: 'tee', method_type: 'SBP' });
    assert.equal(res.status, 500);
    assert.ok(!(await res.text()).includes('hunter2'));
    assert.ok(h.logs.some((l) => l.level === 'error' && /resolveOrder threw/.test(l.message)));
  });

  test('a redirect URL from resolveOrder that is not http(s) is dropped with a warning', async () => {
    const h = makeHarness({ resolveOrder: () => ({ amount: '100.00', redirect_url: 'javascript:alert(1)', return_url: 'ftp://x' }) });
    const { order } = await createSession(h);
    assert.equal(order.redirect_url, null);
    assert.equal(order.return_url, null);
    assert.ok(h.logs.some((l) => l.level === 'warn' && /redirect_url/.test(l.message)));
  });

  test('the public webhook URL is sent as webhook_url', async () => {
    const h = makeHarness({ webhookUrl: 'https://shop.example/api/paydesk/webhooks' });
    await createSession(h);
    assert.equal(sentOrder(h).webhook_url, 'https://shop.example/api/paydesk/webhooks');
  });

  test('unique_amount: the adjusted amount is shown, with the requested one beside it', async () => {
    const h = makeHarness();
    const { order } = await createSession(h, { order_ref: 'unique', method_type: 'SBP' });
    assert.equal(sentOrder(h).unique_amount, true);
    assert.equal(order.amount, '1003.00');
    assert.equal(order.requested_amount, '1000.00');
  });

  test('an order whose amount does not match the request is not shown (502, logged)', async () => {
    const h = makeHarness();
    h.provider.uniqueBump = '50.00'; // beyond the documented +9
    const res = await post(h, { order_ref: 'unique', method_type: 'SBP' });
    assert.equal(res.status, 502);
    assert.equal(await errorCode(res), 'invalid_response');
    assert.ok(h.logs.some((l) => l.level === 'error' && /does not match/.test(l.message)));
  });
});

describe('POST /sessions: choosing the method', () => {
  test('by payment_method_id, checked against the list', async () => {
    const h = makeHarness();
    const { order } = await createSession(h, { order_ref: 'tee', payment_method_id: CARD_ID });
    assert.equal(sentOrder(h).payment_method_id, CARD_ID);
    assert.equal(sentOrder(h).method_type, undefined);
    assert.equal(order.requisites?.kind, 'card');
    assert.deepEqual(order.method, { id: CARD_ID, name: 'Карта', type: 'BankCard' });
  });

  test('an unknown payment_method_id, or one whose range does not hold the amount: 409 and no order', async () => {
    const h = makeHarness();
    for (const id of ['99999999-9999-4999-8999-999999999999', BIG_ONLY_ID]) {
      const res = await post(h, { order_ref: 'tee', payment_method_id: id });
      assert.equal(res.status, 409, id);
      assert.equal(await errorCode(res), 'method_unavailable');
    }
    assert.equal(h.provider.count('createOrder'), 0);
  });

  test('by method_type with nspk_code (way 2 of the document); the bank is named in the view', async () => {
    const h = makeHarness();
    const { order } = await createSession(h, { order_ref: 'tee', method_type: 'SBP', nspk_code: 'bank100000000111' });
    assert.equal(sentOrder(h).method_type, 'SBP');
    assert.equal(sentOrder(h).nspk_code, 'bank100000000111');
    assert.equal(order.bank, 'sberbank');
  });

  test('by method_type alone: the aggregate method, never a bank method listed before it (the view names no bank)', async () => {
    const provider = new FakeProvider();
    provider.methods = [...provider.methods.filter((m) => m.nspk_code !== null), ...provider.methods.filter((m) => m.nspk_code === null)];
    const h = makeHarness({}, provider);
    const { order } = await createSession(h, { order_ref: 'tee', method_type: 'SBP' });
    assert.equal(sentOrder(h).method_type, 'SBP');
    assert.equal(sentOrder(h).nspk_code, undefined);
    assert.equal(order.bank, null);
  });

  test('a method_type or bank code the provider does not list: 409 and no order', async () => {
    const h = makeHarness();
    for (const b of [
      { method_type: 'NSPKLink' },
      { method_type: 'SBP', nspk_code: 'bank100000000005' },
    ]) {
      const res = await post(h, { order_ref: 'tee', ...b });
      assert.equal(res.status, 409, JSON.stringify(b));
    }
    assert.equal(h.provider.count('createOrder'), 0);
  });

  test('by button_name or customer_bank: the listed SBP method of that bank', async () => {
    const h = makeHarness();
    const sber = await createSession(h, { order_ref: 'tee', button_name: 'SberPay' });
    assert.equal(sentOrder(h, 0).payment_method_id, SBER_SBP_ID);
    assert.equal(sber.order.bank, 'sberbank');
    const tbank = await createSession(h, { order_ref: 'tee', customer_bank: 'tinkoff' });
    assert.equal(sentOrder(h, 1).payment_method_id, TBANK_SBP_ID);
    assert.equal(tbank.order.bank, 'tinkoff');
  });

  test('a bank without a listed method (VTB): 409 and no order', async () => {
    const h = makeHarness();
    const res = await post(h, { order_ref: 'tee', button_name: 'VTBPay' });
    assert.equal(res.status, 409);
    assert.equal(h.provider.count('createOrder'), 0);
  });

  test('two ways at once, two different banks, or nspk_code alone are 400s', async () => {
    const h = makeHarness();
    for (const b of [
      { payment_method_id: SBP_ID, method_type: 'SBP' },
      { payment_method_id: SBP_ID, button_name: 'SberPay' },
      { button_name: 'SberPay', customer_bank: 'tinkoff' },
      { nspk_code: 'bank100000000111' },
    ]) {
      const res = await post(h, { order_ref: 'tee', ...b });
      assert.equal(res.status, 400, JSON.stringify(b));
      assert.equal(await errorCode(res), 'validation_failed');
    }
    assert.equal(h.provider.count('createOrder'), 0);
  });

  test('button_name and customer_bank naming the same bank are accepted together', async () => {
    const h = makeHarness();
    const res = await post(h, { order_ref: 'tee', button_name: 'TPay', customer_bank: 'tinkoff' });
    assert.equal(res.status, 201);
  });

  test('no method in H2H mode: 400 no_payment_method, no order', async () => {
    const h = makeHarness();
    const res = await post(h, { order_ref: 'tee' });
    assert.equal(res.status, 400);
    assert.equal(await errorCode(res), 'no_payment_method');
    assert.equal(h.provider.count('createOrder'), 0);
  });

  test('an amount no method accepts: 409 method_unavailable before any order', async () => {
    const h = makeHarness();
    const res = await post(h, { order_ref: 'tiny', method_type: 'SBP' });
    assert.equal(res.status, 409);
    assert.equal(await errorCode(res), 'method_unavailable');
    assert.equal(h.provider.count('createOrder'), 0);
  });
});

describe('POST /sessions: modes', () => {
  test('form: the provider form is created; the view carries form_url and is pending without an order', async () => {
    const h = makeHarness({ mode: 'form' });
    const { order } = await createSession(h, { order_ref: 'tee' });
    const sent = sentForm(h);
    assert.equal(sent.order_data.amount, '1500.00');
    assert.equal(sent.order_data.order_side, 'Buy');
    assert.equal(sent.redirect_url, 'https://shop.example/thanks');
    assert.equal(order.status, 'pending');
    assert.equal(order.id, '');
    assert.match(order.form_url ?? '', /^https:\/\/provider\.example\/pay\?session_id=/);
    assert.equal(order.requisites, null);
    assert.equal(order.amount, '1500.00');
    assert.equal(h.provider.count('createOrder'), 0);
  });

  test('form with a bank preselects its button', async () => {
    const h = makeHarness({ mode: 'form' });
    await createSession(h, { order_ref: 'tee', customer_bank: 'sberbank' });
    assert.equal(sentForm(h).order_data.button_name, 'SberPay');
  });

  test('order_with_form: an H2H order with the form fields; the view carries the provider form_url', async () => {
    const h = makeHarness({ mode: 'order_with_form' });
    const { order } = await createSession(h, { order_ref: 'tee', button_name: 'SberPay' });
    const sent = sentOrder(h);
    assert.equal(sent.redirect_url, 'https://shop.example/thanks');
    assert.equal(sent.return_url, 'https://shop.example/cart');
    assert.equal(sent.customer_bank, 'sberbank');
    assert.match(order.form_url ?? '', /^https:\/\/provider\.example\/pay/);
    assert.equal(order.status, 'pending');
  });

  test('the browser may pick only the enabled modes', async () => {
    const h = makeHarness({ mode: 'h2h' });
    const res = await post(h, { order_ref: 'tee', mode: 'form' });
    assert.equal(res.status, 400);
    assert.match(((await res.json()) as { error: { message: string } }).error.message, /mode form is not enabled/);
    const both = makeHarness({ mode: 'h2h', modes: ['h2h', 'form'] });
    assert.equal((await post(both, { order_ref: 'tee', mode: 'form' })).status, 201);
    assert.equal(both.provider.count('createForm'), 1);
  });
});

describe('POST /sessions: idempotency', () => {
  test('the same Idempotency-Key returns the same session and order, with one provider order', async () => {
    const h = makeHarness();
    const first = await post(h, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'key-1' });
    const second = await post(h, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'key-1' });
    assert.equal(first.status, 201);
    assert.equal(second.status, 201);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    const a = (await first.json()) as { session: string; order: { id: string } };
    const b = (await second.json()) as { session: string; order: { id: string } };
    assert.equal(a.session, b.session);
    assert.equal(a.order.id, b.order.id);
    assert.equal(h.provider.count('createOrder'), 1);
  });

  test('ten concurrent duplicates create exactly one order', async () => {
    const h = makeHarness();
    const hold = deferred();
    h.provider.failNext('createOrder', () => hold.promise);
    const pending = Array.from({ length: 10 }, () => post(h, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'burst' }));
    while (h.provider.count('createOrder') === 0) await new Promise((r) => setImmediate(r));
    hold.resolve();
    const res = await Promise.all(pending);
    assert.deepEqual(
      res.map((r) => r.status),
      Array(10).fill(201),
    );
    const sessions = new Set(await Promise.all(res.map(async (r) => ((await r.json()) as { session: string }).session)));
    assert.equal(sessions.size, 1);
    assert.equal(h.provider.orders.length, 1);
  });

  test('a reused key with different parameters: 409 idempotency_conflict, nothing created', async () => {
    const h = makeHarness();
    await post(h, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'key-2' });
    for (const b of [
      { order_ref: 'mug', method_type: 'SBP' },
      { order_ref: 'tee', payment_method_id: CARD_ID },
    ]) {
      const res = await post(h, b, { 'idempotency-key': 'key-2' });
      assert.equal(res.status, 409);
      assert.equal(await errorCode(res), 'idempotency_conflict');
    }
    assert.equal(h.provider.count('createOrder'), 1);
  });

  test('a different amount in the body is not a different request (it is ignored anyway)', async () => {
    const h = makeHarness();
    await post(h, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'key-3' });
    const res = await post(h, { order_ref: 'tee', method_type: 'SBP', amount: '1.00' }, { 'idempotency-key': 'key-3' });
    assert.equal(res.status, 201);
    assert.equal(h.provider.count('createOrder'), 1);
  });

  test('different keys make different orders', async () => {
    const h = makeHarness();
    await post(h, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'a' });
    await post(h, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'b' });
    assert.equal(h.provider.count('createOrder'), 2);
  });

  test('an invalid Idempotency-Key is a 400', async () => {
    const h = makeHarness();
    for (const key of ['x'.repeat(256), 'has space', 'a,b c']) {
      const res = await post(h, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': key });
      assert.equal(res.status, 400, key);
    }
    assert.equal(h.provider.count('createOrder'), 0);
  });

  test('a refusal by the provider releases the key: the same key may try again', async () => {
    const h = makeHarness();
    h.provider.failNext('createOrder', () => {
      throw new ProviderError({ code: 'no_traders', status: 500, message: 'No available traders', retryable: true });
    });
    const first = await post(h, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'retry-me' });
    assert.equal(first.status, 503);
    const e = ((await first.json()) as { error: { code: string; retryable: boolean } }).error;
    assert.deepEqual([e.code, e.retryable], ['no_traders', true]);
    const second = await post(h, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'retry-me' });
    assert.equal(second.status, 201);
    assert.equal(h.provider.orders.length, 1);
  });

  test('a lost answer (order created, answer timed out): the retry with the same key finds the order, never a second one', async () => {
    const h = makeHarness();
    h.provider.loseCreates = 1;
    const first = await post(h, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'lost' });
    assert.equal(first.status, 504);
    const e = ((await first.json()) as { error: { code: string; retryable: boolean } }).error;
    assert.deepEqual([e.code, e.retryable], ['timeout', true]);
    assert.equal(h.provider.orders.length, 1, 'the provider did create it');
    const retry = await post(h, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'lost' });
    assert.equal(retry.status, 201);
    const body = (await retry.json()) as { order: { id: string } };
    assert.equal(body.order.id, h.provider.orders[0]!.id);
    assert.equal(h.provider.orders.length, 1);
    assert.equal(h.provider.count('createOrder'), 1);
    assert.equal(h.provider.count('searchOrdersByClientOrderId'), 1);
  });

  test('a refused connection made nothing (the client says not_created): the retry creates at once, never "in progress"', async () => {
    const h = makeHarness();
    h.provider.failNext('createOrder', () => {
      throw new ProviderError({ code: 'network', message: 'fetch failed: connect ECONNREFUSED', retryable: true, outcome: 'not_created' });
    });
    assert.equal((await post(h, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'refused' })).status, 503);
    const retry = await post(h, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'refused' });
    assert.equal(retry.status, 201);
    assert.equal(h.provider.orders.length, 1);
    assert.equal(h.provider.count('searchOrdersByClientOrderId'), 0, 'nothing to look up');
    assert.ok(!h.logs.some((l) => l.level === 'error' && /provider/i.test(l.message)), 'a refusal is a warning, not an error');
  });

  test('a lost answer when nothing was created: no new create while the first may still land, then one with the same client_order_id', async () => {
    const h = makeHarness();
    h.provider.failNext('createOrder', () => {
      throw new ProviderError({ code: 'network', message: 'socket hang up', retryable: true });
    });
    assert.equal((await post(h, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'lost-2' })).status, 503);
    const early = await post(h, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'lost-2' });
    assert.equal(early.status, 409);
    assert.equal(await errorCode(early), 'idempotency_in_progress');
    assert.equal(h.provider.count('createOrder'), 1, 'looked up, not created again');
    h.clock.now += 61_000;
    const retry = await post(h, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'lost-2' });
    assert.equal(retry.status, 201);
    assert.equal(h.provider.orders.length, 1);
    assert.equal(sentOrder(h, 0).client_order_id, sentOrder(h, 1).client_order_id);
  });

  test('a takeover that is overtaken while it prices the order creates nothing: one provider order', async () => {
    let hold: { promise: Promise<void> } | null = null;
    let priced = 0;
    const h = makeHarness({
      idempotencyLeaseSeconds: 60,
      idempotencyWaitSeconds: 0.05,
      resolveOrder: async (ref) => {
        priced++;
        const wait = hold;
        hold = null;
        if (wait) await wait.promise;
        return CATALOG[ref] ?? null;
      },
    });
    const body = { order_ref: 'tee', method_type: 'SBP' };
    h.provider.failNext('createOrder', () => {
      throw new ProviderError({ code: 'network', message: 'socket hang up', retryable: true });
    });
    assert.equal((await post(h, body, { 'idempotency-key': 'slow' })).status, 503, 'the first create is uncertain');
    h.clock.now += 61_000; // the first create can no longer land
    // The second request takes the key over, then its pricing stalls past its lease.
    const slow = deferred();
    hold = slow;
    const second = post(h, body, { 'idempotency-key': 'slow' });
    while (priced < 2) await new Promise((r) => setImmediate(r));
    h.clock.now += 61_000;
    const third = await post(h, body, { 'idempotency-key': 'slow' });
    assert.equal(third.status, 201, 'the third takes the lapsed claim over and creates');
    slow.resolve();
    const late = await second;
    assert.equal(late.status, 409);
    assert.equal(await errorCode(late), 'idempotency_in_progress');
    assert.equal(h.provider.orders.length, 1, 'one order for one key');
  });

  test('a claim whose owner vanished is taken over after its lease', async () => {
    const h = makeHarness({ idempotencyLeaseSeconds: 60, idempotencyWaitSeconds: 0.05 });
    const stuck = deferred();
    h.provider.failNext('createOrder', () => stuck.promise);
    const first = post(h, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'stuck' });
    while (h.provider.count('createOrder') === 0) await new Promise((r) => setImmediate(r));
    const waiting = await post(h, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'stuck' });
    assert.equal(waiting.status, 409);
    assert.equal(await errorCode(waiting), 'idempotency_in_progress');
    h.clock.now += 61_000;
    const takeover = await post(h, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'stuck' });
    assert.equal(takeover.status, 201);
    stuck.reject(new ProviderError({ code: 'network', message: 'gone', retryable: true }));
    assert.equal((await first).status, 503);
    assert.equal(h.provider.orders.length, 1);
    const again = await post(h, { order_ref: 'tee', method_type: 'SBP' }, { 'idempotency-key': 'stuck' });
    assert.equal(again.status, 201);
    assert.equal(h.provider.orders.length, 1);
  });
});
