import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { FormCreateResponseSchema, FormSessionSchema } from '../../../src/provider/schemas.js';
import { PROVIDER_MESSAGES } from '../../../src/provider/facts.js';
import { parseOrderView } from '../../../src/protocol/index.js';
import { START, buyOrder, makeSandbox, methodId, type TestSandbox } from './helpers.js';

const form = (order: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  order_data: { client_order_id: `f-${Math.random().toString(36).slice(2)}`, order_side: 'Buy', amount: '1500.00', ...order },
  ...extra,
});
const P = { 'X-Paydesk': '1' };

async function session(t: TestSandbox, id: string, key?: string) {
  const r = await t.get(`/api/v1/form/search?session_id=${id}`, key);
  assert.equal(r.json.total, 1);
  return r.json.items[0];
}
async function select(t: TestSandbox, body: Record<string, unknown>, headers: Record<string, string> = P) {
  return t.call('POST', '/pay/api/sessions', body, { key: null, headers });
}

describe('POST /api/v1/form/create', () => {
  const t = makeSandbox({ seed: false });
  after(() => t.close());

  test('answers 201 with form_data: session id, form_url with the id, order_data with 2 digits, urls echoed', async () => {
    const r = await t.post(
      '/api/v1/form/create',
      form({ amount: 1500, unique_amount: true }, { redirect_url: 'https://shop.example/ok', support_url: 'https://shop.example/help', return_url: 'https://shop.example/cart' }),
    );
    assert.equal(r.status, 201);
    assert.ok(FormCreateResponseSchema.safeParse(r.json).success);
    const fd = r.json.form_data;
    assert.equal(fd.form_url, `http://localhost/pay?session_id=${fd.session_id}`);
    assert.equal(fd.order_data.amount, '1500.00');
    assert.equal(fd.order_data.unique_amount, true);
    assert.equal(fd.order_data.payment_method_id, null);
    assert.equal(fd.redirect_url, 'https://shop.example/ok');
    assert.equal(fd.support_url, 'https://shop.example/help');
    assert.equal(fd.return_url, 'https://shop.example/cart');
  });

  test('a new session waits in method_selection with 5-digit amount and microsecond timestamps', async () => {
    const id = (await t.post('/api/v1/form/create', form({ user_id: 'u-1' }))).json.form_data.session_id;
    const s = await session(t, id);
    assert.ok(FormSessionSchema.safeParse(s).success);
    assert.equal(s.state, 'method_selection');
    assert.equal(s.selection, true);
    assert.equal(s.amount, '1500.00000');
    assert.equal(s.search_count, 0);
    assert.equal(s.order_id, null);
    assert.equal(s.user_id, 'u-1');
    assert.equal(s.created_at, '2025-03-01T12:00:00.000000Z');
    assert.equal(s.requisites_request_starts_at, null);
    assert.equal(s.payment_confirmation_starts_at, null);
    assert.equal(Date.parse(s.expires_at) - START, 30 * 60 * 1000);
  });

  test('button_name skips method selection: the requisites are found at once', async () => {
    const id = (await t.post('/api/v1/form/create', form({ button_name: 'VTBPay' }))).json.form_data.session_id;
    const s = await session(t, id);
    assert.equal(s.state, 'requisites_found');
    assert.equal(s.selection, false);
    assert.equal(s.search_count, 1);
    assert.equal(s.payment_method_type, 'SBP');
    assert.equal(s.nspk_code, 'bank100000000005');
    assert.notEqual(s.order_id, null);
    assert.equal(s.requisites_request_starts_at, '2025-03-01T12:00:00.000000Z');
  });

  test('400 for order_side Sell', async () => {
    const r = await t.post('/api/v1/form/create', form({ order_side: 'Sell' }));
    assert.equal(r.status, 400);
    assert.deepEqual(r.json, { success: false, message: PROVIDER_MESSAGES.form_sell_not_allowed });
  });

  test('500 for the no-traders amount, and no session is created', async () => {
    const before = (await t.get('/api/v1/form/search')).json.total;
    const r = await t.post('/api/v1/form/create', form({ amount: '1500.13', client_order_id: 'nobody' }));
    assert.equal(r.status, 500);
    assert.equal(r.json.message, PROVIDER_MESSAGES.no_traders);
    assert.equal((await t.get('/api/v1/form/search')).json.total, before);
  });

  test('429 when the user already has 3 open sessions or unpaid orders', async () => {
    for (let i = 0; i < 2; i++) assert.equal((await t.post('/api/v1/form/create', form({ user_id: 'busy' }))).status, 201);
    assert.equal((await t.post('/api/v1/order/', buyOrder({ user_id: 'busy' }))).status, 201);
    const r = await t.post('/api/v1/form/create', form({ user_id: 'busy' }));
    assert.equal(r.status, 429);
    assert.equal(r.json.message, PROVIDER_MESSAGES.user_pending_limit);
  });

  test('an amount no method accepts answers 400 naming the amount', async () => {
    const r = await t.post('/api/v1/form/create', form({ amount: '5.00' }));
    assert.equal(r.status, 400);
    assert.match(r.json.message, /amount/);
  });

  test('malformed bodies answer 422 naming the field', async () => {
    const r = await t.post('/api/v1/form/create', form({ button_name: 'MirPay' }));
    assert.equal(r.status, 422);
    assert.match(r.json.message, /order_data\.button_name/);
    const noData = await t.post('/api/v1/form/create', { redirect_url: 'https://x.example' });
    assert.equal(noData.status, 422);
    assert.match(noData.json.message, /order_data/);
    const badUrl = await t.post('/api/v1/form/create', form({}, { redirect_url: 'javascript:alert(1)' }));
    assert.equal(badUrl.status, 422);
    assert.match(badUrl.json.message, /redirect_url/);
  });
});

