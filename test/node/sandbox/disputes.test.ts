/**
 * Disputes with receipts: `POST /api/v1/disputes/create` (multipart, provider-notes.md), the
 * receipts served back safely for a console, processing with the existing control, the money of an
 * accepted dispute (a deposit naming the order), and the late completion control.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { DISPUTE_MAX_FILE_BYTES } from '../../../src/protocol/index.js';
import { PROVIDER_MESSAGES } from '../../../src/provider/facts.js';
import { HTML_PAGE, makePdf, makePng, receiptForm } from './receipt-files.js';
import { KEY, buyOrder, makeSandbox, replyOf, sellOrder, type TestSandbox } from './helpers.js';

async function upload(t: TestSandbox, form: FormData, key = KEY) {
  return replyOf(await t.sandbox.app.request('/api/v1/disputes/create', { method: 'POST', headers: { 'X-API-Key': key }, body: form }));
}

async function expiredOrder(t: TestSandbox, extra: Record<string, unknown> = {}) {
  const o = (await t.post('/api/v1/order/', buyOrder(extra))).json;
  await t.post(`/sandbox/orders/${o.id}/expire`);
  return o as { id: string; client_order_id: string; amount: string; fee: string };
}

const deposits = async (t: TestSandbox) =>
  (await t.get('/api/v1/finance/transactions?transaction_type=deposit&size=100')).json.items as { amount: string; client_description: string }[];

describe('POST /api/v1/disputes/create', () => {
  test('a PNG and a PDF made here: 201 {order_id, dispute_id, dispute_files}; the dispute is in disputes/search, open', async () => {
    const t = makeSandbox({ seed: false });
    const o = await expiredOrder(t);
    const png = makePng();
    assert.equal(PNG.sync.read(Buffer.from(png)).width, 4, 'a real PNG');
    const pdf = makePdf();
    const r = await upload(
      t,
      receiptForm({ order_id: o.id, amount: o.amount }, [
        { name: 'receipt.png', type: 'image/png', data: png },
        { name: 'statement.pdf', type: 'application/pdf', data: pdf },
      ]),
    );
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.order_id, o.id);
    assert.equal(typeof r.json.dispute_id, 'string');
    assert.deepEqual(
      r.json.dispute_files.map((f: { file_name: string; content_type: string; size: number; index: number }) => [f.index, f.file_name, f.content_type, f.size]),
      [
        [0, 'receipt.png', 'image/png', png.length],
        [1, 'statement.pdf', 'application/pdf', pdf.length],
      ],
    );
    const found = (await t.get(`/api/v1/disputes/search?dispute_id=${r.json.dispute_id}`)).json.data.items;
    assert.equal(found.length, 1);
    assert.equal(found[0].order_id, o.id);
    assert.equal(found[0].processed, false);
    assert.equal(found[0].amount, 1500, 'the amount of the order (a number, as the document says)');
    const detail = (await t.get(`/sandbox/disputes/${r.json.dispute_id}`)).json.dispute;
    assert.equal(detail.source, 'api');
    assert.equal(detail.claimed_amount, '1500.00');
    assert.equal(detail.files.length, 2);
    assert.equal(detail.files[0].url, `/sandbox/disputes/${r.json.dispute_id}/files/0`);
    await t.close();
  });

  test('the receipts are served back as what their content is, never as a page', async () => {
    const t = makeSandbox({ seed: false });
    const o = await expiredOrder(t);
    const png = makePng();
    const pdf = makePdf();
    const r = await upload(
      t,
      receiptForm({ order_id: o.id, amount: o.amount }, [
        { name: '../../etc/"chek".html', type: 'text/html', data: png },
        { name: 'выписка.pdf', type: 'application/pdf', data: pdf },
      ]),
    );
    assert.equal(r.status, 201, r.text);
    const image = await t.sandbox.app.request(`/sandbox/disputes/${r.json.dispute_id}/files/0`, { headers: { 'X-API-Key': KEY } });
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('Content-Type'), 'image/png', 'the type the bytes prove, not the declared text/html');
    assert.equal(image.headers.get('X-Content-Type-Options'), 'nosniff');
    assert.match(image.headers.get('Content-Security-Policy')!, /default-src 'none'/);
    assert.match(image.headers.get('Content-Security-Policy')!, /sandbox/);
    assert.doesNotMatch(image.headers.get('Content-Security-Policy')!, /script-src/);
    assert.equal(image.headers.get('Content-Disposition'), `inline; filename="_chek_.html.png"; filename*=UTF-8''_chek_.html.png`);
    assert.deepEqual(new Uint8Array(await image.arrayBuffer()), png);
    const doc = await t.sandbox.app.request(`/sandbox/disputes/${r.json.dispute_id}/files/1`, { headers: { 'X-API-Key': KEY } });
    assert.equal(doc.headers.get('Content-Type'), 'application/pdf');
    assert.match(doc.headers.get('Content-Disposition')!, /^attachment; filename="_______\.pdf"; filename\*=UTF-8''%D0%B2%D1%8B%D0%BF%D0%B8%D1%81%D0%BA%D0%B0\.pdf$/);
    assert.deepEqual(new Uint8Array(await doc.arrayBuffer()), pdf);
    const download = await t.sandbox.app.request(`/sandbox/disputes/${r.json.dispute_id}/files/0?download=1`, { headers: { 'X-API-Key': KEY } });
    assert.match(download.headers.get('Content-Disposition')!, /^attachment;/);
    assert.equal((await t.get(`/sandbox/disputes/${r.json.dispute_id}/files/2`)).status, 404);
    assert.equal((await t.get(`/sandbox/disputes/${r.json.dispute_id}/files/x`)).status, 404);
    assert.equal((await t.get(`/sandbox/disputes/${r.json.dispute_id}/files/0`, 'sandbox_with_form')).status, 404, 'another terminal');
    assert.equal((await t.get(`/sandbox/disputes/${r.json.dispute_id}/files/0`, null)).status, 401);
    await t.close();
  });

  test('an HTML file renamed .png is refused by its content: 415, and no dispute is opened', async () => {
    const t = makeSandbox({ seed: false });
    const o = await expiredOrder(t);
    const r = await upload(t, receiptForm({ order_id: o.id, amount: o.amount }, [{ name: 'receipt.png', type: 'image/png', data: HTML_PAGE }]));
    assert.equal(r.status, 415);
    assert.equal(r.json.success, false);
    assert.match(r.json.message, /not a JPEG, PNG, WebP, HEIC or PDF/);
    assert.equal((await t.get(`/api/v1/disputes/search?order_id=${o.id}`)).json.data.total, 0);
    await t.close();
  });

  test('WebP, JPEG and HEIC by their magic bytes; the field may be `files` as well as `files[]`', async () => {
    const t = makeSandbox({ seed: false });
    const o = await expiredOrder(t);
    const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
    const webp = new Uint8Array([...ascii('RIFF'), 26, 0, 0, 0, ...ascii('WEBPVP8 '), 0, 0, 0, 0]);
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, ...ascii('JFIF'), 0]);
    const heic = new Uint8Array([0, 0, 0, 24, ...ascii('ftypmif1'), 0, 0, 0, 0, ...ascii('mif1heic')]);
    const r = await upload(
      t,
      receiptForm(
        { order_id: o.id, amount: '1500' },
        [
          { name: 'a.webp', type: 'image/webp', data: webp },
          { name: 'b', type: 'application/octet-stream', data: jpeg },
          { name: 'c.HEIC', type: 'image/heic', data: heic },
        ],
        'files',
      ),
    );
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(
      r.json.dispute_files.map((f: { content_type: string; file_name: string }) => [f.content_type, f.file_name]),
      [
        ['image/webp', 'a.webp'],
        ['image/jpeg', 'b.jpg'],
        ['image/heic', 'c.HEIC'],
      ],
    );
    await t.close();
  });

  test('refusals name what is wrong: missing fields 422, no files 422, six files 422, a file over 10 MB 413, an unknown order 404', async () => {
    const t = makeSandbox({ seed: false });
    const o = await expiredOrder(t);
    const png = makePng();
    const one = [{ name: 'r.png', type: 'image/png', data: png }];
    const noOrder = await upload(t, receiptForm({ amount: '1500.00' }, one));
    assert.equal(noOrder.status, 422);
    assert.match(noOrder.json.message, /order_id/);
    const noAmount = await upload(t, receiptForm({ order_id: o.id }, one));
    assert.equal(noAmount.status, 422);
    assert.match(noAmount.json.message, /amount/);
    const badAmount = await upload(t, receiptForm({ order_id: o.id, amount: '1,500' }, one));
    assert.equal(badAmount.status, 422);
    const noFiles = await upload(t, receiptForm({ order_id: o.id, amount: o.amount }, []));
    assert.equal(noFiles.status, 422);
    assert.match(noFiles.json.message, /receipt/);
    const six = await upload(t, receiptForm({ order_id: o.id, amount: o.amount }, Array.from({ length: 6 }, (_, i) => ({ name: `${i}.png`, type: 'image/png', data: png }))));
    assert.equal(six.status, 422);
    assert.match(six.json.message, /at most 5/);
    const big = new Uint8Array(DISPUTE_MAX_FILE_BYTES + 1);
    big.set(makePdf());
    const tooBig = await upload(t, receiptForm({ order_id: o.id, amount: o.amount }, [{ name: 'big.pdf', type: 'application/pdf', data: big }]));
    assert.equal(tooBig.status, 413);
    const unknown = await upload(t, receiptForm({ order_id: '00000000-0000-4000-8000-000000000000', amount: '1500.00' }, one));
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.message, PROVIDER_MESSAGES.order_not_found);
    const json = await t.post('/api/v1/disputes/create', { order_id: o.id, amount: o.amount });
    assert.equal(json.status, 422);
    assert.match(json.json.message, /multipart\/form-data/);
    assert.equal((await t.get(`/api/v1/disputes/search?order_id=${o.id}`)).json.data.total, 0, 'no refused upload opened a dispute');
    await t.close();
  });

  test('a body over the upload limit is 413 before it is read', async () => {
    const t = makeSandbox({ seed: false });
    const r = await t.call('POST', '/api/v1/disputes/create', undefined, {
      headers: { 'Content-Type': 'multipart/form-data; boundary=x', 'Content-Length': String(30 * 1024 * 1024) },
      raw: '--x--',
    });
    assert.equal(r.status, 413);
    await t.close();
  });

  test('extra form fields are ignored and named', async () => {
    const t = makeSandbox({ seed: false });
    const o = await expiredOrder(t);
    const r = await upload(t, receiptForm({ order_id: o.id, amount: o.amount, comment: 'paid at 12:31', client_order_id: o.client_order_id }, [{ name: 'r.png', type: 'image/png', data: makePng() }]));
    assert.equal(r.status, 201);
    assert.equal(r.headers.get('X-Sandbox-Ignored-Fields'), 'comment, client_order_id');
    await t.close();
  });
});

describe('processing disputes and late payments: the money', () => {
  test('an accepted dispute on an expired order: the order stays CanceledByTimeout; a deposit names its id and client_order_id; once', async () => {
    const t = makeSandbox({ seed: false });
    const o = await expiredOrder(t, { client_order_id: 'late-dispute-1' });
    const r = await upload(t, receiptForm({ order_id: o.id, amount: o.amount }, [{ name: 'r.png', type: 'image/png', data: makePng() }]));
    const processed = await t.post(`/sandbox/disputes/${r.json.dispute_id}/process`, { accepted: true });
    assert.equal(processed.status, 200);
    assert.equal(processed.json.dispute.processed, true);
    assert.equal(processed.json.dispute.accepted, true);
    assert.equal((await t.get(`/api/v1/order/${o.id}`)).json.order.status, 'CanceledByTimeout');
    const credit = (await deposits(t)).filter((d) => d.client_description.includes(o.id));
    assert.equal(credit.length, 1);
    assert.match(credit[0]!.client_description, new RegExp(`order ${o.id} \\(client_order_id late-dispute-1\\)`));
    assert.equal(Math.round(Number(credit[0]!.amount) * 100), Math.round((Number(o.amount) - Number(o.fee)) * 100));
    // A second accepted dispute, and a late completion, credit nothing more.
    const again = (await t.post(`/sandbox/orders/${o.id}/dispute`)).json.dispute;
    await t.post(`/sandbox/disputes/${again.dispute_id}/process`, { accepted: true });
    const late = await t.post(`/sandbox/orders/${o.id}/complete`, { late: true });
    assert.equal(late.status, 200);
    assert.equal(late.json.order.status, 'Completed');
    assert.equal((await deposits(t)).filter((d) => d.client_description.includes(o.id)).length, 1, 'the provider pays once');
    await t.close();
  });

  test('a rejected dispute moves no money', async () => {
    const t = makeSandbox({ seed: false });
    const o = await expiredOrder(t);
    const before = (await t.get('/api/v1/finance/balance')).json.deposit;
    const d = (await t.post(`/sandbox/orders/${o.id}/dispute`)).json.dispute;
    const r = await t.post(`/sandbox/disputes/${d.dispute_id}/process`, { accepted: false });
    assert.equal(r.json.dispute.accepted, false);
    assert.deepEqual((await t.get('/api/v1/finance/balance')).json.deposit, before);
    assert.equal((await t.post(`/sandbox/disputes/${d.dispute_id}/process`, { accepted: true })).status, 409, 'processed once');
    await t.close();
  });

  test('complete {"late": true}: CanceledByTimeout or CanceledByService → Completed, credited with a deposit naming the order, webhook sent', async () => {
    for (const end of ['expire', 'cancel'] as const) {
      const t = makeSandbox({ seed: false, webhookUrl: 'http://127.0.0.1:9/hooks', fetch: async () => new Response(null, { status: 204 }) });
      const o = (await t.post('/api/v1/order/', buyOrder({ client_order_id: `late-${end}` }))).json;
      await t.post(`/sandbox/orders/${o.id}/${end}`);
      const ended = (await t.get(`/api/v1/order/${o.id}`)).json.order.status;
      const refused = await t.post(`/sandbox/orders/${o.id}/complete`);
      assert.equal(refused.status, 409, 'without late only Unpaid completes');
      const r = await t.post(`/sandbox/orders/${o.id}/complete`, { late: true });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.order.status, 'Completed');
      assert.match(r.json.message, new RegExp(`late, had ended ${ended}`));
      const credit = (await deposits(t)).find((d) => d.client_description.includes(o.id));
      assert.ok(credit, 'credited');
      assert.match(credit.client_description, new RegExp(`late-${end}`));
      await t.sandbox.webhooks.idle();
      const hooks = t.sandbox.webhooks.log().filter((d) => d.order_id === o.id);
      assert.deepEqual(
        hooks.map((d) => d.envelope.payload.status),
        [ended, 'Completed'],
      );
      assert.equal((await t.post(`/sandbox/orders/${o.id}/complete`, { late: true })).status, 409, 'a Completed order stays as it is');
      await t.close();
    }
  });

  test('complete {"late": true} on an Unpaid order completes it as usual; on a payout it is refused', async () => {
    const t = makeSandbox({ seed: false });
    const o = (await t.post('/api/v1/order/', buyOrder())).json;
    assert.equal((await t.post(`/sandbox/orders/${o.id}/complete`, { late: true })).json.order.status, 'Completed');
    const p = (await t.post('/api/v1/order/', sellOrder())).json;
    await t.post(`/sandbox/orders/${p.id}/expire`);
    const r = await t.post(`/sandbox/orders/${p.id}/complete`, { late: true });
    assert.equal(r.status, 409);
    assert.match(r.json.message, /Buy/);
    assert.equal((await t.post(`/sandbox/orders/${o.id}/complete`, { late: 'yes' })).status, 422);
    await t.close();
  });
});
