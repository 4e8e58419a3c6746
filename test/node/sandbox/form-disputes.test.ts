/**
 * The hosted form's side of the money safety contract (DESIGN.md): the receipt upload
 * `POST /pay/api/sessions/{id}/dispute`, OrderView `dispute` and `late`, an event stream that
 * outlives expiry, the protocol's closed list of error codes, and the page's theme.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { DISPUTE_MAX_COMMENT, DISPUTE_MAX_FILE_BYTES, PROTOCOL_ERROR_CODES, parseOrderView, type OrderView } from '../../../src/protocol/index.js';
import { PAGE_CSS } from '../../../src/sandbox/routes/pay.js';
import { HTML_PAGE, makePdf, makePng, receiptForm } from './receipt-files.js';
import { makeSandbox, replyOf, type TestSandbox } from './helpers.js';

const P = { 'X-Paydesk': '1' };
const DAY = 24 * 3600;

/** A hosted form session with its order (SBP of Sber). */
async function formWithOrder(t: TestSandbox): Promise<{ id: string; order: OrderView }> {
  const created = await t.post('/api/v1/form/create', {
    order_data: { client_order_id: `fd-${Math.random().toString(36).slice(2)}`, order_side: 'Buy', amount: '1500.00', button_name: 'SberPay' },
    support_url: 'https://shop.example/help',
  });
  const id = created.json.form_data.session_id as string;
  const view = await t.get(`/pay/api/sessions/${id}`, null);
  return { id, order: parseOrderView(view.json.order) };
}

async function sendReceipts(t: TestSandbox, id: string, form: FormData, headers: Record<string, string> = P) {
  return replyOf(await t.sandbox.app.request(`/pay/api/sessions/${id}/dispute`, { method: 'POST', headers, body: form }));
}

const receipt = () => receiptForm({ comment: 'Paid at 12:31 from Sber' }, [{ name: 'receipt.png', type: 'image/png', data: makePng() }], 'files');
const view = async (t: TestSandbox, id: string) => parseOrderView((await t.get(`/pay/api/sessions/${id}`, null)).json.order);