describe('form session state machine through the hosted form', () => {
  test('method_selection → requisites_found → payment_confirmation → completed', async () => {
    const t = makeSandbox({ seed: false });
    const id = (await t.post('/api/v1/form/create', form({}, { redirect_url: 'https://shop.example/ok' }))).json.form_data.session_id;
    const methods = await t.get(`/pay/api/methods?order_ref=${id}`, null);
    assert.equal(methods.status, 200);
    const sber = methods.json.methods.find((m: { id: string }) => m.id === methodId('sbp:sber'));
    assert.deepEqual(sber, { id: methodId('sbp:sber'), name: 'СБП — Сбербанк', type: 'SBP', bank: 'sberbank', fee: '0.00', fixed_fee: null, total: '1500.00' });

    t.sandbox.clock.advance(60);
    const chosen = await select(t, { order_ref: id, payment_method_id: methodId('sbp:sber') });
    assert.equal(chosen.status, 201);
    assert.equal(chosen.json.session, id);
    const view = parseOrderView(chosen.json.order);
    assert.equal(view.status, 'pending');
    assert.equal(view.amount, sber.total, 'the list and the form ask for the same amount: the fee is the merchant’s cost');
    assert.equal(view.bank, 'sberbank');
    assert.equal(view.requisites?.kind, 'phone');
    assert.equal(view.redirect_url, 'https://shop.example/ok');
    let s = await session(t, id);
    assert.equal(s.state, 'requisites_found');
    assert.equal(s.search_count, 1);
    assert.equal(s.order_id, view.id);
    assert.equal(s.requisites_request_starts_at, '2025-03-01T12:01:00.000000Z');

    const confirm = await t.call('POST', `/pay/api/sessions/${id}/confirm`, undefined, { key: null, headers: P });
    assert.equal(confirm.status, 200);
    s = await session(t, id);
    assert.equal(s.state, 'payment_confirmation');
    assert.equal(s.payment_confirmation_starts_at, '2025-03-01T12:01:00.000000Z');
    assert.notEqual(s.payment_confirmation_expires_at, null);

    await t.post(`/sandbox/orders/${view.id}/complete`);
    assert.equal((await session(t, id)).state, 'completed');
    const after = await t.get(`/pay/api/sessions/${id}`, null);
    assert.equal(after.json.order.status, 'paid');
    await t.close();
  });

  test('a failed search goes back to method_selection and counts: search_count', async () => {
    const t = makeSandbox({ seed: false });
    const id = (await t.post('/api/v1/form/create', form({ amount: '200.00' }))).json.form_data.session_id;
    const refused = await select(t, { order_ref: id, payment_method_id: methodId('card') });
    assert.equal(refused.status, 409);
    assert.equal(refused.json.error.code, 'amount_out_of_limits');
    const ok = await select(t, { order_ref: id, method_type: 'SBP' });
    assert.equal(ok.status, 201);
    // The first pick failed before the search; a failed search (no traders) counts:
    const id2 = (await t.post('/api/v1/form/create', form({ amount: '300.00', unique_amount: true }))).json.form_data.session_id;
    for (let i = 0; i < 60; i++) await t.post('/api/v1/order/', buyOrder({ method_type: undefined, payment_method_id: methodId('sbp:tbank'), amount: '300.00', unique_amount: true }));
    const none = await select(t, { order_ref: id2, button_name: 'TPay' });
    assert.equal(none.status, 503);
    assert.deepEqual(none.json.error, { code: 'no_traders', message: PROVIDER_MESSAGES.no_traders, retryable: true });
    let s = await session(t, id2);
    assert.equal(s.state, 'method_selection');
    assert.equal(s.search_count, 1);
    const again = await select(t, { order_ref: id2, customer_bank: 'sberbank' });
    assert.equal(again.status, 201);
    s = await session(t, id2);
    assert.equal(s.state, 'requisites_found');
    assert.equal(s.search_count, 2);
    await t.close();
  });

  test('a session without a choice expires after 30 minutes', async () => {
    const t = makeSandbox({ seed: false });
    const id = (await t.post('/api/v1/form/create', form())).json.form_data.session_id;
    t.sandbox.clock.advance(30 * 60);
    assert.equal((await session(t, id)).state, 'expired');
    const late = await select(t, { order_ref: id, method_type: 'SBP' });
    assert.equal(late.status, 409);
    await t.close();
  });

  test('the order’s timeout expires the session; a service cancel cancels it', async () => {
    const t = makeSandbox({ seed: false });
    const a = (await t.post('/api/v1/form/create', form({ button_name: 'SberPay' }))).json.form_data.session_id;
    const b = (await t.post('/api/v1/form/create', form({ button_name: 'AlfaPay' }))).json.form_data.session_id;
    await t.post(`/sandbox/sessions/${b}/cancel`);
    assert.equal((await session(t, b)).state, 'cancelled');
    t.sandbox.clock.advance(30 * 60);
    assert.equal((await session(t, a)).state, 'expired');
    await t.close();
  });

  test('a second POST /sessions returns the order already found', async () => {
    const t = makeSandbox({ seed: false });
    const id = (await t.post('/api/v1/form/create', form())).json.form_data.session_id;
    const first = await select(t, { order_ref: id, method_type: 'SBP' });
    const second = await select(t, { order_ref: id, method_type: 'BankCard' });
    assert.equal(second.json.order.id, first.json.order.id);
    await t.close();
  });

  test('the hosted form takes button_name, but only one enabled on the terminal', async () => {
    const t = makeSandbox({ seed: false });
    const id = (await t.post('/api/v1/form/create', form())).json.form_data.session_id;
    const r = await select(t, { order_ref: id, button_name: 'TPay' });
    assert.equal(r.status, 201);
    assert.equal(r.json.order.bank, 'tinkoff');
    const sber = (await t.post('/api/v1/form/create', form(), 'sandbox_sber_only')).json.form_data.session_id;
    const refused = await select(t, { order_ref: sber, button_name: 'TPay' });
    assert.equal(refused.status, 400);
    assert.equal(refused.json.error.code, 'button_not_enabled');
    await t.close();
  });
});

describe('widget protocol errors', () => {
  const t = makeSandbox({ seed: false });
  after(() => t.close());

  test('POST without the X-Paydesk header answers 403', async () => {
    const id = (await t.post('/api/v1/form/create', form())).json.form_data.session_id;
    const r = await select(t, { order_ref: id, method_type: 'SBP' }, {});
    assert.equal(r.status, 403);
    assert.equal(r.json.error.code, 'missing_protocol_header');
  });

  test('an unknown order_ref answers 404 order_not_found', async () => {
    const r = await t.get('/pay/api/methods?order_ref=unknown', null);
    assert.equal(r.status, 404);
    assert.deepEqual(r.json, { error: { code: 'order_not_found', message: 'Unknown payment session', retryable: false } });
  });

  test('a bad body answers 400 validation_failed naming the field', async () => {
    const id = (await t.post('/api/v1/form/create', form())).json.form_data.session_id;
    const r = await select(t, { order_ref: id, method_type: 'Crypto' });
    assert.equal(r.status, 400);
    assert.equal(r.json.error.code, 'validation_failed');
    assert.match(r.json.error.message, /method_type/);
    const raw = await t.call('POST', '/pay/api/sessions', undefined, { key: null, headers: P, raw: '{' });
    assert.equal(raw.status, 400);
  });

  test('an oversized body answers 413 payload_too_large', async () => {
    const id = (await t.post('/api/v1/form/create', form())).json.form_data.session_id;
    const r = await select(t, { order_ref: id, method_type: 'SBP', padding: 'x'.repeat(70_000) });
    assert.equal(r.status, 413);
    assert.equal(r.json.error.code, 'payload_too_large');
  });

  test('GET /sessions/S before a method is chosen answers 404', async () => {
    const id = (await t.post('/api/v1/form/create', form())).json.form_data.session_id;
    assert.equal((await t.get(`/pay/api/sessions/${id}`, null)).status, 404);
  });
});