describe('POST /pay/api/sessions/{id}/dispute', () => {
  test('while pending: 201 {order, server_time} with order.dispute open; the provider dispute has the receipt and comment', async () => {
    const t = makeSandbox({ seed: false });
    const { id, order } = await formWithOrder(t);
    assert.equal(order.dispute, null);
    assert.equal(order.late, false);
    const r = await sendReceipts(t, id, receipt());
    assert.equal(r.status, 201, r.text);
    const v = parseOrderView(r.json.order);
    assert.equal(v.dispute?.status, 'open');
    assert.equal(typeof r.json.server_time, 'string');
    const provider = (await t.get(`/api/v1/disputes/search?order_id=${order.id}`)).json.data.items;
    assert.equal(provider.length, 1);
    assert.equal(provider[0].dispute_id, v.dispute!.id);
    const detail = (await t.get(`/sandbox/disputes/${v.dispute!.id}`)).json.dispute;
    assert.equal(detail.source, 'form');
    assert.equal(detail.comment, 'Paid at 12:31 from Sber');
    assert.equal(detail.claimed_amount, order.amount);
    assert.equal(detail.files[0].content_type, 'image/png');
    await t.close();
  });

  test('once while one is open (409 dispute_open); after it is closed (rejected) a new one may be opened', async () => {
    const t = makeSandbox({ seed: false });
    const { id } = await formWithOrder(t);
    const first = parseOrderView((await sendReceipts(t, id, receipt())).json.order).dispute!;
    const second = await sendReceipts(t, id, receipt());
    assert.equal(second.status, 409);
    assert.equal(second.json.error.code, 'dispute_open');
    await t.post(`/sandbox/disputes/${first.id}/process`, { accepted: false });
    assert.equal((await view(t, id)).dispute?.status, 'closed');
    const third = await sendReceipts(t, id, receipt());
    assert.equal(third.status, 201);
    assert.notEqual(parseOrderView(third.json.order).dispute?.id, first.id, 'the latest dispute is shown');
    await t.close();
  });

  test('after expiry within 7 days: allowed; an accepted dispute shows paid, late, with the provider status still cancelled', async () => {
    const t = makeSandbox({ seed: false });
    const { id, order } = await formWithOrder(t);
    t.sandbox.clock.advance(31 * 60);
    t.sandbox.sweep();
    assert.equal((await view(t, id)).status, 'expired');
    t.sandbox.clock.advance(6 * DAY);
    const r = await sendReceipts(t, id, receipt());
    assert.equal(r.status, 201, r.text);
    const d = parseOrderView(r.json.order).dispute!;
    await t.post(`/sandbox/disputes/${d.id}/process`, { accepted: true });
    const v = await view(t, id);
    assert.equal(v.status, 'paid');
    assert.equal(v.late, true);
    assert.equal(v.provider_status, 'CanceledByTimeout');
    assert.equal(v.dispute?.status, 'closed');
    assert.equal(v.id, order.id);
    const again = await sendReceipts(t, id, receipt());
    assert.equal(again.status, 409);
    assert.equal(again.json.error.code, 'dispute_not_allowed', 'paid: nothing to dispute');
    await t.close();
  });

  test('a late completion shows paid and late too', async () => {
    const t = makeSandbox({ seed: false });
    const { id, order } = await formWithOrder(t);
    await t.post(`/sandbox/orders/${order.id}/cancel`);
    assert.equal((await view(t, id)).status, 'cancelled');
    await t.post(`/sandbox/orders/${order.id}/complete`, { late: true });
    const v = await view(t, id);
    assert.deepEqual([v.status, v.late, v.provider_status], ['paid', true, 'Completed']);
    const s = (await t.get(`/api/v1/form/search?session_id=${id}`)).json.items[0];
    assert.equal(s.state, 'completed', 'the form session follows the late completion');
    await t.close();
  });

  test('not allowed: paid in time, more than 7 days after the end, or before a method was chosen', async () => {
    const t = makeSandbox({ seed: false });
    const paid = await formWithOrder(t);
    await t.post(`/sandbox/orders/${paid.order.id}/complete`);
    const r1 = await sendReceipts(t, paid.id, receipt());
    assert.deepEqual([r1.status, r1.json.error.code], [409, 'dispute_not_allowed']);
    assert.equal((await view(t, paid.id)).late, false, 'paid in time is not late');

    const old = await formWithOrder(t);
    await t.post(`/sandbox/orders/${old.order.id}/expire`);
    t.sandbox.clock.advance(7 * DAY + 60);
    const r2 = await sendReceipts(t, old.id, receipt());
    assert.deepEqual([r2.status, r2.json.error.code], [409, 'dispute_not_allowed']);
    assert.match(r2.json.error.message, /7 days/);

    const bare = (await t.post('/api/v1/form/create', { order_data: { client_order_id: 'bare', order_side: 'Buy', amount: '1500.00' } })).json.form_data.session_id;
    const r3 = await sendReceipts(t, bare, receipt());
    assert.deepEqual([r3.status, r3.json.error.code], [409, 'dispute_not_allowed']);
    await t.close();
  });

  test('the upload is checked: header 403, session 404, type 415, sizes 413, count and comment 400, not multipart 415', async () => {
    const t = makeSandbox({ seed: false });
    const { id, order } = await formWithOrder(t);
    const noHeader = await sendReceipts(t, id, receipt(), {});
    assert.deepEqual([noHeader.status, noHeader.json.error.code], [403, 'missing_protocol_header']);
    const unknown = await sendReceipts(t, 'no-such-session', receipt());
    assert.deepEqual([unknown.status, unknown.json.error.code], [404, 'session_not_found']);
    const html = await sendReceipts(t, id, receiptForm({}, [{ name: 'receipt.png', type: 'image/png', data: HTML_PAGE }], 'files'));
    assert.deepEqual([html.status, html.json.error.code], [415, 'unsupported_file']);
    const big = new Uint8Array(DISPUTE_MAX_FILE_BYTES + 1);
    big.set(makePdf());
    const tooBig = await sendReceipts(t, id, receiptForm({}, [{ name: 'big.pdf', type: 'application/pdf', data: big }], 'files'));
    assert.deepEqual([tooBig.status, tooBig.json.error.code], [413, 'payload_too_large']);
    const none = await sendReceipts(t, id, receiptForm({ comment: 'no file' }, [], 'files'));
    assert.deepEqual([none.status, none.json.error.code], [400, 'validation_failed']);
    const six = await sendReceipts(t, id, receiptForm({}, Array.from({ length: 6 }, (_, i) => ({ name: `${i}.png`, type: 'image/png', data: makePng() })), 'files'));
    assert.deepEqual([six.status, six.json.error.code], [400, 'validation_failed']);
    const long = await sendReceipts(t, id, receiptForm({ comment: 'x'.repeat(DISPUTE_MAX_COMMENT + 1) }, [{ name: 'r.png', type: 'image/png', data: makePng() }], 'files'));
    assert.deepEqual([long.status, long.json.error.code], [400, 'validation_failed']);
    const json = await t.call('POST', `/pay/api/sessions/${id}/dispute`, { files: [] }, { key: null, headers: P });
    assert.deepEqual([json.status, json.json.error.code], [415, 'unsupported_media_type']);
    const oversized = await t.call('POST', `/pay/api/sessions/${id}/dispute`, undefined, {
      key: null,
      headers: { ...P, 'Content-Type': 'multipart/form-data; boundary=x', 'Content-Length': String(40 * 1024 * 1024) },
      raw: '--x--',
    });
    assert.deepEqual([oversized.status, oversized.json.error.code], [413, 'payload_too_large']);
    assert.equal((await t.get(`/api/v1/disputes/search?order_id=${order.id}`)).json.data.total, 0, 'nothing refused was opened');
    await t.close();
  });
});