describe('order_with_form', () => {
  const t = makeSandbox({ seed: false });
  after(() => t.close());
  const KEY = 'sandbox_with_form';

  test('a Buy order creates a session in requisites_found and returns its form_url', async () => {
    const r = await t.post(
      '/api/v1/order/',
      buyOrder({ redirect_url: 'https://shop.example/ok', return_url: 'https://shop.example/cart', customer_bank: 'vtb', user_id: 'wf-user' }),
      KEY,
    );
    assert.equal(r.status, 201);
    const id = new URL(r.json.form_url).searchParams.get('session_id')!;
    const s = await session(t, id, KEY);
    assert.equal(s.state, 'requisites_found');
    assert.equal(s.order_id, r.json.id);
    assert.equal(s.selection, false);
    assert.equal(s.redirect_url, 'https://shop.example/ok');
    assert.equal(s.return_url, 'https://shop.example/cart');
    assert.equal(s.expires_at.slice(0, 19), r.json.expires_at.slice(0, 19));
    const page = await t.get(`/pay?session_id=${id}`, null);
    assert.match(page.text, new RegExp(`<paydesk-checkout endpoint="/pay/api" session="${id}">`));
    const view = await t.get(`/pay/api/sessions/${id}`, null);
    assert.equal(view.json.order.form_url, r.json.form_url);
    assert.equal(view.json.order.return_url, 'https://shop.example/cart');
  });

  test('a Sell is refused with 400', async () => {
    const r = await t.post(
      '/api/v1/order/',
      { client_order_id: 'wf-sell', order_side: 'Sell', payment_method_id: methodId('sbp:sber'), amount: '1000.00', customer_account: '+79161234567' },
      KEY,
    );
    assert.equal(r.status, 400);
    assert.equal(r.json.message, PROVIDER_MESSAGES.form_sell_not_allowed);
  });

  test('no requisites: the usual error and no session', async () => {
    const before = (await t.get('/api/v1/form/search', KEY)).json.total;
    const r = await t.post('/api/v1/order/', buyOrder({ amount: '1000.13' }), KEY);
    assert.equal(r.status, 500);
    assert.equal((await t.get('/api/v1/form/search', KEY)).json.total, before);
  });

  test('completing the order completes its session', async () => {
    const r = await t.post('/api/v1/order/', buyOrder(), KEY);
    await t.post(`/sandbox/orders/${r.json.id}/complete`, {}, KEY);
    const id = new URL(r.json.form_url).searchParams.get('session_id')!;
    assert.equal((await session(t, id, KEY)).state, 'completed');
  });
});