describe('the hosted form’s error codes all come from PROTOCOL_ERROR_CODES', () => {
  test('unknown sessions, order refs, routes, bodies and refusals', async () => {
    const t = makeSandbox({ seed: false });
    const { id, order } = await formWithOrder(t);
    await t.post(`/sandbox/orders/${order.id}/expire`);
    const answers = [
      await t.get('/pay/api/sessions/nope', null),
      await t.get('/pay/api/sessions/nope/events', null),
      await t.call('POST', '/pay/api/sessions/nope/confirm', {}, { key: null, headers: P }),
      await t.get('/pay/api/methods?order_ref=nope', null),
      await t.call('POST', '/pay/api/sessions', { order_ref: 'nope' }, { key: null, headers: P }),
      await t.call('POST', '/pay/api/sessions', { order_ref: 'x', method_type: 'Gold' }, { key: null, headers: P }),
      await t.call('POST', '/pay/api/sessions', { order_ref: 'x' }, { key: null }),
      await t.get('/pay/api/nothing-here', null),
      await t.call('POST', `/pay/api/sessions/${id}/confirm`, {}, { key: null, headers: P }),
    ];
    const codes = answers.map((a) => a.json?.error?.code);
    for (const [i, code] of codes.entries()) assert.ok((PROTOCOL_ERROR_CODES as readonly string[]).includes(code), `answer ${i}: ${code} (${answers[i]!.text})`);
    assert.deepEqual(codes.slice(0, 5), ['session_not_found', 'session_not_found', 'session_not_found', 'order_not_found', 'order_not_found']);
    assert.equal(codes[8], 'session_expired', 'confirming an expired session');
    await t.close();
  });
});

describe('the event stream and late payments', () => {
  test('it stays open after expiry, sends the late payment, then ends', async () => {
    const t = makeSandbox({ seed: false });
    const { id, order } = await formWithOrder(t);
    const res = await t.sandbox.app.request(`/pay/api/sessions/${id}/events`);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    const next = async (): Promise<OrderView | null> => {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (data) return parseOrderView(JSON.parse(data));
          continue;
        }
        const { value, done } = await reader.read();
        if (done) return null;
        buffer += decoder.decode(value, { stream: true });
      }
    };
    assert.equal((await next())?.status, 'pending');
    await t.post(`/sandbox/orders/${order.id}/expire`);
    assert.equal((await next())?.status, 'expired');
    // A receipt, then the operators' acceptance: the stream, still open, follows both.
    const d = parseOrderView((await sendReceipts(t, id, receipt())).json.order).dispute!;
    const withDispute = await next();
    assert.equal(withDispute?.dispute?.status, 'open');
    await t.post(`/sandbox/disputes/${d.id}/process`, { accepted: true });
    const paid = await next();
    assert.deepEqual([paid?.status, paid?.late, paid?.dispute?.status], ['paid', true, 'closed']);
    assert.equal(await next(), null, 'the stream ends after paid');
    await t.close();
  });
});

describe('the hosted form page follows the theme', () => {
  test('?theme=dark: the page is marked dark, the element gets theme="dark", and the stylesheet paints a dark background', async () => {
    const t = makeSandbox({ seed: false });
    const { id } = await formWithOrder(t);
    const page = await t.get(`/pay?session_id=${id}&theme=dark`, null);
    assert.match(page.text, /<html lang="ru" data-theme="dark">/);
    assert.match(page.text, /<meta name="color-scheme" content="dark">/);
    assert.match(page.text, /<paydesk-checkout endpoint="\/pay\/api" session="[^"]+" theme="dark">/);
    assert.match(page.text, /<link rel="stylesheet" href="\/pay\/page\.css">/);
    const light = await t.get(`/pay?session_id=${id}&theme=light`, null);
    assert.match(light.text, / theme="light">/);
    const none = await t.get(`/pay?session_id=${id}&theme=<script>`, null);
    assert.doesNotMatch(none.text, /theme=|data-theme/, 'anything else is ignored, never echoed');
    const css = await t.get('/pay/page.css', null);
    assert.equal(css.status, 200);
    assert.match(css.headers.get('Content-Type')!, /^text\/css/);
    assert.equal(css.text, PAGE_CSS);
    assert.match(css.text, /html\[data-theme=dark\]\{background:#0f1115/);
    assert.match(css.text, /prefers-color-scheme:dark/);
    const csp = page.headers.get('Content-Security-Policy')!;
    assert.match(csp, /style-src 'self'/, 'the stylesheet is same-origin, no inline style');
    await t.close();
  });
});