describe('hosted form page', () => {
  test('serves a page with a strict CSP that mounts the widget by order-ref and a plain fallback', async () => {
    const t = makeSandbox({ seed: false });
    const id = (await t.post('/api/v1/form/create', form({}, { return_url: 'https://shop.example/cart' }))).json.form_data.session_id;
    const r = await t.get(`/pay?session_id=${id}`, null);
    assert.equal(r.status, 200);
    const csp = r.headers.get('Content-Security-Policy')!;
    assert.match(csp, /script-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-inline/);
    assert.match(r.text, new RegExp(`<paydesk-checkout endpoint="/pay/api" order-ref="${id}">`));
    assert.match(r.text, /<script type="module" src="\/pay\/paydesk\.js"><\/script>/);
    assert.doesNotMatch(r.text, /<script>|<style|style=/, 'no inline script or style');
    assert.match(r.text, /<dd>1\s500,00\s₽<\/dd>/, 'the amount in the terminal currency, formatted for the page language');
    assert.match(r.text, /https:\/\/shop\.example\/cart/);
    await t.close();
  });

  test('escapes what the merchant sent', async () => {
    const t = makeSandbox({ seed: false });
    const id = (await t.post('/api/v1/form/create', form({ client_order_id: '<img src=x onerror=alert(1)>' }))).json.form_data.session_id;
    const r = await t.get(`/pay?session_id=${id}`, null);
    assert.doesNotMatch(r.text, /<img src=x/);
    assert.match(r.text, /&lt;img src=x/);
    await t.close();
  });

  test('/pay/paydesk.js is 404 without a widget script and serves it when given', async () => {
    const without = makeSandbox({ seed: false });
    assert.equal((await without.get('/pay/paydesk.js', null)).status, 404);
    await without.close();
    const withScript = makeSandbox({ seed: false, widgetScript: async () => 'export const paydesk = 1;' });
    const r = await withScript.get('/pay/paydesk.js', null);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('Content-Type')!, /javascript/);
    assert.equal(r.text, 'export const paydesk = 1;');
    await withScript.close();
  });

  test('form_url uses publicUrl when given', async () => {
    const t = makeSandbox({ seed: false, publicUrl: 'http://127.0.0.1:4010' });
    const r = await t.post('/api/v1/form/create', form());
    assert.match(r.json.form_data.form_url, /^http:\/\/127\.0\.0\.1:4010\/pay\?session_id=/);
    await t.close();
  });
});

describe('server-sent events', () => {
  test('sends the OrderView at once and on every change, and closes after a final state', async () => {
    const t = makeSandbox({ seed: false });
    const id = (await t.post('/api/v1/form/create', form({ button_name: 'SberPay' }))).json.form_data.session_id;
    const res = await t.sandbox.app.request(`/pay/api/sessions/${id}/events`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('Content-Type')!, /text\/event-stream/);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    const nextEvent = async (): Promise<{ event: string; data: string } | null> => {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) return { event, data };
          continue;
        }
        const { value, done } = await reader.read();
        if (done) return null;
        buffer += decoder.decode(value, { stream: true });
      }
    };
    const first = await nextEvent();
    assert.equal(first?.event, 'order');
    const view = parseOrderView(JSON.parse(first!.data));
    assert.equal(view.status, 'pending');
    await t.post(`/sandbox/orders/${view.id}/complete`);
    const second = await nextEvent();
    assert.equal(parseOrderView(JSON.parse(second!.data)).status, 'paid');
    assert.equal(await nextEvent(), null, 'the stream ends after a final state');
    await t.close();
  });

  test('after 15 s of quiet a keep-alive comment goes out, and an expiry nobody announced is sent then', async (ctx) => {
    ctx.mock.timers.enable({ apis: ['setTimeout'] });
    const t = makeSandbox({ seed: false });
    const id = (await t.post('/api/v1/form/create', form({ button_name: 'SberPay' }))).json.form_data.session_id;
    const res = await t.sandbox.app.request(`/pay/api/sessions/${id}/events`);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const read = async () => decoder.decode((await reader.read()).value);
    assert.match(await read(), /^id: 1\nevent: order\ndata: .*"status":"pending"/);
    t.time.now += 24 * 3600_000; // the order is past its time, but no sweep runs
    ctx.mock.timers.tick(14_999);
    const next = read();
    ctx.mock.timers.tick(1);
    assert.equal(await next, ': keep-alive\n\n');
    assert.match(await read(), /^id: 2\nevent: order\ndata: .*"status":"expired"/);
    await reader.cancel();
    await t.close();
  });

  test('an unknown session answers 404', async () => {
    const t = makeSandbox({ seed: false });
    const r = await t.get('/pay/api/sessions/nope/events', null);
    assert.equal(r.status, 404);
    assert.equal(r.json.error.code, 'session_not_found');
    await t.close();
  });
});
